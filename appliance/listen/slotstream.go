package listen

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// slotStream is a session's speech route held only while audio flows:
// after the session drains it on an audio gap, release closes the route's
// stream and gives its slot back; the next frame opens a new one. To the
// session it is one stream: word times and skipped stretches count from
// the session's first sample, words arrive in order, and Words closes
// only when the session closes it or a route fails.
type slotStream struct {
	open func() (stt.Stream, func(), error) // a new route stream on a new slot

	words chan []stt.Word
	done  sync.Once // closes words

	mu      sync.Mutex
	inner   stt.Stream   // nil while released
	base    atomic.Int64 // samples sent before inner opened
	sent    int          // samples sent in all
	drained int          // sent at the last drain; -1 before any
	fwd     chan struct{}
	err     error
	closed  bool
}

// errIdle: a released stream holds nothing, so there is nothing to drain.
var errIdle = errors.New("speech route released: nothing to drain")

func newSlotStream(first stt.Stream, release func(), open func() (stt.Stream, func(), error)) *slotStream {
	s := &slotStream{open: open, words: make(chan []stt.Word, 16), drained: -1}
	s.attach(first, release)
	return s
}

// attach starts forwarding inner's words, after the previous stream's;
// its slot is given back when its words end. Called with s.mu held (or
// before s is shared).
func (s *slotStream) attach(inner stt.Stream, release func()) {
	prev, done := s.fwd, make(chan struct{})
	s.inner, s.fwd = inner, done
	s.base.Store(int64(s.sent))
	offset := float64(s.sent) / stt.SampleRate
	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		for ws := range inner.Words() {
			if offset != 0 && len(ws) > 0 {
				shifted := make([]stt.Word, len(ws))
				for i, w := range ws {
					w.Start, w.End = w.Start+offset, w.End+offset
					shifted[i] = w
				}
				ws = shifted
			}
			s.words <- ws
		}
		release()
		s.mu.Lock()
		failed := s.inner == inner && inner.Err() != nil
		if failed {
			s.err = inner.Err()
		}
		s.mu.Unlock()
		if failed {
			s.done.Do(func() { close(s.words) })
		}
	}()
}

// Send feeds the route, opening a stream (and taking a slot) first when
// the last one was released.
func (s *slotStream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.err != nil {
		return s.err
	}
	if s.inner == nil {
		inner, release, err := s.open()
		if err != nil {
			s.err = err
			s.closed = true
			go s.finish(s.fwd)
			return err
		}
		s.attach(inner, release)
	}
	s.sent += len(pcm)
	return s.inner.Send(pcm)
}

// skipped shifts a reopened stream's skipped stretch to the session's
// samples; base is read when the stretch is reported, which is while its
// stream is the current one. It takes no lock: the route calls it from
// its own goroutine, possibly while Send holds s.mu.
func (s *slotStream) skipped(to func(stt.Skip)) func(stt.Skip) {
	return func(k stt.Skip) {
		base := int(s.base.Load())
		k.From, k.To = k.From+base, k.To+base
		to(k)
	}
}

func (s *slotStream) Words() <-chan []stt.Word { return s.words }

func (s *slotStream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Drain drains the current stream; a released one has nothing to drain.
func (s *slotStream) Drain() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.inner.(stt.Drainer)
	if s.inner == nil || !ok {
		return errIdle
	}
	err := d.Drain()
	if err == nil { // a busy queue took nothing: the stream is not drained
		s.drained = s.sent
	}
	return err
}

// release closes the current stream if nothing was sent since the last
// drain: the session's audio stopped and its words are taken. Its slot is
// given back once the stream's last words are forwarded.
func (s *slotStream) release() {
	s.mu.Lock()
	inner := s.inner
	if inner == nil || s.closed || s.drained != s.sent {
		s.mu.Unlock()
		return
	}
	s.inner = nil
	s.mu.Unlock()
	inner.Close()
}

// Close ends the stream: the current route stream is heard out, and Words
// closes after its last words.
func (s *slotStream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	inner, fwd := s.inner, s.fwd
	s.inner = nil
	s.mu.Unlock()
	if inner != nil {
		inner.Close()
	}
	s.finish(fwd)
	return nil
}

// finish closes Words once the forwarder fwd is done.
func (s *slotStream) finish(fwd chan struct{}) {
	if fwd != nil {
		<-fwd
	}
	s.done.Do(func() { close(s.words) })
}

// idle is what the session does when its audio has stopped: hear out the
// utterance, then give the route's slot back until the next frame.
func (s *session) idle(ctx context.Context) {
	s.hearOut(ctx, false)
	if ss, ok := s.audio.stream.(*slotStream); ok {
		ss.release()
	}
}
