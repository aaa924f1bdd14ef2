package localstt

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/vad"
)

// stream is a live whisper session: utterances cut by the VAD, each
// transcribed whole when it ends.
type stream struct {
	r        *Route
	language string
	ctx      context.Context
	cancel   context.CancelFunc
	mu       sync.Mutex
	vad      vad.VAD
	queue    chan vad.Utterance
	words    chan []stt.Word
	err      error
	closed   bool
}

func (s *stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("whisper: stream closed")
	}
	if s.err != nil {
		return s.err
	}
	for _, u := range s.vad.Push(pcm) {
		select {
		case s.queue <- u:
		default:
			s.err = &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "overloaded",
				Err: errors.New("whisper: utterances come faster than they are transcribed")}
			s.shutLocked()
			return s.err
		}
	}
	return nil
}

func (s *stream) work() {
	defer s.cancel()
	defer close(s.words)
	for u := range s.queue {
		segs, _, err := s.r.run(s.ctx, u.PCM, s.language, false)
		if err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
			for range s.queue {
			}
			return
		}
		off := float64(u.Start) / stt.SampleRate
		var words []stt.Word
		for _, seg := range segs {
			words = append(words, spread(seg, off)...)
		}
		if len(words) > 0 {
			s.words <- words
		}
	}
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
		if u, ok := s.vad.Flush(); ok {
			select {
			case s.queue <- u:
			default:
			}
		}
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
