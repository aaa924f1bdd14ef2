package api

import (
	"context"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// devConversation is the developer API's projection of a conversation
// (reference-facts §2.2). transcript_segments is present only when asked for.
type devConversation struct {
	ID                 string                  `json:"id"`
	CreatedAt          time.Time               `json:"created_at"`
	StartedAt          *time.Time              `json:"started_at"`
	FinishedAt         *time.Time              `json:"finished_at"`
	Structured         devStructured           `json:"structured"`
	Language           *string                 `json:"language"`
	Source             *string                 `json:"source"`
	TranscriptSegments *[]devTranscriptSegment `json:"transcript_segments,omitempty"`
	Geolocation        *appliance.Geolocation  `json:"geolocation"`
	FolderID           *string                 `json:"folder_id"`
	FolderName         *string                 `json:"folder_name"`
}

type devStructured struct {
	Title       string             `json:"title"`
	Overview    string             `json:"overview"`
	Emoji       string             `json:"emoji"`
	Category    appliance.Category `json:"category"`
	ActionItems []devActionItem    `json:"action_items"`
	Events      []appliance.Event  `json:"events"`
}

// devActionItem is the seven fields the developer API projects.
type devActionItem struct {
	Description    string     `json:"description"`
	Completed      bool       `json:"completed"`
	CreatedAt      *time.Time `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
	DueAt          *time.Time `json:"due_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	ConversationID *string    `json:"conversation_id"`
}

type devTranscriptSegment struct {
	ID          string  `json:"id"`
	Text        string  `json:"text"`
	SpeakerID   int     `json:"speaker_id"`
	SpeakerName string  `json:"speaker_name"`
	Start       float64 `json:"start"`
	End         float64 `json:"end"`
}

// devConversations projects conversations for one user, resolving speaker
// and folder names with one query each for the whole page.
func (s *Server) devConversations(ctx context.Context, uid string, cs []*appliance.Conversation, withTranscript bool) ([]devConversation, error) {
	var folderIDs, personIDs []string
	for _, c := range cs {
		if c.FolderID != nil {
			folderIDs = append(folderIDs, *c.FolderID)
		}
		if withTranscript {
			for _, seg := range c.TranscriptSegments {
				if seg.PersonID != nil && !seg.IsUser {
					personIDs = append(personIDs, *seg.PersonID)
				}
			}
		}
	}
	folders, err := s.store.FolderNames(ctx, uid, folderIDs)
	if err != nil {
		return nil, err
	}
	people, err := s.store.PersonNames(ctx, uid, personIDs)
	if err != nil {
		return nil, err
	}
	userName := "User"
	if withTranscript {
		if u, err := s.store.User(ctx, uid); err == nil && u.Name != "" {
			userName = u.Name
		}
	}
	out := make([]devConversation, len(cs))
	for i, c := range cs {
		d := devConversation{
			ID: c.ID, CreatedAt: c.CreatedAt, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt,
			Structured: devStructured{
				Title: c.Structured.Title, Overview: c.Structured.Overview, Emoji: c.Structured.Emoji,
				Category: c.Structured.Category, ActionItems: make([]devActionItem, 0, len(c.Structured.ActionItems)),
				Events: c.Structured.Events,
			},
			Language: strPtr(c.Language), Source: strPtr(string(c.Source)),
			Geolocation: c.Geolocation, FolderID: c.FolderID,
		}
		if d.Structured.Events == nil {
			d.Structured.Events = []appliance.Event{}
		}
		if d.Structured.Emoji == "" {
			d.Structured.Emoji = appliance.DefaultEmoji
		}
		for _, a := range c.Structured.ActionItems {
			d.Structured.ActionItems = append(d.Structured.ActionItems, devActionItem{
				Description: a.Description, Completed: a.Completed, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt,
				DueAt: a.DueAt, CompletedAt: a.CompletedAt, ConversationID: a.ConversationID,
			})
		}
		if c.FolderID != nil {
			if name, ok := folders[*c.FolderID]; ok {
				d.FolderName = &name
			}
		}
		if withTranscript {
			segs := make([]devTranscriptSegment, len(c.TranscriptSegments))
			for j, seg := range c.TranscriptSegments {
				segs[j] = devTranscriptSegment{ID: seg.ID, Text: seg.Text, SpeakerID: seg.SpeakerID,
					SpeakerName: speakerName(seg, userName, people), Start: seg.Start, End: seg.End}
			}
			d.TranscriptSegments = &segs
		}
		out[i] = d
	}
	return out, nil
}

// speakerName follows the reference: the user's name for the user's own
// segments, a known person's name, else "Speaker N".
func speakerName(seg appliance.TranscriptSegment, userName string, people map[string]string) string {
	if seg.IsUser {
		return userName
	}
	if seg.PersonID != nil {
		if name, ok := people[*seg.PersonID]; ok {
			return name
		}
	}
	return "Speaker " + itoa(seg.SpeakerID)
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
