package vad

import "github.com/hearth-appliance/hearth/appliance/stt"

// Skipped is the event a live route's Send queues when the route has
// fallen behind (see Lag): the audio that was waiting has been taken off
// the queue. The worker abandons the utterance in progress, if any (its
// words would stop mid-sentence where the skip begins), and decodes
// nothing until the next Start, where live audio resumes. At is the stream
// sample of the first audio taken off the queue, or -1 when it belongs to
// the utterance in progress.
const Skipped Kind = 64 // well apart from the VAD's own kinds

// Lag is the sending side of a live route whose event queue can fill up
// because its recognizer is slower than the audio. Without Skip (the
// consumer keeps no audio) a full queue is the stream's failure; with it,
// the route skips to live audio and the consumer transcribes the stretch
// later. The zero value fails; the caller guards it with the lock that
// guards the queue's sends.
type Lag struct {
	Skip     bool // the consumer takes skipped stretches (stt.Config.Skipped)
	skipping bool // dropping events until the next Start
}

// Offer puts events on q. It reports behind when this call started a
// skip, and full when q had no room and skipping is not allowed (the
// caller fails the stream; events after the first that did not fit are
// lost).
//
// A skip takes every event waiting on q off it (a drain's Marks are put
// back, so that the drain is still answered), queues a Skipped event, and
// drops events until the next Start, which is queued again.
func (l *Lag) Offer(q chan Event, events []Event) (behind, full bool) {
	for _, e := range events {
		if l.skipping && e.Kind != Start {
			continue
		}
		select {
		case q <- e:
			l.skipping = false
			continue
		default:
		}
		if !l.Skip {
			return behind, true
		}
		if l.skipping { // no room even for live audio: go on skipping
			continue
		}
		l.skipping, behind = true, true
		from, marks := skipFrom(q)
		if from == -1 && e.Kind == Start {
			from = e.At // nothing was waiting: the skip begins here
		}
		q <- Event{Kind: Skipped, At: from}
		for range marks {
			q <- Event{Kind: Mark}
		}
	}
	return behind, false
}

// skipFrom empties q and says where the audio taken off it begins (see
// Skipped's At) and how many Marks were on it.
func skipFrom(q chan Event) (from, marks int) {
	from = -2 // not known yet
	for {
		select {
		case old := <-q:
			switch {
			case old.Kind == Mark:
				marks++
			case from != -2:
			case old.Kind == Start || old.Kind == Skipped:
				from = old.At
			default: // audio of the utterance the worker has open
				from = -1
			}
		default:
			if from == -2 {
				from = -1
			}
			return from, marks
		}
	}
}

// Skipping is a live route worker's view of a skip: where it began, until
// live audio resumes.
type Skipping struct {
	from int // stream sample; -1 when not skipping
	fed  int // stream sample after the last audio the worker took
	on   bool
}

// Took notes audio the worker took from the queue (a Start's or an
// Audio's), so that a skip with nothing else to go by begins after it.
func (s *Skipping) Took(e Event) {
	switch e.Kind {
	case Start:
		s.fed = e.At + len(e.PCM)
	case Audio:
		s.fed += len(e.PCM)
	}
}

// Begin starts a skip at the Skipped event e; open is the stream sample
// where the utterance the worker abandons began, or -1 when none was open.
func (s *Skipping) Begin(e Event, open int) {
	if s.on {
		return // one skip until live audio resumes
	}
	from := e.At
	switch {
	case open >= 0:
		from = open
	case from < 0:
		from = s.fed
	}
	s.from, s.on = from, true
}

// End ends the skip, if one is on, at stream sample to, and hands the
// stretch to report.
func (s *Skipping) End(to int, report func(stt.Skip)) {
	if !s.on {
		return
	}
	s.on = false
	if to > s.from && report != nil {
		report(stt.Skip{From: s.from, To: to})
	}
}

// On reports whether a skip is on.
func (s *Skipping) On() bool { return s.on }
