package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
)

// sessionNamespace derives conversation ids from client_session_id (the
// reference's namespace), so that a retry maps to the same id.
var sessionNamespace = uuid.MustParse("fb2f1f36-3c84-47a4-9c62-b3f6fdb3fd13")

// Draft is a finished conversation as a client sends it: transcript
// segments (or a text as one segment) with their context.
type Draft struct {
	UserID     string
	Source     appliance.ConversationSource
	Language   string
	StartedAt  time.Time
	FinishedAt time.Time
	Segments   []appliance.TranscriptSegment
	// Geolocation is kept only when valid; an invalid one is dropped.
	Geolocation *appliance.Geolocation
	// ClientSessionID makes the create idempotent: every retry with the same
	// id (per user) answers with the one conversation it made.
	ClientSessionID    string
	ClientDeviceID     string
	ClientPlatform     string
	ClientProcessing   json.RawMessage
	Role               appliance.ConversationRole
	FinalizationReason appliance.FinalizationReason
	// ExternalData adds to the conversation's external_data.
	ExternalData map[string]any
}

// Create stores and processes a finished conversation. With a
// ClientSessionID, a second call for the same session returns the
// conversation the first made (completed, or still processing) without
// processing again; a claim whose processing died long ago is redone.
func (s *Service) Create(ctx context.Context, d Draft) (*appliance.Conversation, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), processTimeout)
	defer cancel()
	now := s.now().UTC()
	conv := s.draftConversation(d, now)
	if d.ClientSessionID != "" {
		conv.ID = uuid.NewSHA1(sessionNamespace, []byte(d.UserID+"\x00"+d.ClientSessionID)).String()
		conv.ExternalData["from_segments_client_session_id"] = d.ClientSessionID
		conv.ExternalData["from_segments_claimed_at"] = now.Format(time.RFC3339Nano)
		existing, claimed, err := s.store.ClaimConversation(ctx, conv, now.Add(-staleClaimAge))
		if err != nil {
			return nil, err
		}
		if !claimed {
			return existing, nil
		}
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventProcessingStarted, UserID: d.UserID, ConversationID: conv.ID})
	memories, err := s.process(ctx, conv, appliance.ProcessOptions{})
	if err != nil {
		if d.ClientSessionID != "" {
			// Drop the claim so that the client's retry redoes the work.
			if derr := s.store.DeleteClaim(ctx, d.UserID, conv.ID); derr != nil {
				s.log.Error("drop failed claim", "conversation_id", conv.ID, "err", derr)
			}
		}
		s.publish(appliance.StreamEvent{Type: appliance.EventConversationFailed, UserID: d.UserID, ConversationID: conv.ID, Err: "processing failed"})
		return nil, err
	}
	conv.MeetingTreatmentEligible, conv.MeetingTreatmentReason = appliance.MeetingTreatment(conv, d.Role, d.FinalizationReason)
	if err := s.saveProcessed(ctx, conv, memories); err != nil {
		return nil, err
	}
	return conv, nil
}

func (s *Service) draftConversation(d Draft, now time.Time) *appliance.Conversation {
	segs := make([]appliance.TranscriptSegment, len(d.Segments))
	for i, in := range d.Segments {
		in.Text = strings.TrimSpace(in.Text)
		if in.ID == "" {
			in.ID = appliance.NewID()
		}
		if in.Translations == nil {
			in.Translations = []appliance.Translation{}
		}
		// Client-sent segments carry their own speaker attribution.
		in.SpeechProfileProcessed = true
		segs[i] = in
	}
	ext := map[string]any{"conversation_role": string(d.Role)}
	if d.FinalizationReason != "" {
		ext["conversation_finalization_reason"] = string(d.FinalizationReason)
	}
	for k, v := range d.ExternalData {
		ext[k] = v
	}
	start, finish := d.StartedAt.UTC(), d.FinishedAt.UTC()
	conv := &appliance.Conversation{
		ID: appliance.NewID(), UserID: d.UserID, CreatedAt: now, UpdatedAt: now, StartedAt: &start, FinishedAt: &finish,
		Source: d.Source, Language: d.Language, Status: appliance.StatusProcessing,
		Structured: appliance.EmptyStructured(), TranscriptSegments: segs, ExternalData: ext,
		Visibility: appliance.VisibilityPrivate, ClientSessionID: d.ClientSessionID,
		ClientDeviceID: d.ClientDeviceID, ClientPlatform: d.ClientPlatform, ClientProcessing: d.ClientProcessing,
	}
	if d.Geolocation.Valid() {
		conv.Geolocation = d.Geolocation
	}
	return conv
}

// process runs the pipeline with the user's name, time zone and open
// action items and returns the memories it extracted, ready to store.
func (s *Service) process(ctx context.Context, conv *appliance.Conversation, opt appliance.ProcessOptions) ([]*appliance.Memory, error) {
	u, err := s.store.User(ctx, conv.UserID)
	if err != nil {
		return nil, err
	}
	opt.UserName, opt.Location = u.Name, u.Location()
	// Read only when the extractor found tasks: most conversations have
	// none, and a create should not pay for a list it never compares.
	opt.OpenActionItems = func() []string {
		open, err := s.openActionItems(ctx, conv)
		if err != nil { // a task said twice is better than a create refused
			s.log.Warn("read open action items", "conversation_id", conv.ID, "err", err)
		}
		return open
	}
	res, err := s.proc.Process(ctx, conv, opt)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	ms := make([]*appliance.Memory, len(res.Memories))
	for i, m := range res.Memories {
		id := conv.ID
		ms[i] = &appliance.Memory{ID: appliance.NewID(), UserID: conv.UserID, Content: m.Content, Category: m.Category,
			Tags: []string{}, Visibility: appliance.VisibilityPrivate, CreatedAt: now, UpdatedAt: now, ConversationID: &id}
	}
	return ms, nil
}

// openItemsRead bounds the open action items the extractor compares new
// tasks with: the most recent ones, which a new conversation repeats.
const openItemsRead = 200

// openActionItems are the descriptions of the user's open action items
// from other conversations; conv's own, when it is processed again, are
// what it is about to replace.
func (s *Service) openActionItems(ctx context.Context, conv *appliance.Conversation) ([]string, error) {
	out, err := s.store.OpenActionItemTexts(ctx, conv.UserID, conv.ID, openItemsRead)
	if err != nil {
		return nil, fmt.Errorf("open action items: %w", err)
	}
	return out, nil
}

// systemFolder is the folder category whose system folder a processed
// conversation is filed into, as the reference's pipeline does: "" for one
// the owner filed (it stays where it is) and for a discarded one. A user
// without that folder leaves it in none (the store's SaveProcessedFiled).
func systemFolder(conv *appliance.Conversation) string {
	if conv.FolderID != nil || conv.Discarded {
		return ""
	}
	return appliance.FolderCategory(conv.Structured.Category)
}

// saveProcessed stores the processed conversation with its action items and
// memories in one transaction, then tells the event stream.
func (s *Service) saveProcessed(ctx context.Context, conv *appliance.Conversation, memories []*appliance.Memory) error {
	conv.UpdatedAt = s.now().UTC()
	for i := range conv.Structured.ActionItems {
		if a := &conv.Structured.ActionItems[i]; a.ID == "" {
			a.ID = appliance.NewID()
		}
	}
	if err := s.store.SaveProcessedFiled(ctx, conv, memories, systemFolder(conv)); err != nil {
		return err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationProcessed, UserID: conv.UserID,
		ConversationID: conv.ID, Conversation: conv, Memories: memories})
	if len(memories) > 0 {
		s.publish(appliance.StreamEvent{Type: appliance.EventMemoryCreated, UserID: conv.UserID,
			ConversationID: conv.ID, Memories: memories})
	}
	return nil
}
