package mcp

import (
	"context"
	"crypto/rand"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// The result shapes below are what assistants see (reference-facts §3.2)
// and what the REST twins under /v1/mcp/ return (§3.3). Locked content
// never shows whole: lists and searches carry a preview, direct access is
// refused with ELOCKED.

// Memory is a memory as assistants see it (the reference's memory doc).
type Memory struct {
	ID             string    `json:"id"`
	Content        string    `json:"content"`
	Category       string    `json:"category"`
	Visibility     string    `json:"visibility"`
	Tags           []string  `json:"tags"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
	ConversationID *string   `json:"conversation_id"`
	Reviewed       bool      `json:"reviewed"`
	UserReview     *bool     `json:"user_review"`
	ManuallyAdded  bool      `json:"manually_added"`
	Edited         bool      `json:"edited"`
	Scoring        string    `json:"scoring"`
	IsLocked       bool      `json:"is_locked"`
	RelevanceScore *float64  `json:"relevance_score,omitempty"`
}

// MemoryJSON projects m; locked content is cut to LockedPreview.
func MemoryJSON(m *appliance.Memory) Memory {
	content := m.Content
	if m.IsLocked {
		content = appliance.LockedPreview(content)
	}
	tags := m.Tags
	if tags == nil {
		tags = []string{}
	}
	vis := string(m.Visibility)
	if vis == "" {
		vis = string(appliance.VisibilityPrivate)
	}
	return Memory{ID: m.ID, Content: content, Category: m.Category, Visibility: vis, Tags: tags,
		CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, ConversationID: m.ConversationID, Reviewed: m.Reviewed,
		UserReview: m.UserReview, ManuallyAdded: m.ManuallyAdded, Edited: m.Edited, Scoring: appliance.MemoryScoring(m),
		IsLocked: m.IsLocked}
}

// ConversationSummary is a conversation in lists and searches:
// {id, started_at, finished_at, structured, language}.
type ConversationSummary struct {
	ID             string     `json:"id"`
	StartedAt      *time.Time `json:"started_at"`
	FinishedAt     *time.Time `json:"finished_at"`
	Structured     Structured `json:"structured"`
	Language       string     `json:"language"`
	RelevanceScore *float64   `json:"relevance_score,omitempty"`
}

// Structured is a conversation's structure as assistants see it.
type Structured struct {
	Title       string             `json:"title"`
	Overview    string             `json:"overview"`
	Emoji       string             `json:"emoji"`
	Category    appliance.Category `json:"category"`
	ActionItems []StructuredAction `json:"action_items"`
	Events      []appliance.Event  `json:"events"`
}

// StructuredAction is an action item inside a conversation's structure (the
// seven fields the developer API shows too).
type StructuredAction struct {
	Description    string     `json:"description"`
	Completed      bool       `json:"completed"`
	CreatedAt      *time.Time `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
	DueAt          *time.Time `json:"due_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	ConversationID *string    `json:"conversation_id"`
}

// SummarizeConversation projects c for lists. A locked conversation keeps
// its title and category, its overview becomes a preview, and its action
// items and events are emptied (reference: "keep structured but with
// action_items and events emptied").
func SummarizeConversation(c *appliance.Conversation) ConversationSummary {
	return ConversationSummary{ID: c.ID, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt,
		Structured: structuredJSON(c), Language: c.Language}
}

func structuredJSON(c *appliance.Conversation) Structured {
	s := Structured{Title: c.Structured.Title, Overview: c.Structured.Overview, Emoji: c.Structured.Emoji,
		Category: c.Structured.Category, ActionItems: []StructuredAction{}, Events: []appliance.Event{}}
	if s.Emoji == "" {
		s.Emoji = appliance.DefaultEmoji
	}
	if s.Category == "" {
		s.Category = appliance.CategoryOther
	}
	if c.IsLocked {
		s.Overview = appliance.LockedPreview(s.Overview)
		return s
	}
	for _, a := range c.Structured.ActionItems {
		s.ActionItems = append(s.ActionItems, StructuredAction{Description: a.Description, Completed: a.Completed,
			CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, DueAt: a.DueAt, CompletedAt: a.CompletedAt,
			ConversationID: a.ConversationID})
	}
	if c.Structured.Events != nil {
		s.Events = c.Structured.Events
	}
	return s
}

// ConversationDetail is one conversation with its transcript
// (get_conversation_by_id, GET /v1/mcp/conversations/{id}).
type ConversationDetail struct {
	ID                 string                 `json:"id"`
	CreatedAt          time.Time              `json:"created_at"`
	StartedAt          *time.Time             `json:"started_at"`
	FinishedAt         *time.Time             `json:"finished_at"`
	Source             string                 `json:"source"`
	Language           string                 `json:"language"`
	Status             string                 `json:"status"`
	Structured         Structured             `json:"structured"`
	TranscriptSegments []TranscriptSegment    `json:"transcript_segments"`
	Geolocation        *appliance.Geolocation `json:"geolocation"`
	FolderID           *string                `json:"folder_id"`
}

// TranscriptSegment is a segment as assistants see it.
type TranscriptSegment struct {
	ID          string  `json:"id"`
	Text        string  `json:"text"`
	SpeakerID   int     `json:"speaker_id"`
	SpeakerName string  `json:"speaker_name"`
	Start       float64 `json:"start"`
	End         float64 `json:"end"`
}

// GetConversation loads one conversation for an assistant: ENOTFOUND
// "Conversation not found" when absent or deleted, and ELOCKED when locked.
func GetConversation(ctx context.Context, st appliance.Store, userID, id string) (*ConversationDetail, error) {
	c, err := st.Conversation(ctx, userID, id)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
	} else if err != nil {
		return nil, err
	}
	if c.IsLocked {
		return nil, lockedError("conversation")
	}
	return ConversationJSON(ctx, st, userID, c)
}

// ConversationJSON projects c with its transcript, naming speakers as the
// reference does: the user's name (fallback "User") for the user's own
// segments, a known person's name, else "Speaker N".
func ConversationJSON(ctx context.Context, st appliance.Store, userID string, c *appliance.Conversation) (*ConversationDetail, error) {
	var personIDs []string
	for _, seg := range c.TranscriptSegments {
		if seg.PersonID != nil && !seg.IsUser {
			personIDs = append(personIDs, *seg.PersonID)
		}
	}
	people, err := st.PersonNames(ctx, userID, personIDs)
	if err != nil {
		return nil, err
	}
	userName := "User"
	if u, err := st.User(ctx, userID); err == nil && u.Name != "" {
		userName = u.Name
	}
	d := &ConversationDetail{ID: c.ID, CreatedAt: c.CreatedAt, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt,
		Source: string(c.Source), Language: c.Language, Status: string(c.Status), Structured: structuredJSON(c),
		TranscriptSegments: make([]TranscriptSegment, len(c.TranscriptSegments)), Geolocation: c.Geolocation,
		FolderID: c.FolderID}
	for i, seg := range c.TranscriptSegments {
		name := "Speaker " + strconv.Itoa(seg.SpeakerID)
		switch {
		case seg.IsUser:
			name = userName
		case seg.PersonID != nil && people[*seg.PersonID] != "":
			name = people[*seg.PersonID]
		}
		d.TranscriptSegments[i] = TranscriptSegment{ID: seg.ID, Text: seg.Text, SpeakerID: seg.SpeakerID,
			SpeakerName: name, Start: seg.Start, End: seg.End}
	}
	return d, nil
}

// ActionItem is an action item as assistants see it (§3.3's seven fields).
type ActionItem struct {
	ID             string     `json:"id"`
	Description    string     `json:"description"`
	Completed      bool       `json:"completed"`
	CreatedAt      *time.Time `json:"created_at"`
	DueAt          *time.Time `json:"due_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	ConversationID *string    `json:"conversation_id"`
	RelevanceScore *float64   `json:"relevance_score,omitempty"`
}

// InheritConversationLocks marks as locked the action items whose
// conversation is locked: the store keeps the item's own flag only, and an
// item must not show what its hidden conversation's structure withholds.
func InheritConversationLocks(ctx context.Context, st appliance.Store, userID string, items []*appliance.ActionItem) error {
	var ids []string
	for _, it := range items {
		if !it.IsLocked && it.ConversationID != nil {
			ids = append(ids, *it.ConversationID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	cs, err := st.ConversationsByID(ctx, userID, ids)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.ConversationID != nil {
			if c, ok := cs[*it.ConversationID]; ok && c.IsLocked {
				it.IsLocked = true
			}
		}
	}
	return nil
}

// ActionItemJSON projects a.
func ActionItemJSON(a *appliance.ActionItem) ActionItem {
	return ActionItem{ID: a.ID, Description: a.Description, Completed: a.Completed, CreatedAt: a.CreatedAt,
		DueAt: a.DueAt, CompletedAt: a.CompletedAt, ConversationID: a.ConversationID}
}

// Person is someone who speaks in the user's conversations. Hearth keeps
// no speech samples' transcripts, so that list is always empty.
type Person struct {
	ID                      string    `json:"id"`
	Name                    string    `json:"name"`
	CreatedAt               time.Time `json:"created_at"`
	SpeechSampleTranscripts []string  `json:"speech_sample_transcripts"`
}

// PersonJSON projects p.
func PersonJSON(p *appliance.Person) Person {
	return Person{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, SpeechSampleTranscripts: []string{}}
}

// Profile is get_user_profile's result when there is something to tell.
type Profile struct {
	ProfileText     string    `json:"profile_text"`
	GeneratedAt     time.Time `json:"generated_at"`
	DataSourcesUsed []string  `json:"data_sources_used"`
}

// NoProfile is get_user_profile's result when nothing is known.
type NoProfile struct {
	Profile *Profile `json:"profile"`
	Message string   `json:"message"`
}

// profileMemories bounds how many facts a profile lists.
const profileMemories = 30

// UserProfile builds the profile the reference generates with an LLM from
// what the appliance knows without one: the user's name and their reviewed,
// unlocked facts (system memories), newest first. GeneratedAt is the time
// of the newest fact used. With neither a name nor a fact it returns
// NoProfile, in the reference's words.
func UserProfile(ctx context.Context, st appliance.Store, userID string) (any, error) {
	var lines, sources []string
	var newest time.Time
	if u, err := st.User(ctx, userID); err == nil && strings.TrimSpace(u.Name) != "" {
		lines = append(lines, "Name: "+strings.TrimSpace(u.Name))
		sources = append(sources, "user_name")
		newest = u.CreatedAt
	} else if err != nil && appliance.ErrorCode(err) != appliance.ENOTFOUND {
		return nil, err
	}
	ms, err := st.Memories(ctx, userID, appliance.MemoryFilter{Limit: 4 * profileMemories,
		Categories: []string{appliance.MemorySystem}, Sort: "created_desc"})
	if err != nil {
		return nil, err
	}
	var facts []string
	for _, m := range ms {
		if m.IsLocked || (m.UserReview != nil && !*m.UserReview) || len(facts) == profileMemories {
			continue
		}
		facts = append(facts, "- "+strings.TrimSpace(m.Content))
		if m.UpdatedAt.After(newest) {
			newest = m.UpdatedAt
		}
	}
	if len(facts) > 0 {
		lines = append(lines, "Known facts:")
		lines = append(lines, facts...)
		sources = append(sources, "memories")
	}
	if len(lines) == 0 {
		return NoProfile{Message: "No profile has been generated for this user yet."}, nil
	}
	return Profile{ProfileText: strings.Join(lines, "\n"), GeneratedAt: newest.UTC(), DataSourcesUsed: sources}, nil
}

// lockedError is the reference's refusal of locked content (-32002, and
// 402 on the REST twins).
func lockedError(what string) error {
	if what == "action item" {
		return appliance.Errorf(appliance.ELOCKED, "A paid plan is required to modify this action item.")
	}
	return appliance.Errorf(appliance.ELOCKED, "A paid plan is required to access this %s.", what)
}

// ParseDay reads a date argument (YYYY-MM-DD, or an RFC 3339 time, which
// assistants often send) in loc. A day starts at midnight, or with endOfDay
// ends at its last nanosecond, so that end_date includes that day. The
// error is EINVALID "Invalid <field> format: '<value>'. Expected YYYY-MM-DD."
func ParseDay(field, value string, loc *time.Location, endOfDay bool) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	if t, err := time.ParseInLocation(time.DateOnly, value, loc); err == nil {
		if endOfDay {
			t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
		}
		return &t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, value); err == nil {
		return &t, nil
	}
	return nil, appliance.Errorf(appliance.EINVALID, "Invalid %s format: '%s'. Expected YYYY-MM-DD.", field, value)
}

// parseInstant reads an ISO time argument (or a bare date, as midnight in loc).
func parseInstant(field, value string, loc *time.Location) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.ParseInLocation(layout, value, loc); err == nil {
			return &t, nil
		}
	}
	return nil, appliance.Errorf(appliance.EINVALID, "Invalid %s format: '%s'. Expected ISO 8601 (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).", field, value)
}

// userLocation is the user's time zone, for reading dates: their own when
// set, else the appliance's.
func userLocation(ctx context.Context, st appliance.Store, userID string) *time.Location {
	if u, err := st.User(ctx, userID); err == nil && u.TimeZone != "" {
		if loc, err := time.LoadLocation(u.TimeZone); err == nil {
			return loc
		}
	}
	return time.Local
}

// relevance is a hit's score as shown: the cosine similarity when the item
// was found by meaning, else the fused score, rounded to 4 places.
func relevance(h appliance.SearchHit) *float64 {
	s := h.Similarity
	if s == 0 {
		s = h.Score
	}
	s = math.Round(s*1e4) / 1e4
	return &s
}

// newID returns a random (version 4) UUID.
func newID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go ≥ 1.24)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
