package api

import (
	"context"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// devConversation is the developer API's projection of a conversation
// (the reference's DeveloperConversation). transcript_segments is present
// only when asked for.
type devConversation struct {
	ID                 string                 `json:"id"`
	CreatedAt          time.Time              `json:"created_at"`
	StartedAt          *time.Time             `json:"started_at"`
	FinishedAt         *time.Time             `json:"finished_at"`
	Structured         view.Structured        `json:"structured"`
	Language           *string                `json:"language"`
	Source             *string                `json:"source"`
	TranscriptSegments *[]view.Segment        `json:"transcript_segments,omitempty"`
	Geolocation        *appliance.Geolocation `json:"geolocation"`
	FolderID           *string                `json:"folder_id"`
	FolderName         *string                `json:"folder_name"`
}

// devConversations projects conversations for one user, resolving speaker
// and folder names with one query each for the whole page.
func (s *Server) devConversations(ctx context.Context, uid string, cs []*appliance.Conversation, withTranscript bool) ([]devConversation, error) {
	folders, people, user, err := s.conversationNames(ctx, uid, cs, withTranscript)
	if err != nil {
		return nil, err
	}
	out := make([]devConversation, len(cs))
	for i, c := range cs {
		d := devConversation{
			ID: c.ID, CreatedAt: c.CreatedAt, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt,
			Structured: view.StructuredOf(c), Language: strPtr(c.Language), Source: strPtr(string(c.Source)),
			Geolocation: c.Geolocation, FolderID: c.FolderID,
		}
		if c.FolderID != nil {
			if name, ok := folders[*c.FolderID]; ok {
				d.FolderName = &name
			}
		}
		if withTranscript {
			segs := view.SegmentsOf(c.TranscriptSegments, user.DisplayName(), people)
			d.TranscriptSegments = &segs
		}
		out[i] = d
	}
	return out, nil
}

// conversationNames looks up what a page of conversations names: folders,
// and with transcripts the people speaking and the user, one query each.
func (s *Server) conversationNames(ctx context.Context, uid string, cs []*appliance.Conversation, withTranscript bool) (
	folders, people map[string]string, user *appliance.User, err error) {
	var folderIDs, personIDs []string
	for _, c := range cs {
		if c.FolderID != nil {
			folderIDs = append(folderIDs, *c.FolderID)
		}
		if withTranscript {
			personIDs = append(personIDs, view.PersonIDs(c.TranscriptSegments)...)
		}
	}
	if folders, err = s.store.FolderNames(ctx, uid, folderIDs); err != nil {
		return nil, nil, nil, err
	}
	if people, err = s.store.PersonNames(ctx, uid, personIDs); err != nil {
		return nil, nil, nil, err
	}
	if withTranscript {
		user, _ = s.store.User(ctx, uid) // a missing name reads as "User"
	}
	return folders, people, user, nil
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
