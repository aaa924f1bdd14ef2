package listen

import (
	"context"
	"slices"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// recorder is the session's view of what it has sent: the tail (the last
// segment sent), whether the client merged that tail into the segment
// before it, and the segments held back until their speaker is known.
// It is guarded by the session's flushMu.
type recorder struct {
	tail *appliance.TranscriptSegment
	// tailAbsorbed: the Omi app joins a new segment to the one before it
	// when both have the same speaker label and is_user and the new one
	// starts 0–3 s after the other ends, keeping the earlier id. A tail it
	// absorbed that way is gone from its list: rewriting it by id would
	// append it a second time, so it is never extended.
	tailAbsorbed bool
	lastSeg      map[int]string // each speaker's last segment id sent

	held      []appliance.TranscriptSegment // stream time, waiting for their speaker's identity
	heldSince time.Time

	voices      map[int]*speakerVoice
	tracker     *speaker.Tracker // the session's voices, when it tells them apart itself
	lastSpeaker int
	suggestions []personSuggestion // recognised people to suggest after the send

	// The tracker's segments and their moves (relabel.go).
	placed  map[int]*placed
	placedN int
	moves   []speaker.Move
	sentAs  map[string]appliance.TranscriptSegment // segments sent, as last sent, while placed ones lie in them
	// appChanged: sent segments the app no longer holds as sent (joined
	// to the one before, or another joined to them).
	appChanged map[string]bool
}

// appMergeGap is the gap within which the Omi app joins consecutive
// segments of one speaker on its own.
const appMergeGap = 3.0

// appMerges reports whether the Omi app joins next into prev when next
// arrives under a new id.
func appMerges(prev *appliance.TranscriptSegment, next appliance.TranscriptSegment) bool {
	if prev == nil || prev.Speaker != next.Speaker || prev.IsUser != next.IsUser {
		return false
	}
	gap := next.Start - prev.End
	return gap >= 0 && gap <= appMergeGap
}

// resume takes up a recording that already has segments.
func (r *recorder) resume(conv *appliance.Conversation) {
	r.tail, r.tailAbsorbed = nil, false
	if n := len(conv.TranscriptSegments); n > 0 {
		t := conv.TranscriptSegments[n-1]
		r.tail = &t
	}
}

// newRecording forgets the last recording's tail.
func (r *recorder) newRecording() { r.tail, r.tailAbsorbed = nil, false }

// extendable is the tail a fresh segment may be merged into, or nil.
func (r *recorder) extendable() *appliance.TranscriptSegment {
	if r.tail == nil || r.tailAbsorbed {
		return nil
	}
	return r.tail
}

// sent records segments just sent, in order: out may begin with the tail
// rewritten under its own id.
func (r *recorder) sent(out []appliance.TranscriptSegment) {
	prev := r.tail
	absorbed := r.tailAbsorbed
	for i := range out {
		seg := out[i]
		if r.tail != nil && seg.ID == r.tail.ID {
			absorbed = r.tailAbsorbed
		} else {
			absorbed = appMerges(prev, seg)
			if absorbed {
				if r.appChanged == nil {
					r.appChanged = map[string]bool{}
				}
				r.appChanged[seg.ID], r.appChanged[prev.ID] = true, true
			}
		}
		prev = &seg
	}
	if len(out) > 0 {
		last := out[len(out)-1]
		r.tail, r.tailAbsorbed = &last, absorbed
	}
	if r.lastSeg == nil {
		r.lastSeg = map[int]string{}
	}
	for _, seg := range out {
		r.lastSeg[seg.SpeakerID] = seg.ID
	}
}

// sentLate records segments transcribed late, just sent: they are the
// last the client got, but earlier than the live words, so none of them
// is ever extended by what comes next (tailAbsorbed), and whether the app
// joins the next live segment to the last of them is judged as usual.
func (r *recorder) sentLate(out []appliance.TranscriptSegment) {
	if len(out) == 0 {
		return
	}
	last := out[len(out)-1]
	r.tail, r.tailAbsorbed = &last, true
}

// flush turns the words and suggestions gathered since the last flush into
// segments, appends them durably to the recording, and only then sends
// them. final flushes hold nothing back (the session or the recording is
// ending). Flushes run one at a time; s.mu is held only to take and record
// shared state, never across the database write.
func (s *session) flush(ctx context.Context, final bool) {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	var words []stt.Word
	if s.audio != nil {
		words = s.audio.take()
	}
	s.mu.Lock()
	suggested := s.suggested
	s.suggested = nil
	provider := s.provider
	s.mu.Unlock()

	fresh := append(wordsToSegments(words, 0, provider), suggested...)
	s.diarize(ctx, fresh)
	s.mu.Lock()
	s.applyPeople(fresh)
	s.mu.Unlock()
	s.noteSpeech(fresh)
	if len(s.rec.held) > 0 {
		fresh = append(s.rec.held, fresh...)
		s.rec.held = nil
	}
	s.relabel(ctx, fresh)
	if len(fresh) == 0 {
		return
	}
	var afterSkip []appliance.TranscriptSegment // said after a stretch still being transcribed
	if from, ok := s.lateHoldsFrom(final); ok {
		k := len(fresh)
		for k > 0 && fresh[k-1].Start >= from {
			k--
		}
		fresh, afterSkip = fresh[:k], append([]appliance.TranscriptSegment(nil), fresh[k:]...)
	}
	n := s.identify(ctx, fresh, final)
	if n < len(fresh) {
		if s.rec.heldSince.IsZero() {
			s.rec.heldSince = s.now()
		}
		s.rec.held = append([]appliance.TranscriptSegment(nil), fresh[n:]...)
		fresh = fresh[:n]
	} else {
		s.rec.heldSince = time.Time{}
	}
	s.rec.held = append(s.rec.held, afterSkip...)
	corrected := s.correctTail()
	if len(fresh) == 0 && !corrected {
		return
	}
	if end := s.endedBehind(); end != nil {
		// The session already moved on from the recording that ended:
		// what was said before its end still goes into it.
		var said []appliance.TranscriptSegment
		if said, fresh = splitAt(fresh, end.at); len(said) > 0 {
			s.insertSaid(ctx, end, said)
		}
		if len(fresh) == 0 && !corrected {
			return
		}
	}
	if err := s.recordingLocked(ctx, s.streamTime(fresh)); err != nil {
		s.srv.d.Logger.Error("start a recording", "user", s.user, "err", err)
		return
	}
	s.mu.Lock()
	conv := s.conv
	streamStart := s.streamStart
	end := s.lastEnd
	s.mu.Unlock()
	// Stream seconds become conversation seconds.
	shift := streamStart.Sub(*conv.StartedAt).Seconds()
	streamFresh := slices.Clone(fresh)
	for i := range fresh {
		fresh[i].Start = max(fresh[i].Start+shift, 0)
		fresh[i].End = max(fresh[i].End+shift, fresh[i].Start)
	}
	out := merge(s.rec.extendable(), fresh)
	if corrected && (len(out) == 0 || out[0].ID != s.rec.tail.ID) {
		out = append([]appliance.TranscriptSegment{*s.rec.tail}, out...)
	}
	for i := range out {
		if out[i].ID == "" {
			out[i].ID = appliance.NewID()
		}
	}
	err := s.srv.d.Conversations.Append(ctx, s.user, conv.ID, out)
	if appliance.ErrorCode(err) == appliance.ECONFLICT || appliance.ErrorCode(err) == appliance.ENOTFOUND {
		// The recording ended under us (POST /v1/conversations, the
		// silence timeout): what was said before its end goes into it,
		// the rest begins the next one. The client hears that the old
		// one is being processed before it gets them.
		s.announceProcessing(conv)
		if end != nil && end.conv.ID == conv.ID && appliance.ErrorCode(err) == appliance.ECONFLICT {
			var said []appliance.TranscriptSegment
			if said, streamFresh = splitAt(streamFresh, end.at); len(said) > 0 {
				s.insertSaid(ctx, end, said)
			}
			if len(streamFresh) == 0 {
				s.mu.Lock()
				if s.conv != nil && s.conv.ID == conv.ID {
					s.convEnded = true // the next speech starts the next recording
				}
				s.mu.Unlock()
				return
			}
		}
		next, serr := s.srv.d.Conversations.Start(ctx, s.recording(s.now()))
		if serr != nil {
			s.srv.d.Logger.Error("start a recording", "user", s.user, "err", serr)
			return
		}
		s.mu.Lock()
		s.conv, s.convEnded, s.heard = next, false, false
		conv = next
		s.mu.Unlock()
		s.rec.newRecording()
		shift = streamStart.Sub(*next.StartedAt).Seconds()
		fresh = streamFresh
		for i := range fresh {
			fresh[i].Start = max(fresh[i].Start+shift, 0)
			fresh[i].End = max(fresh[i].End+shift, fresh[i].Start)
		}
		out = merge(nil, fresh)
		for i := range out {
			out[i].ID = appliance.NewID()
		}
		err = s.srv.d.Conversations.Append(ctx, s.user, conv.ID, out)
	}
	if err != nil {
		s.srv.d.Logger.Error("append segments", "user", s.user, "conversation_id", conv.ID, "err", err)
		return
	}
	if len(out) == 0 {
		return
	}
	s.rec.notePlacedSent(out, conv.ID, shift)
	s.rec.sent(out)
	s.mu.Lock()
	s.lastSpeech, s.heard = s.now(), true
	s.mu.Unlock()
	s.send(out)
	s.suggestPeople(ctx)
	s.mu.Lock()
	s.introductions(ctx, out)
	s.mu.Unlock()
	s.queueTranslation(conv.ID, out)
}

// streamTime is when the first of segs was said, as wall time: a new
// recording starts then.
func (s *session) streamTime(segs []appliance.TranscriptSegment) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(segs) == 0 {
		return s.now()
	}
	return s.streamStart.Add(time.Duration(segs[0].Start * float64(time.Second)))
}

// recordingLocked makes sure there is an open recording, starting one at
// started when there is none or the last one has ended. Called with
// s.flushMu held.
func (s *session) recordingLocked(ctx context.Context, started time.Time) error {
	s.mu.Lock()
	open := s.conv != nil && !s.convEnded
	s.mu.Unlock()
	if open {
		return nil
	}
	conv, err := s.srv.d.Conversations.Start(ctx, s.recording(started))
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.conv, s.convEnded, s.heard = conv, false, false
	s.mu.Unlock()
	s.rec.newRecording()
	return nil
}

// announceProcessing sends memory_processing_started for conv once, from
// whichever of the event follower and the recorder learns it first: the
// Omi app starts a new transcript when it gets it, so it must come before
// the next recording's first segments, and only once.
func (s *session) announceProcessing(conv *appliance.Conversation) {
	s.mu.Lock()
	if s.announced == nil {
		s.announced = map[string]bool{}
	}
	if s.announced[conv.ID] {
		s.mu.Unlock()
		return
	}
	s.announced[conv.ID] = true
	c := *conv
	s.mu.Unlock()
	c.Status = appliance.StatusProcessing
	s.send(memoryMessage("memory_processing_started", s.withAudio(&c)))
}

// lateHoldsFrom is the stream second from which fresh segments wait for a
// skipped stretch being transcribed (see lateQueue.holdsFrom); never in a
// final flush.
func (s *session) lateHoldsFrom(final bool) (float64, bool) {
	if final || s.late == nil {
		return 0, false
	}
	from, ok := s.late.holdsFrom(time.Now())
	return float64(from) / stt.SampleRate, ok
}

// endedBehind is the recording last asked to end when the session has
// moved on from it (a next one is open, or none is), else nil.
func (s *session) endedBehind() *endMark {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastEnd == nil || (s.conv != nil && !s.convEnded && s.conv.ID == s.lastEnd.conv.ID) {
		return nil
	}
	return s.lastEnd
}

// splitAt parts segs (stream seconds) into those begun before at and the
// rest.
func splitAt(segs []appliance.TranscriptSegment, at float64) (before, rest []appliance.TranscriptSegment) {
	for _, seg := range segs {
		if seg.Start < at {
			before = append(before, seg)
		} else {
			rest = append(rest, seg)
		}
	}
	return before, rest
}

// insertSaid puts segments said before conv was asked to end into it,
// where they were said, as a skipped stretch's are (see insertLate): the
// recording is processed again once it has them. The client, which shows
// the next recording by now, is not sent them.
func (s *session) insertSaid(ctx context.Context, end *endMark, said []appliance.TranscriptSegment) {
	conv := &end.conv
	s.mu.Lock()
	shift := s.streamStart.Sub(*conv.StartedAt).Seconds()
	s.mu.Unlock()
	_, stale, err := s.insertInto(ctx, conv.ID, shift, said)
	if err != nil {
		s.srv.d.Logger.Error("insert segments said before the end", "user", s.user, "conversation_id", conv.ID, "err", err)
		return
	}
	if !stale {
		return
	}
	if s.late != nil && s.late.pending() {
		s.late.staled(conv.ID)
		return
	}
	go s.restructure([]string{conv.ID})
}
