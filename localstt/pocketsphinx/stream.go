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
	lang    language // the worker's
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

// work decodes the stream's utterances one by one, each heard whole at
// its end, as the engine alone hears a recording: PocketSphinx then
// normalises the utterance's cepstra by its own mean. Fed as it was
// spoken, a decoder normalises by the running mean of what it heard
// before, which lags the speaker (on recorded voices a live stream heard
// 33.3 % of words wrong where the engine alone heard 30.8 %; from the
// model's initial mean, narrow-band pcm8 speech was heard as "juan
// juan", 9 of 9 words wrong). The price is that an utterance's words
// come a whole decode after it ends instead of its final search
// (docs/benchmarks.md). Every utterance starts from the decoder as
// loaded, so the words depend on this utterance's audio alone, not on
// what another session said to that pooled decoder before.
func (s *stream) work(ctx context.Context) {
	defer s.wg.Done()
	defer close(s.words)
	var (
		start int
		skip  vad.Skipping
		utt   []int16 // the utterance so far, while it is spoken
		open  bool
	)
	fail := func(err error) {
		s.mu.Lock()
		if s.err == nil {
			s.err = &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "decode", Err: err}
		}
		s.mu.Unlock()
		for range s.queue { // drain: the stream has failed
		}
	}
	for e := range s.queue {
		skip.Took(e)
		switch e.Kind {
		case vad.Start:
			skip.End(e.At, s.skipped) // live audio again
			start, open = e.At, true
			utt = append(utt[:0], e.PCM...)
		case vad.Audio:
			if open {
				utt = append(utt, e.PCM...)
			}
		case vad.Mark: // every utterance before it is heard and sent
			select {
			case s.words <- vad.Barrier():
			case <-time.After(time.Minute): // a consumer that stopped reading
			}
		case vad.End:
			if open {
				open = false
				if !s.hear(ctx, utt, start, fail) {
					return
				}
			}
		case vad.Skipped:
			at := -1
			if open { // its words would stop where the skip begins
				at, open = start, false
			}
			skip.Begin(e, at)
		}
	}
	// The queue closed mid-utterance (no room for its end): hear it out.
	if open {
		s.hear(ctx, utt, start, fail)
	}
	skip.End(s.sentSamples(), s.skipped)
}

// hear decodes an utterance whole and sends its words; false when it
// failed (fail has run).
func (s *stream) hear(ctx context.Context, pcm []int16, start int, fail func(error)) bool {
	d, err := s.r.acquire(ctx)
	if err != nil {
		fail(err)
		return false
	}
	heard, err := d.decode(pcm)
	s.r.release(d)
	if err != nil {
		fail(err)
		return false
	}
	s.send(s.r.heard(heard, &s.lang), start)
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
