package pocketsphinx

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
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
	s := &stream{r: r, cancel: cancel}
	s.Live = vad.NewLive(vad.LiveConfig{Route: Name, Overloaded: "audio queued faster than it decodes",
		Queue: queueLen, Words: 16, Skipped: cfg.Skipped, OnShut: r.freeSlot})
	s.wg.Add(1)
	go s.work(ctx)
	return s, nil
}

// freeSlot gives a stream's slot back as its queue closes.
func (r *Route) freeSlot() {
	r.mu.Lock()
	r.streams--
	r.mu.Unlock()
}

type stream struct {
	*vad.Live
	r      *Route
	cancel context.CancelFunc
	wg     sync.WaitGroup
	lang   language // the worker's
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
	defer close(s.Out())
	out, skipped := s.Out(), s.Skipped()
	var (
		start int
		skip  vad.Skipping
		utt   []int16 // the utterance so far, while it is spoken
		open  bool
	)
	fail := func(err error) {
		s.Fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "decode", Err: err})
	}
	for e := range s.Events() {
		skip.Took(e)
		switch e.Kind {
		case vad.Start:
			skip.End(e.At, skipped) // live audio again
			start, open = e.At, true
			utt = append(utt[:0], e.PCM...)
		case vad.Audio:
			if open {
				utt = append(utt, e.PCM...)
			}
		case vad.Mark: // every utterance before it is heard and sent
			select {
			case out <- vad.Barrier():
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
	skip.End(s.Sent(), skipped)
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
		case s.Out() <- words:
		case <-time.After(time.Minute): // a consumer that stopped reading
		}
	}
}

// Close decodes what was still being said, then ends the stream.
func (s *stream) Close() error {
	s.Live.Close()
	// The consumer reads Words until it closes; the worker ends once the
	// queue is decoded.
	go func() { s.wg.Wait(); s.cancel() }()
	return nil
}
