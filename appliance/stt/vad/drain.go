package vad

import (
	"errors"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Drain is a live route's stt.Drainer over its VAD and event queue, called
// with the lock that guards them held: a failed or closed stream says so,
// any other queues the drain.
func Drain(v *VAD, q chan Event, failed error, closed bool, route string) error {
	if failed != nil {
		return failed
	}
	if closed {
		return errors.New(route + ": stream closed")
	}
	return QueueDrain(v, q)
}

// QueueDrain puts the end of the utterance in progress (if one is open)
// and a Mark on q, for a live route's Drain. The caller holds the lock
// that guards v and the sends on q, so the room it checks cannot shrink:
// when q has no room for them, nothing changes and ErrDrainBusy says so
// (an End taken from the VAD and then dropped would lose the utterance).
func QueueDrain(v *VAD, q chan Event) error {
	if cap(q)-len(q) < 3 {
		return stt.ErrDrainBusy
	}
	for _, e := range v.FlushEvents() {
		q <- e
	}
	q <- Event{Kind: Mark}
	return nil
}

// QueueClose puts the end of the utterance in progress on q as the stream
// closes, as far as q has room: a route's worker hears out an utterance
// left open when its queue closes, so only the padding can be missed.
func QueueClose(v *VAD, q chan Event) {
	for _, e := range v.FlushEvents() {
		select {
		case q <- e:
		default:
			return
		}
	}
}

// Barrier is the empty batch a route sends on Words when its worker
// reaches a Mark.
func Barrier() []stt.Word { return []stt.Word{} }
