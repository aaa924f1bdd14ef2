package conversation

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance"
)

// Patch is an owner's edit of a conversation; nil fields stay as they are.
type Patch struct {
	Title     *string
	Discarded *bool
	// Starred is the console's star; the developer API does not set it.
	Starred *bool
}

// errEmptyPatch is the refusal of a Patch that changes nothing.
func errEmptyPatch() error {
	v := &appliance.ValidationError{}
	v.Add("value_error", "At least one field (title or discarded) must be provided", "body")
	return v
}

// Mutable loads a conversation that the owner's developer surfaces may
// change: ENOTFOUND "Conversation not found" when missing or deleted, and
// ELOCKED when it is locked (hidden from assistants and integrations).
func (s *Service) Mutable(ctx context.Context, userID, id string) (*appliance.Conversation, error) {
	conv, err := s.store.ConversationHead(ctx, userID, id)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
	} else if err != nil {
		return nil, err
	}
	if conv.IsLocked {
		return nil, appliance.LockedError("conversation")
	}
	return conv, nil
}

// Update applies p and returns the conversation as it is now. Discarding a
// conversation removes the memories extracted from it, in the same
// transaction as the flag.
func (s *Service) Update(ctx context.Context, userID, id string, p Patch) (*appliance.Conversation, error) {
	conv, err := s.Mutable(ctx, userID, id)
	if err != nil {
		return nil, err
	}
	if p.Title == nil && p.Discarded == nil && p.Starred == nil {
		return nil, errEmptyPatch()
	}
	if p.Title != nil {
		if err := s.store.SetConversationTitle(ctx, userID, id, *p.Title); err != nil {
			return nil, err
		}
	}
	if p.Starred != nil {
		if err := s.store.SetConversationStarred(ctx, userID, id, *p.Starred); err != nil {
			return nil, err
		}
	}
	if p.Discarded != nil && *p.Discarded != conv.Discarded {
		if err := s.store.DiscardConversation(ctx, userID, id, *p.Discarded); err != nil {
			return nil, err
		}
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
	return s.store.ConversationHead(ctx, userID, id)
}

// Delete soft-deletes a conversation the owner may change.
func (s *Service) Delete(ctx context.Context, userID, id string) error {
	if _, err := s.Mutable(ctx, userID, id); err != nil {
		return err
	}
	if err := s.store.DeleteConversation(ctx, userID, id); err != nil {
		return err
	}
	s.forgetAudio(ctx, userID, id)
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
	return nil
}

// Lock hides a conversation from assistants (or shows it again). It works
// on locked conversations, which every other mutation refuses.
func (s *Service) Lock(ctx context.Context, userID, id string, locked bool) error {
	if err := s.store.SetConversationLocked(ctx, userID, id, locked); err != nil {
		if appliance.ErrorCode(err) == appliance.ENOTFOUND {
			return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
		}
		return err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
	return nil
}

// Move puts a conversation the owner may change into a folder, or (nil)
// out of every folder; a folder that does not exist is ENOTFOUND "Folder not
// found".
func (s *Service) Move(ctx context.Context, userID, id string, folderID *string) (*appliance.Conversation, error) {
	if _, err := s.Mutable(ctx, userID, id); err != nil {
		return nil, err
	}
	if folderID != nil {
		if _, err := s.store.Folder(ctx, userID, *folderID); appliance.ErrorCode(err) == appliance.ENOTFOUND {
			return nil, appliance.Errorf(appliance.ENOTFOUND, "Folder not found")
		} else if err != nil {
			return nil, err
		}
	}
	if err := s.store.SetConversationFolder(ctx, userID, id, folderID); err != nil {
		return nil, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
	return s.store.ConversationHead(ctx, userID, id)
}
