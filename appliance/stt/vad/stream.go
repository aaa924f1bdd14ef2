package vad

import (
	"context"
	"errors"
	"fmt"
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
	return NewStreamFor(ctx, provider, stt.Config{}, hear)
}

// NewStreamFor is NewStream for a stream opened with cfg: with
// cfg.Skipped set, utterances that queue up faster than they are heard
// are skipped (the waiting ones with them) and handed to cfg.Skipped,
// instead of failing the stream.
func NewStreamFor(ctx context.Context, provider string, cfg stt.Config, hear Transcriber) stt.Stream {
	s := &uttStream{provider: provider, hear: hear, queue: make(chan uttJob, 4), words: make(chan []stt.Word, 8),
		skipped: cfg.Skipped}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go s.work()
	return s
}

// uttJob is an utterance to hear, a drain's barrier, or a skipped
// stretch to report (in order: after the utterances heard before it).
type uttJob struct {
	u       Utterance
	barrier bool
	skip    *stt.Skip
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
	skipped  func(stt.Skip)
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
	behind := false
	for _, u := range s.vad.Push(pcm) {
		select {
		case s.queue <- uttJob{u: u}:
			continue
		default:
		}
		if s.skipped == nil {
			s.err = &stt.Error{Outcome: stt.Timeout, Provider: s.provider, Reason: "overloaded",
				Err: errors.New(s.provider + ": utterances come faster than they are heard")}
			s.shutLocked()
			return s.err
		}
		s.skip(u)
		behind = true
	}
	if behind {
		return fmt.Errorf("%s: %w", s.provider, stt.ErrBehind)
	}
	return nil
}

// skip takes the utterances waiting off the queue and hands them, with u
// (the one that found no room), to the consumer as one skipped stretch:
// the route goes on with the utterances said from now on. A drain's
// barriers are put back.
func (s *uttStream) skip(u Utterance) {
	from, barriers := u.Start, 0
	first := true
	for taken := true; taken; {
		select {
		case j := <-s.queue:
			switch {
			case j.barrier:
				barriers++
			case !first:
			case j.skip != nil: // a skip not reported yet: this one goes on from it
				from, first = j.skip.From, false
			default:
				from, first = j.u.Start, false
			}
		default:
			taken = false
		}
	}
	s.queue <- uttJob{skip: &stt.Skip{From: from, To: u.Start + len(u.PCM)}}
	for range barriers {
		s.queue <- uttJob{barrier: true}
	}
}

func (s *uttStream) work() {
	defer s.cancel()
	defer close(s.words)
	for j := range s.queue {
		if j.barrier {
			s.words <- Barrier()
			continue
		}
		if j.skip != nil {
			s.skipped(*j.skip)
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

// Backlog implements stt.Backlogged: the utterances queued for the route.
func (s *uttStream) Backlog() int { return len(s.queue) }

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
				if s.skipped != nil {
					s.skip(u) // the last words are heard late, not lost
				}
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
