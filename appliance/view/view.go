// Package view holds the wire shapes that more than one surface returns,
// one function per shape: the developer API, the MCP tools and their REST
// twins all project action items, memories, transcript segments and
// conversations through these, so they cannot drift apart. Locked content
// never shows whole here: lists carry a preview (appliance.LockedPreview),
// and direct access is refused before a view is built.
package view

import (
	"math"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// ActionItem is an action item on the wire.
type ActionItem struct {
	ID             string     `json:"id"`
	Description    string     `json:"description"`
	Completed      bool       `json:"completed"`
	CreatedAt      *time.Time `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
	DueAt          *time.Time `json:"due_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	ConversationID *string    `json:"conversation_id"`
	RelevanceScore *float64   `json:"relevance_score,omitempty"`
}

// ActionItemOf projects a.
func ActionItemOf(a *appliance.ActionItem) ActionItem {
	return ActionItem{ID: a.ID, Description: a.Description, Completed: a.Completed, CreatedAt: a.CreatedAt,
		UpdatedAt: a.UpdatedAt, DueAt: a.DueAt, CompletedAt: a.CompletedAt, ConversationID: a.ConversationID}
}

// StructuredAction is an action item inside a conversation's structure:
// the action item without its id.
type StructuredAction struct {
	Description    string     `json:"description"`
	Completed      bool       `json:"completed"`
	CreatedAt      *time.Time `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
	DueAt          *time.Time `json:"due_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	ConversationID *string    `json:"conversation_id"`
}

// StructuredActionOf projects a.
func StructuredActionOf(a appliance.ActionItem) StructuredAction {
	return StructuredAction{Description: a.Description, Completed: a.Completed, CreatedAt: a.CreatedAt,
		UpdatedAt: a.UpdatedAt, DueAt: a.DueAt, CompletedAt: a.CompletedAt, ConversationID: a.ConversationID}
}

// Memory is a memory on the wire (the reference's memory document).
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

// MemoryOf projects m; locked content is cut to a preview.
func MemoryOf(m *appliance.Memory) Memory {
	tags := m.Tags
	if tags == nil {
		tags = []string{}
	}
	vis := string(m.Visibility)
	if vis == "" {
		vis = string(appliance.VisibilityPrivate)
	}
	return Memory{ID: m.ID, Content: Content(m), Category: m.Category, Visibility: vis, Tags: tags,
		CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, ConversationID: m.ConversationID, Reviewed: m.Reviewed,
		UserReview: m.UserReview, ManuallyAdded: m.ManuallyAdded, Edited: m.Edited, Scoring: appliance.MemoryScoring(m),
		IsLocked: m.IsLocked}
}

// Content is a memory's text as it may be shown: a preview when locked.
func Content(m *appliance.Memory) string {
	if m.IsLocked {
		return appliance.LockedPreview(m.Content)
	}
	return m.Content
}

// MemoryBrief is a memory in the MCP REST twins' lists:
// {id, content, category}, with relevance_score in searches.
type MemoryBrief struct {
	ID             string   `json:"id"`
	Content        string   `json:"content"`
	Category       string   `json:"category"`
	RelevanceScore *float64 `json:"relevance_score,omitempty"`
}

// BriefOf narrows a memory view to the twins' shape.
func BriefOf(m Memory) MemoryBrief {
	return MemoryBrief{ID: m.ID, Content: m.Content, Category: m.Category, RelevanceScore: m.RelevanceScore}
}

// Segment is a transcript segment as read back, with its speaker named.
type Segment struct {
	ID          string  `json:"id"`
	Text        string  `json:"text"`
	SpeakerID   int     `json:"speaker_id"`
	SpeakerName string  `json:"speaker_name"`
	Start       float64 `json:"start"`
	End         float64 `json:"end"`
}

// SegmentsOf projects segments, naming speakers as appliance.SpeakerName
// does.
func SegmentsOf(segs []appliance.TranscriptSegment, userName string, people map[string]string) []Segment {
	out := make([]Segment, len(segs))
	for i, s := range segs {
		out[i] = Segment{ID: s.ID, Text: s.Text, SpeakerID: s.SpeakerID, SpeakerName: appliance.SpeakerName(s, userName, people),
			Start: s.Start, End: s.End}
	}
	return out
}

// PersonIDs are the people named in segments other than the user's own,
// to look their names up.
func PersonIDs(segs []appliance.TranscriptSegment) []string {
	var ids []string
	for _, s := range segs {
		if s.PersonID != nil && !s.IsUser {
			ids = append(ids, *s.PersonID)
		}
	}
	return ids
}

// Structured is a conversation's structure on the wire.
type Structured struct {
	Title       string             `json:"title"`
	Overview    string             `json:"overview"`
	Emoji       string             `json:"emoji"`
	Category    appliance.Category `json:"category"`
	ActionItems []StructuredAction `json:"action_items"`
	Events      []appliance.Event  `json:"events"`
}

// StructuredOf projects c's structure. A locked conversation keeps its
// title and category, its overview becomes a preview, and its action items
// and events are emptied.
func StructuredOf(c *appliance.Conversation) Structured {
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
		s.ActionItems = append(s.ActionItems, StructuredActionOf(a))
	}
	if c.Structured.Events != nil {
		s.Events = c.Structured.Events
	}
	return s
}

// ConversationSummary is a conversation in assistants' lists and searches:
// {id, started_at, finished_at, structured, language}.
type ConversationSummary struct {
	ID             string     `json:"id"`
	StartedAt      *time.Time `json:"started_at"`
	FinishedAt     *time.Time `json:"finished_at"`
	Structured     Structured `json:"structured"`
	Language       string     `json:"language"`
	RelevanceScore *float64   `json:"relevance_score,omitempty"`
}

// SummaryOf projects c for lists.
func SummaryOf(c *appliance.Conversation) ConversationSummary {
	return ConversationSummary{ID: c.ID, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt, Structured: StructuredOf(c), Language: c.Language}
}

// ConversationDetail is one conversation with its transcript.
type ConversationDetail struct {
	ID                 string                 `json:"id"`
	CreatedAt          time.Time              `json:"created_at"`
	StartedAt          *time.Time             `json:"started_at"`
	FinishedAt         *time.Time             `json:"finished_at"`
	Source             string                 `json:"source"`
	Language           string                 `json:"language"`
	Status             string                 `json:"status"`
	Structured         Structured             `json:"structured"`
	TranscriptSegments []Segment              `json:"transcript_segments"`
	Geolocation        *appliance.Geolocation `json:"geolocation"`
	FolderID           *string                `json:"folder_id"`
}

// DetailOf projects c with its transcript.
func DetailOf(c *appliance.Conversation, userName string, people map[string]string) ConversationDetail {
	return ConversationDetail{ID: c.ID, CreatedAt: c.CreatedAt, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt,
		Source: string(c.Source), Language: c.Language, Status: string(c.Status), Structured: StructuredOf(c),
		TranscriptSegments: SegmentsOf(c.TranscriptSegments, userName, people), Geolocation: c.Geolocation, FolderID: c.FolderID}
}

// BriefStructured is the twins' structure: {title, overview, category}.
type BriefStructured struct {
	Title    string             `json:"title"`
	Overview string             `json:"overview"`
	Category appliance.Category `json:"category"`
}

// ConversationBrief is a conversation in the MCP REST twins' lists:
// {id, started_at, finished_at, structured{title, overview, category},
// language}, with relevance_score in searches.
type ConversationBrief struct {
	ID             string          `json:"id"`
	StartedAt      *time.Time      `json:"started_at"`
	FinishedAt     *time.Time      `json:"finished_at"`
	Structured     BriefStructured `json:"structured"`
	Language       string          `json:"language"`
	RelevanceScore *float64        `json:"relevance_score,omitempty"`
}

// ConversationBriefDetail is a single conversation in the twins: the
// brief with its transcript.
type ConversationBriefDetail struct {
	ConversationBrief
	TranscriptSegments []Segment `json:"transcript_segments"`
}

// BriefOfSummary narrows a summary to the twins' shape.
func BriefOfSummary(s ConversationSummary) ConversationBrief {
	return ConversationBrief{ID: s.ID, StartedAt: s.StartedAt, FinishedAt: s.FinishedAt, Language: s.Language,
		Structured:     BriefStructured{Title: s.Structured.Title, Overview: s.Structured.Overview, Category: s.Structured.Category},
		RelevanceScore: s.RelevanceScore}
}

// BriefOfDetail narrows a detail to the twins' shape, with its transcript.
func BriefOfDetail(d ConversationDetail) ConversationBriefDetail {
	b := BriefOfSummary(ConversationSummary{ID: d.ID, StartedAt: d.StartedAt, FinishedAt: d.FinishedAt, Structured: d.Structured, Language: d.Language})
	segs := d.TranscriptSegments
	if segs == nil {
		segs = []Segment{}
	}
	return ConversationBriefDetail{ConversationBrief: b, TranscriptSegments: segs}
}

// Person is someone who speaks in the user's conversations. Hearth keeps
// no speech samples' transcripts, so that list is always empty.
type Person struct {
	ID                      string    `json:"id"`
	Name                    string    `json:"name"`
	CreatedAt               time.Time `json:"created_at"`
	SpeechSampleTranscripts []string  `json:"speech_sample_transcripts"`
}

// PersonOf projects p.
func PersonOf(p *appliance.Person) Person {
	return Person{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, SpeechSampleTranscripts: []string{}}
}

// Relevance is a search hit's score as shown: the cosine similarity when
// the item was found by meaning, else the fused score, to 4 places.
func Relevance(h appliance.SearchHit) *float64 {
	s := h.Similarity
	if s == 0 {
		s = h.Score
	}
	s = math.Round(s*1e4) / 1e4
	return &s
}
