package listen

import (
	"context"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// The session's tracker can give a segment to another speaker after it
// was placed (a guest's first turn, taken for the owner's before the guest
// had a label, once their later turns make one: speaker.Tracker.Moves).
// A segment not sent yet is simply labelled anew; one already sent is
// re-sent under its own id with the corrected speaker, speaker_id and
// is_user, and rewritten in the stored recording. The Omi app replaces a
// segment whose id it holds where it stands; one it has joined to the
// segment before it (appMerges), or that has had another joined to it, is
// no longer in its list as sent, and re-sending it would append it a
// second time: such a segment, or one that holds more than one placed
// segment (the session's own merge), keeps its speaker.

// placed is one segment the tracker placed, for its moves.
type placed struct {
	start, end float64 // stream time
	label      int
	id, conv   string // once sent: its segment's id and recording
	late       bool   // transcribed late and sent by time, never re-sent
}

// placedKept bounds how many placed segments the session remembers; the
// tracker moves only its last few.
const placedKept = 64

// notePlaced records the tracker's n-th segment (stream time) and takes
// the tracker's moves. Called with s.flushMu held.
func (r *recorder) notePlaced(seg *appliance.TranscriptSegment, label int) {
	if r.placed == nil {
		r.placed = map[int]*placed{}
	}
	r.placed[r.placedN] = &placed{start: seg.Start, end: seg.End, label: label}
	delete(r.placed, r.placedN-placedKept)
	r.placedN++
	r.moves = append(r.moves, r.tracker.Moves()...)
}

// relabel applies the tracker's pending moves: to segments not sent yet
// (fresh, stream time, held ones included) in place, and to sent ones by
// re-sending them. Called with s.flushMu held.
func (s *session) relabel(ctx context.Context, fresh []appliance.TranscriptSegment) {
	moves := s.rec.moves
	s.rec.moves = nil
	if len(moves) == 0 {
		return
	}
	var resend []appliance.TranscriptSegment
	for _, m := range moves {
		p := s.rec.placed[m.Segment]
		if p == nil || p.late {
			continue
		}
		if p.id == "" {
			for i := range fresh {
				if fresh[i].Start == p.start && fresh[i].SpeakerID == p.label {
					s.labelMoved(&fresh[i], m)
					s.mu.Lock()
					s.applyPeople(fresh[i : i+1])
					s.mu.Unlock()
				}
			}
			p.label = m.Label
			continue
		}
		seg, ok := s.resendable(p)
		if !ok {
			continue
		}
		p.label = m.Label
		s.labelMoved(&seg, m)
		resend = append(resend, seg)
	}
	if len(resend) == 0 {
		return
	}
	s.mu.Lock()
	s.applyPeople(resend)
	conv := s.conv
	s.mu.Unlock()
	if err := s.srv.d.Conversations.Append(ctx, s.user, conv.ID, resend); err != nil {
		s.srv.d.Logger.Error("correct segments' speakers", "user", s.user, "conversation_id", conv.ID, "err", err)
		return
	}
	for _, seg := range resend {
		s.rec.sentAs[seg.ID] = seg
		if s.rec.tail != nil && s.rec.tail.ID == seg.ID {
			t := seg
			s.rec.tail = &t
		}
		s.rec.lastSeg[seg.SpeakerID] = seg.ID
	}
	s.srv.d.Logger.Debug("speakers corrected", "user", s.user, "conversation_id", conv.ID, "segments", len(resend))
	s.send(resend)
}

// labelMoved gives seg the speaker the tracker moved it to.
func (s *session) labelMoved(seg *appliance.TranscriptSegment, m speaker.Move) {
	seg.SpeakerID, seg.Speaker = m.Label, fmt.Sprintf("SPEAKER_%02d", m.Label)
	seg.IsUser = s.household.HasProfile() && m.Owner
	seg.PersonID = nil
}

// resendable is the sent segment p lies in, when the app and the open
// recording hold it as sent and it holds no other placed segment.
func (s *session) resendable(p *placed) (appliance.TranscriptSegment, bool) {
	seg, ok := s.rec.resendable(p)
	if !ok {
		return seg, false
	}
	s.mu.Lock()
	open := s.conv != nil && !s.convEnded && s.conv.ID == p.conv
	s.mu.Unlock()
	return seg, open
}

// resendable is the sent segment p lies in, when the app holds it as sent
// and it holds no other placed segment.
func (r *recorder) resendable(p *placed) (appliance.TranscriptSegment, bool) {
	seg, ok := r.sentAs[p.id]
	if !ok || r.appChanged[p.id] {
		return seg, false
	}
	for _, q := range r.placed {
		if q != p && q.id == p.id {
			return seg, false
		}
	}
	return seg, true
}

// notePlacedSent records which sent segment (conversation time, shift
// seconds after stream time) each placed segment not sent before went out
// in. Called with s.flushMu held.
func (r *recorder) notePlacedSent(out []appliance.TranscriptSegment, conv string, shift float64) {
	for _, p := range r.placed {
		if p.id != "" || p.late {
			continue
		}
		mid := (p.start+p.end)/2 + shift
		for _, seg := range out {
			if seg.Start <= mid && mid <= seg.End {
				p.id, p.conv = seg.ID, conv
				break
			}
		}
	}
	if r.sentAs == nil {
		r.sentAs = map[string]appliance.TranscriptSegment{}
	}
	for _, seg := range out {
		r.sentAs[seg.ID] = seg
	}
	kept := map[string]bool{}
	for _, p := range r.placed {
		kept[p.id] = true
	}
	for id := range r.sentAs {
		if !kept[id] {
			delete(r.sentAs, id)
			delete(r.appChanged, id)
		}
	}
}
