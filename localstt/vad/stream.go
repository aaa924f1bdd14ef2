package vad

import (
	"context"
	"errors"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Transcriber hears one utterance (16 kHz mono) and returns its words,
// timed from the utterance's start.
type Transcriber func(ctx context.Context, pcm []int16) ([]stt.Word, error)

// NewStream is a live stream for a route that hears whole utterances (a
// batch API): the VAD cuts the audio, and each utterance is transcribed
// when it ends, in order. Send never waits on the route: a stream whose
// utterances queue up faster than they are heard fails as overloaded.
func NewStream(ctx context.Context, provider string, hear Transcriber) stt.Stream {
	s := &uttStream{provider: provider, hear: hear, queue: make(chan uttJob, 4), words: make(chan []stt.Word, 8)}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go s.work()
	return s
}

// uttJob is an utterance to hear, or a drain's barrier.
type uttJob struct {
	u       Utterance
	barrier bool
}

type uttStream struct {
	provider string
	hear     Transcriber
	ctx      context.Context
	cancel   context.CancelFunc
	mu       sync.Mutex
	vad      VAD
	queue    chan uttJob
	words    chan []stt.Word
	err      error
	closed   bool
}

func (s *uttStream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New(s.provider + ": stream closed")
	}
	if s.err != nil {
		return s.err
	}
	for _, u := range s.vad.Push(pcm) {
		select {
		case s.queue <- uttJob{u: u}:
		default:
			s.err = &stt.Error{Outcome: stt.Timeout, Provider: s.provider, Reason: "overloaded",
				Err: errors.New(s.provider + ": utterances come faster than they are heard")}
			s.shutLocked()
			return s.err
		}
	}
	return nil
}

func (s *uttStream) work() {
	defer s.cancel()
	defer close(s.words)
	for j := range s.queue {
		if j.barrier {
			s.words <- Barrier()
			continue
		}
		u := j.u
		ws, err := s.hear(s.ctx, u.PCM)
		if err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = stt.Classify(err, s.provider)
			}
			s.mu.Unlock()
			for range s.queue {
			}
			return
		}
		off := float64(u.Start) / stt.SampleRate
		for i := range ws {
			ws[i].Start += off
			ws[i].End += off
		}
		if len(ws) > 0 {
			s.words <- ws
		}
	}
}

// Drain implements stt.Drainer: the utterance in progress is heard now;
// its words, then an empty batch, follow on Words.
func (s *uttStream) Drain() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return errors.New(s.provider + ": stream closed")
	}
	if cap(s.queue)-len(s.queue) < 2 {
		return stt.ErrDrainBusy
	}
	if u, ok := s.vad.Flush(); ok {
		s.queue <- uttJob{u: u}
	}
	s.queue <- uttJob{barrier: true}
	return nil
}

func (s *uttStream) Words() <-chan []stt.Word { return s.words }

func (s *uttStream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close hears what was still being said, then ends the stream.
func (s *uttStream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.err == nil {
		if u, ok := s.vad.Flush(); ok {
			select {
			case s.queue <- uttJob{u: u}:
			default:
			}
		}
	}
	s.shutLocked()
	return nil
}

func (s *uttStream) shutLocked() {
	if !s.closed {
		s.closed = true
		close(s.queue)
	}
}
