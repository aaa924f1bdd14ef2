package pocketsphinx

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/vad"
)

// queueLen bounds the audio a stream has waiting to be decoded, in 20 ms
// frames (10 s). A stream that falls this far behind skips to live audio
// when its consumer keeps the audio (stt.Config.Skipped), and fails
// otherwise, rather than letting its latency grow without bound.
const queueLen = 500

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
	r.warm()
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &stream{r: r, queue: make(chan vad.Event, queueLen), words: make(chan []stt.Word, 16), cancel: cancel,
		skipped: cfg.Skipped}
	s.lag.Skip = cfg.Skipped != nil
	s.wg.Add(1)
	go s.work(ctx)
	return s, nil
}

type stream struct {
	r      *Route
	mu     sync.Mutex
	vad    vad.VAD
	queue  chan vad.Event
	words  chan []stt.Word
	err    error
	closed bool
	cancel context.CancelFunc
	wg     sync.WaitGroup

	lag     vad.Lag
	sent    int // stream samples sent, guarded by mu
	skipped func(stt.Skip)

	// heard is the normalisation the stream's utterances have adapted,
	// nil before the first: each utterance resumes it in whichever pooled
	// decoder it gets, so that the words depend on this stream's audio
	// alone, not on what another session said to that decoder before.
	// Only the worker touches it.
	heard *normalisation
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
	s.sent += len(pcm)
	behind, full := s.lag.Offer(s.queue, s.vad.Events(pcm))
	if full {
		s.err = &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "overloaded",
			Err: errors.New("pocketsphinx: audio queued faster than it decodes")}
		s.shutLocked()
		return s.err
	}
	if behind {
		return fmt.Errorf("pocketsphinx: %w", stt.ErrBehind)
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

// work decodes the stream's utterances as they are spoken: a decoder is
// held from an utterance's start to its end, so that only the final
// search is left when the speaker stops. The stream's first utterance is
// the exception: it is kept and heard whole at its end, as the engine
// alone hears it, because the running normalisation has nothing of the
// speaker to start from yet (from the model's initial mean, narrow-band
// pcm8 speech was heard as "juan juan", 9 of 9 words wrong); the mean it
// leaves is the utterance's own, which the next utterances adapt.
func (s *stream) work(ctx context.Context) {
	defer s.wg.Done()
	defer close(s.words)
	var (
		d     decoder
		start int
		skip  vad.Skipping
		first []int16 // the first utterance so far, while it is spoken
		whole bool    // the first utterance is being kept
	)
	fail := func(err error) {
		s.mu.Lock()
		if s.err == nil {
			s.err = &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "decode", Err: err}
		}
		s.mu.Unlock()
		if d != nil {
			d.finish()
			s.release(d)
			d = nil
		}
		for range s.queue { // drain: the stream has failed
		}
	}
	for e := range s.queue {
		skip.Took(e)
		switch e.Kind {
		case vad.Start:
			skip.End(e.At, s.skipped) // live audio again
			start = e.At
			if s.heard == nil {
				first, whole = append(first[:0], e.PCM...), true
				continue
			}
			var err error
			if d, err = s.r.acquire(ctx); err != nil {
				fail(err)
				return
			}
			if err := d.resume(s.heard); err != nil {
				fail(err)
				return
			}
			if err := d.start(); err != nil {
				fail(err)
				return
			}
			if err := d.process(e.PCM, false); err != nil {
				fail(err)
				return
			}
		case vad.Audio:
			if whole {
				first = append(first, e.PCM...)
			} else if d != nil {
				if err := d.process(e.PCM, false); err != nil {
					fail(err)
					return
				}
			}
		case vad.Mark: // every utterance before it is heard and sent
			select {
			case s.words <- vad.Barrier():
			case <-time.After(time.Minute): // a consumer that stopped reading
			}
		case vad.End:
			if whole {
				whole = false
				if !s.hearWhole(ctx, first, start, fail) {
					return
				}
				first = nil
			} else if !s.endUtterance(&d, start, fail) {
				return
			}
		case vad.Skipped:
			open := -1
			if whole {
				open, whole, first = start, false, first[:0]
			} else if d != nil { // its words would stop where the skip begins
				open = start
				d.finish()
				s.release(d)
				d = nil
			}
			skip.Begin(e, open)
		}
	}
	// The queue closed mid-utterance (no room for its end): hear it out.
	if whole {
		s.hearWhole(ctx, first, start, fail)
	} else {
		s.endUtterance(&d, start, fail)
	}
	skip.End(s.sentSamples(), s.skipped)
}

// release keeps what the decoder's normalisation learnt from the
// stream's utterance, then returns the decoder to the pool.
func (s *stream) release(d decoder) {
	heard := d.learnt()
	s.heard = &heard
	s.r.release(d)
}

// endUtterance finishes the open utterance, if any, and sends its words;
// false when the decoder failed (fail has run).
func (s *stream) endUtterance(d *decoder, start int, fail func(error)) bool {
	if *d == nil {
		return true
	}
	words, err := (*d).finish()
	s.release(*d)
	*d = nil
	if err != nil {
		fail(err)
		return false
	}
	s.send(words, start)
	return true
}

// hearWhole decodes an utterance kept whole and sends its words; false
// when it failed (fail has run).
func (s *stream) hearWhole(ctx context.Context, pcm []int16, start int, fail func(error)) bool {
	d, err := s.r.acquire(ctx)
	if err != nil {
		fail(err)
		return false
	}
	words, err := decodeWhole(d, pcm)
	s.release(d)
	if err != nil {
		fail(err)
		return false
	}
	s.send(words, start)
	return true
}

// send shifts an utterance's words to stream time and sends them.
func (s *stream) send(words []stt.Word, start int) {
	off := float64(start) / stt.SampleRate
	for i := range words {
		words[i].Start += off
		words[i].End += off
	}
	if len(words) > 0 {
		select {
		case s.words <- words:
		case <-time.After(time.Minute): // a consumer that stopped reading
		}
	}
}

// Drain implements stt.Drainer: the utterance in progress ends as a pause
// would end it; its words, then an empty batch, follow on Words.
func (s *stream) Drain() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return vad.Drain(&s.vad, s.queue, s.err, s.closed, "pocketsphinx")
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
		vad.QueueClose(&s.vad, s.queue)
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
