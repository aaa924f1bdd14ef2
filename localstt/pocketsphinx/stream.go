package pocketsphinx

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// queueLen bounds the utterances a stream has waiting for a decoder. A
// stream that falls this far behind fails (the session reports it and
// keeps the audio) rather than letting its latency grow without bound.
const queueLen = 8

// Open implements stt.StreamingProvider.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	r.mu.Lock()
	if r.streams >= r.cfg.MaxStreams {
		r.mu.Unlock()
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "busy",
			Err: errors.Join(stt.ErrBusy, errors.New("every PocketSphinx stream slot is taken"))}
	}
	r.streams++
	r.mu.Unlock()
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &stream{r: r, queue: make(chan utterance, queueLen), words: make(chan []stt.Word, queueLen), cancel: cancel}
	s.wg.Add(1)
	go s.work(ctx)
	return s, nil
}

type stream struct {
	r      *Route
	mu     sync.Mutex
	vad    vad
	queue  chan utterance
	words  chan []stt.Word
	err    error
	closed bool
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Send implements stt.Stream: it never waits for a decoder.
func (s *stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("pocketsphinx: stream closed")
	}
	if s.err != nil {
		return s.err
	}
	for _, u := range s.vad.push(pcm) {
		select {
		case s.queue <- u:
		default:
			s.err = &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "overloaded",
				Err: errors.New("pocketsphinx: utterances queued faster than they decode")}
			s.shutLocked()
			return s.err
		}
	}
	return nil
}

// work decodes the stream's utterances in order.
func (s *stream) work(ctx context.Context) {
	defer s.wg.Done()
	defer close(s.words)
	for u := range s.queue {
		words, err := s.r.decodeUtterance(ctx, u)
		if err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
			for range s.queue { // drain: the stream has failed
			}
			return
		}
		if len(words) > 0 {
			select {
			case s.words <- words:
			case <-time.After(time.Minute): // a consumer that stopped reading
			}
		}
	}
}

func (s *stream) Words() <-chan []stt.Word { return s.words }

func (s *stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close decodes what was still being said, then ends the stream.
func (s *stream) Close() error {
	s.mu.Lock()
	if !s.closed && s.err == nil {
		if u, ok := s.vad.flush(); ok {
			select {
			case s.queue <- u:
			default:
			}
		}
	}
	s.shutLocked()
	s.mu.Unlock()
	// The consumer reads Words until it closes; the worker ends once the
	// queue is decoded.
	go func() { s.wg.Wait(); s.cancel() }()
	return nil
}

// shutLocked closes the queue once and frees the stream's slot.
func (s *stream) shutLocked() {
	if s.closed {
		return
	}
	s.closed = true
	close(s.queue)
	s.r.mu.Lock()
	s.r.streams--
	s.r.mu.Unlock()
}
