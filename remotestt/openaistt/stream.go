package openaistt

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/vad"
)

// Open implements stt.StreamingProvider at utterance level: the shared VAD
// cuts the live audio, and each utterance is posted when it ends.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	s := &stream{r: r, cfg: cfg, queue: make(chan vad.Utterance, 4), words: make(chan []stt.Word, 8)}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go s.work()
	return s, nil
}

type stream struct {
	r      *Route
	cfg    stt.Config
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	vad    vad.VAD
	queue  chan vad.Utterance
	words  chan []stt.Word
	err    error
	closed bool
}

func (s *stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("openai: stream closed")
	}
	if s.err != nil {
		return s.err
	}
	for _, u := range s.vad.Push(pcm) {
		select {
		case s.queue <- u:
		default:
			s.err = &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "overloaded",
				Err: errors.New("openai: the server answers slower than people speak")}
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
		tr, err := s.r.Transcribe(s.ctx, u.PCM, s.cfg)
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
		var ws []stt.Word
		for _, seg := range tr.Segments {
			fields := strings.Fields(seg.Text)
			per := (seg.End - seg.Start) / float64(max(len(fields), 1))
			for i, f := range fields {
				ws = append(ws, stt.Word{Text: f, Start: off + seg.Start + float64(i)*per, End: off + seg.Start + float64(i+1)*per})
			}
		}
		if len(ws) > 0 {
			s.words <- ws
		}
	}
}

func (s *stream) Words() <-chan []stt.Word { return s.words }

func (s *stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

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
