package vad

import (
	"errors"
	"fmt"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Live is the skeleton of a live route that decodes the VAD's events on a
// worker of its own (whisper.cpp, PocketSphinx): the sending side (Send,
// Drain, Err, Close) and the queue between it and the worker. Send never
// waits on the recognizer; a route that falls behind skips to live audio
// when the consumer keeps the audio (stt.Config.Skipped) and fails as
// overloaded otherwise (see Lag). The route embeds it and runs its worker
// over Events, sending words on Out and closing Out when Events is done.
type Live struct {
	route      string // names the route in its errors: "whisper"
	overloaded string // why a full queue failed the stream
	onShut     func()

	mu      sync.Mutex // guards the VAD, the sends on queue and what follows
	vad     VAD
	queue   chan Event
	words   chan []stt.Word
	err     error
	closed  bool
	lag     Lag
	sent    int // stream samples sent
	skipped func(stt.Skip)
}

// LiveConfig is what differs between the live routes.
type LiveConfig struct {
	Route      string // the provider's name, in errors
	Overloaded string // the error's words when the queue fills and skipping is not allowed
	Queue      int    // events the queue holds (20 ms of audio each)
	Words      int    // word batches Words holds
	// Skipped is the stream's stt.Config.Skipped: with it, a route that
	// falls behind skips instead of failing.
	Skipped func(stt.Skip)
	// OnShut runs once, with the lock held, when the queue closes (a
	// route's stream slot is freed there).
	OnShut func()
}

// NewLive returns the sending side of a live stream; the route starts its
// worker over Events.
func NewLive(c LiveConfig) *Live {
	l := &Live{route: c.Route, overloaded: c.Overloaded, onShut: c.OnShut,
		queue: make(chan Event, c.Queue), words: make(chan []stt.Word, c.Words), skipped: c.Skipped}
	l.lag.Skip = c.Skipped != nil
	return l
}

// Send implements stt.Stream: it never waits for the recognizer.
func (l *Live) Send(pcm []int16) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New(l.route + ": stream closed")
	}
	if l.err != nil {
		return l.err
	}
	l.sent += len(pcm)
	behind, full := l.lag.Offer(l.queue, l.vad.Events(pcm))
	if full {
		l.err = &stt.Error{Outcome: stt.Timeout, Provider: l.route, Reason: "overloaded",
			Err: errors.New(l.route + ": " + l.overloaded)}
		l.shutLocked()
		return l.err
	}
	if behind {
		return fmt.Errorf("%s: %w", l.route, stt.ErrBehind)
	}
	return nil
}

// Drain implements stt.Drainer: the utterance in progress ends as a pause
// would end it; its words, then an empty batch, follow on Words.
func (l *Live) Drain() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Drain(&l.vad, l.queue, l.err, l.closed, l.route)
}

// Words implements stt.Stream.
func (l *Live) Words() <-chan []stt.Word { return l.words }

// Backlog implements stt.Backlogged: the events queued for the worker.
func (l *Live) Backlog() int { return len(l.queue) }

// Err implements stt.Stream.
func (l *Live) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Close implements stt.Stream: what was still being said is queued (as
// far as the queue has room; the worker hears out an utterance left open),
// then the queue closes.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed && l.err == nil {
		QueueClose(&l.vad, l.queue)
	}
	l.shutLocked()
	return nil
}

func (l *Live) shutLocked() {
	if l.closed {
		return
	}
	l.closed = true
	close(l.queue)
	if l.onShut != nil {
		l.onShut()
	}
}

// Events is the worker's side of the queue: it closes when the stream
// closes or fails as overloaded.
func (l *Live) Events() <-chan Event { return l.queue }

// Out is where the worker sends words; the worker closes it when Events
// is done.
func (l *Live) Out() chan<- []stt.Word { return l.words }

// Fail records the worker's failure (the first one stands) and empties
// the queue: the stream has failed.
func (l *Live) Fail(err error) {
	l.mu.Lock()
	if l.err == nil {
		l.err = err
	}
	l.mu.Unlock()
	for range l.queue {
	}
}

// Stop records the worker's failure (the first one stands) without
// waiting for the queue to close, for a worker that stops while the stream
// is still open: Send and Drain then refuse with err, and what the queue
// still holds goes with it when the stream is closed.
func (l *Live) Stop(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = err
	}
}

// Sent is how much audio the stream was sent: where a skip still on when
// the stream ends stops.
func (l *Live) Sent() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sent
}

// Skipped is where the worker reports a skipped stretch (nil when the
// consumer keeps no audio).
func (l *Live) Skipped() func(stt.Skip) { return l.skipped }
