package conversation

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance"
)

// Retranscribed is a conversation's new transcript, made from its kept
// audio by a "transcribe again" job, and where the job stands.
type Retranscribed struct {
	UserID, ID string
	Segments   []appliance.TranscriptSegment
	// JobID and At: the job moves past this conversation in the save's
	// transaction, only if it is still running and at At.
	JobID string
	At    int
}

// ReplaceTranscript makes r the conversation's transcript as one new
// revision: the pipeline runs again on it (never discarding: it was kept
// before), and the structure, action items and the memories extracted
// from the previous revision are replaced by the new ones in the same
// transaction. Until it commits, the previous revision is what every
// reader sees.
func (s *Service) ReplaceTranscript(ctx context.Context, r Retranscribed) (*appliance.Conversation, error) {
	ctx, cancel := context.WithTimeout(ctx, processTimeout)
	defer cancel()
	conv, err := s.store.Conversation(ctx, r.UserID, r.ID)
	if err != nil {
		return nil, err
	}
	if conv.Status != appliance.StatusCompleted && conv.Status != appliance.StatusFailed {
		return nil, appliance.Errorf(appliance.ECONFLICT, "Conversation is %s", conv.Status)
	}
	segs := make([]appliance.TranscriptSegment, len(r.Segments))
	for i, in := range r.Segments {
		if in.ID == "" {
			in.ID = appliance.NewID()
		}
		if in.Translations == nil {
			in.Translations = []appliance.Translation{}
		}
		segs[i] = in
	}
	conv.TranscriptSegments = segs
	// The old structure's action items go: the new ones get new ids.
	conv.Structured = appliance.EmptyStructured()
	memories, err := s.process(ctx, conv, appliance.ProcessOptions{ForceProcess: true})
	if err != nil {
		return nil, err
	}
	conv.UpdatedAt = s.now().UTC()
	for i := range conv.Structured.ActionItems {
		if a := &conv.Structured.ActionItems[i]; a.ID == "" {
			a.ID = appliance.NewID()
		}
	}
	if err := s.store.SaveRetranscribed(ctx, r.JobID, r.At, conv, memories); err != nil {
		return nil, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationProcessed, UserID: conv.UserID,
		ConversationID: conv.ID, Conversation: conv, Memories: memories})
	if len(memories) > 0 {
		s.publish(appliance.StreamEvent{Type: appliance.EventMemoryCreated, UserID: conv.UserID,
			ConversationID: conv.ID, Memories: memories})
	}
	return conv, nil
}
