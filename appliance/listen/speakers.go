package listen

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance"
)

// assignSpeaker stores the owner's naming of a live speaker
// (speaker_assigned): the named segments take the person at once, and the
// segments this session hears from that speaker afterwards carry the
// person too, as the reference's speaker-to-person map does. Unlike the
// reference, an assignment is kept even when the segments were not
// matched against a speech profile: it is the owner's word.
func (s *session) assignSpeaker(ctx context.Context, m clientMessage) {
	if m.SpeakerID == nil || *m.SpeakerID < 0 || m.PersonID == "" || len(m.SegmentIDs) == 0 {
		s.badJSON.Add(1)
		return
	}
	s.mu.Lock()
	if s.people == nil {
		s.people = map[int]string{}
	}
	s.people[*m.SpeakerID] = m.PersonID
	convID := ""
	if s.conv != nil {
		convID = s.conv.ID
	}
	s.mu.Unlock()
	s.flushMu.Lock()
	if t := s.rec.tail; t != nil && t.SpeakerID == *m.SpeakerID {
		applyPerson(t, m.PersonID)
	}
	s.flushMu.Unlock()
	if convID == "" {
		return // nothing recorded yet: the map alone carries it forward
	}
	s.learnVoice(ctx, *m.SpeakerID, m.PersonID, m.PersonName)
	a := appliance.SpeakerAssignment{UserID: s.user, ConversationID: convID, SpeakerID: *m.SpeakerID,
		PersonID: m.PersonID, PersonName: m.PersonName, SegmentIDs: m.SegmentIDs}
	if _, err := s.srv.d.Conversations.AssignSpeaker(ctx, a); err != nil {
		s.srv.d.Logger.Warn("speaker assignment not stored", "user", s.user, "conversation_id", convID, "err", err)
	}
}

// applyPeople gives fresh segments the people the owner assigned to their
// speakers in this session. Called with s.mu held.
func (s *session) applyPeople(segs []appliance.TranscriptSegment) {
	for i := range segs {
		if p, ok := s.people[segs[i].SpeakerID]; ok {
			applyPerson(&segs[i], p)
		}
	}
}

func applyPerson(seg *appliance.TranscriptSegment, personID string) {
	if personID == appliance.SelfPersonID {
		seg.IsUser, seg.PersonID = true, nil
		return
	}
	p := personID
	seg.IsUser, seg.PersonID = false, &p
}
