package localstt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/vad"
)

// stream is a live whisper session. The shared VAD opens and closes
// utterances; a short one is transcribed whole when it ends, and a long
// one is transcribed again every passEvery of new audio, its words
// committed by LocalAgreement-2 (agreement.go). No context is carried
// from one utterance to the next.
type stream struct {
	r        *Route
	language string
	ctx      context.Context
	cancel   context.CancelFunc
	mu       sync.Mutex
	vad      vad.VAD
	queue    chan vad.Event
	words    chan []stt.Word
	err      error
	closed   bool

	lag     vad.Lag
	sent    int // stream samples sent, guarded by mu
	skipped func(stt.Skip)
}

// passEvery is how much new audio starts another pass over a long
// utterance; the first pass waits for firstPass of it.
const (
	passEvery = 2 * stt.SampleRate
	firstPass = 4 * stt.SampleRate
)

func (s *stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("whisper: stream closed")
	}
	if s.err != nil {
		return s.err
	}
	s.sent += len(pcm)
	behind, full := s.lag.Offer(s.queue, s.vad.Events(pcm))
	if full {
		s.err = &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "overloaded",
			Err: errors.New("whisper: speech comes faster than it is transcribed")}
		s.shutLocked()
		return s.err
	}
	if behind {
		return fmt.Errorf("whisper: %w", stt.ErrBehind)
	}
	return nil
}

// sentSamples is how much audio the stream was sent: where a skip still
// on when the stream ends stops.
func (s *stream) sentSamples() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

func (s *stream) work() {
	defer s.cancel()
	defer close(s.words)
	defer s.r.release() // held by Open
	var (
		buf      []int16 // the utterance's audio not yet committed past
		start    int     // stream sample of buf[0]
		sinceRun int     // samples added since the last pass
		agree    agreement
		open     bool
		skip     vad.Skipping
	)
	emit := func(ws []stt.Word) {
		if len(ws) > 0 {
			s.words <- ws
		}
	}
	pass := func(final bool) bool {
		segs, _, err := s.r.run(s.ctx, buf, s.language, false)
		if err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
			return false
		}
		hyp := words(segs, float64(start)/stt.SampleRate)
		// Only what comes after the committed words is new.
		hyp = after(hyp, agree.committed)
		if final {
			emit(agree.finish(hyp))
			return true
		}
		emit(agree.update(hyp))
		return true
	}
	for e := range s.queue {
		skip.Took(e)
		switch e.Kind {
		case vad.Start:
			skip.End(e.At, s.skipped) // live audio again
			buf, start, sinceRun, agree, open = append([]int16(nil), e.PCM...), e.At, 0, agreement{}, true
		case vad.Audio:
			if !open {
				continue
			}
			buf = append(buf, e.PCM...)
			sinceRun += len(e.PCM)
			if len(buf) >= firstPass && sinceRun >= passEvery {
				sinceRun = 0
				if !pass(false) {
					s.drain()
					return
				}
			}
		case vad.Mark: // every utterance before it is heard and sent
			s.words <- vad.Barrier()
		case vad.End:
			if open && !pass(true) {
				s.drain()
				return
			}
			open, buf = false, nil
		case vad.Skipped:
			from := -1
			if open {
				// The words already committed stay; the rest of the
				// utterance is heard again with the skipped audio.
				from = start
				if n := len(agree.committed); n > 0 {
					from = int(agree.committed[n-1].End * stt.SampleRate)
				}
			}
			open, buf = false, nil
			skip.Begin(e, from)
		}
	}
	skip.End(s.sentSamples(), s.skipped)
}

func (s *stream) drain() {
	for range s.queue {
	}
}

// Drain implements stt.Drainer: the utterance in progress ends as a pause
// would end it; its words, then an empty batch, follow on Words.
func (s *stream) Drain() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return vad.Drain(&s.vad, s.queue, s.err, s.closed, "whisper")
}

// after drops the words of hyp that end before the last committed word
// ends: a new pass sees the whole utterance again.
func after(hyp, committed []stt.Word) []stt.Word {
	if len(committed) == 0 {
		return hyp
	}
	n := min(len(committed), len(hyp))
	// The committed words are a prefix the new pass agrees with, usually;
	// skip as many words as were committed.
	return hyp[n:]
}

// spread turns a segment into timed words, sharing its time among them by
// length (whisper's own token times are rough on short utterances).
func spread(seg stt.Segment, off float64) []stt.Word {
	fields := strings.Fields(seg.Text)
	total := 0
	for _, f := range fields {
		total += len(f)
	}
	var out []stt.Word
	t := seg.Start
	for _, f := range fields {
		d := (seg.End - seg.Start) * float64(len(f)) / float64(max(total, 1))
		out = append(out, stt.Word{Text: f, Start: off + t, End: off + t + d})
		t += d
	}
	return out
}

func (s *stream) Words() <-chan []stt.Word { return s.words }

func (s *stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close transcribes what was still being said, then ends the stream.
func (s *stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.err == nil {
		vad.QueueClose(&s.vad, s.queue)
	}
	s.shutLocked()
	return nil
}

func (s *stream) shutLocked() {
	if !s.closed {
		s.closed = true
		close(s.queue)
	}
}
