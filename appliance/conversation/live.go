package conversation

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// What a live recording gathers besides segments: the owner's speaker
// assignments, translations of its segments, and photos.

// maxAssignedSegments bounds one speaker assignment; the app sends the
// segments of one speaker it has on screen.
const maxAssignedSegments = 1000

// AssignSpeaker gives the named segments a person (the owner with
// appliance.SelfPersonID) and keeps the assignment for learning voices. It
// returns how many of the segments it found.
func (s *Service) AssignSpeaker(ctx context.Context, a appliance.SpeakerAssignment) (int, error) {
	a.PersonID = strings.TrimSpace(a.PersonID)
	a.PersonName = strings.TrimSpace(a.PersonName)
	switch {
	case a.PersonID == "":
		return 0, appliance.Errorf(appliance.EINVALID, "person_id is required")
	case len(a.PersonID) > 128 || len(a.PersonName) > 200:
		return 0, appliance.Errorf(appliance.EINVALID, "person_id or person_name is too long")
	case len(a.SegmentIDs) == 0:
		return 0, appliance.Errorf(appliance.EINVALID, "segment_ids is empty")
	case len(a.SegmentIDs) > maxAssignedSegments:
		return 0, appliance.Errorf(appliance.EINVALID, "segment_ids has more than %d ids", maxAssignedSegments)
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = s.now().UTC()
	}
	n, err := s.store.AssignSpeaker(ctx, a)
	if err != nil {
		return 0, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: a.UserID, ConversationID: a.ConversationID})
	return n, nil
}

// SetTranslations stores translations of a conversation's segments, keyed
// by segment id.
func (s *Service) SetTranslations(ctx context.Context, userID, id string, tr map[string][]appliance.Translation) error {
	if len(tr) == 0 {
		return nil
	}
	return s.store.SetSegmentTranslations(ctx, userID, id, tr)
}

// AddPhoto attaches a photo to an in_progress recording (a recording with
// photos is kept even when nothing was said). ECONFLICT means the
// recording has ended.
func (s *Service) AddPhoto(ctx context.Context, userID, id string, p appliance.Photo) error {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.now().UTC()
	}
	if err := s.store.AddPhoto(ctx, userID, id, p); err != nil {
		return err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
	return nil
}
