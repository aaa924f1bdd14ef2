// Package stttest is the conformance suite every speech route passes, local
// or remote: the same checks of streaming and batch behaviour and of every
// outcome, run by each route's own tests against its real engine or a fake
// server speaking its vendor's protocol.
package stttest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Behaviour is how the route's engine or vendor is made to behave.
type Behaviour string

// Behaviours the suite knows. A harness declares the ones its route can be
// made to show; "Hears" and "Silence" are required.
const (
	// Hears: the engine transcribes the harness's speech.
	Hears Behaviour = "hears"
	// Silence: audio without speech; the route answers no words and no
	// error.
	Silence Behaviour = "silence"
	// RefusesKey: the vendor refuses the credential.
	RefusesKey Behaviour = "refuses_key"
	// Unreachable: nothing answers at the vendor's address.
	Unreachable Behaviour = "unreachable"
	// RejectsAudio: the vendor refuses the audio or the request as invalid.
	RejectsAudio Behaviour = "rejects_audio"
	// Fails: the vendor fails on its side.
	Fails Behaviour = "fails"
	// Stalls: the vendor accepts and never answers; the caller's deadline
	// (a second) must end a batch job as a timeout. (A live stream has no
	// deadline of its own: the session watches it.)
	Stalls Behaviour = "stalls"
)

// want is the outcome each failing behaviour must be classified as.
var want = map[Behaviour]stt.Outcome{
	RefusesKey:   stt.ConfigError,
	Unreachable:  stt.UpstreamError,
	RejectsAudio: stt.InvalidInput,
	Fails:        stt.UpstreamError,
	Stalls:       stt.Timeout,
}

// Harness describes a route to the suite.
type Harness struct {
	// New returns the route set up so that its engine or vendor shows b.
	// It implements stt.StreamingProvider, stt.BatchProvider or both.
	New func(t *testing.T, b Behaviour) any
	// Behaviours the route can be made to show besides Hears and Silence.
	Behaviours []Behaviour
	// Speech is 16 kHz mono audio, and Words what the route must hear in
	// it (compared word by word, case and punctuation aside; MaxWER is the
	// share of errors allowed, 0 for an exact match).
	Speech []int16
	Words  string
	MaxWER float64
	// Language of the speech (default "en").
	Language string
	// Secret, when set, must appear in no error (an API key).
	Secret string
}

// Run runs the suite.
func Run(t *testing.T, h Harness) {
	if h.Language == "" {
		h.Language = "en"
	}
	for _, b := range append([]Behaviour{Hears, Silence}, h.Behaviours...) {
		t.Run(string(b), func(t *testing.T) {
			route := h.New(t, b)
			stream, isStream := route.(stt.StreamingProvider)
			batch, isBatch := route.(stt.BatchProvider)
			if !isStream && !isBatch {
				t.Fatalf("%T is neither a streaming nor a batch provider", route)
			}
			if isStream && b != Stalls {
				t.Run("streaming", func(t *testing.T) { h.check(t, b, h.stream(t, stream, b)) })
			}
			if isBatch {
				t.Run("batch", func(t *testing.T) { h.check(t, b, h.batch(t, batch, b)) })
			}
		})
	}
	t.Run("unsupported", func(t *testing.T) {
		route := h.New(t, Hears)
		cfg := stt.Config{Language: h.Language, Channels: 3}
		if p, ok := route.(stt.StreamingProvider); ok {
			if p.Supports(cfg.Language, cfg.Channels) {
				t.Fatal("three channels are served")
			}
			if _, err := p.Open(context.Background(), cfg); outcome(err) != stt.ConfigError {
				t.Fatalf("opening what is not served: %v, want config_error", err)
			}
		}
		if p, ok := route.(stt.BatchProvider); ok && p.Supports(cfg.Language, cfg.Channels) {
			t.Fatal("three channels are served")
		}
	})
}

// result is what one run produced.
type result struct {
	text string
	err  error
}

func (h Harness) audio(b Behaviour) []int16 {
	if b == Silence {
		return make([]int16, 3*stt.SampleRate)
	}
	return h.Speech
}

// stream sends the audio in 20 ms frames at ten times real time, closes,
// and collects the words.
func (h Harness) stream(t *testing.T, p stt.StreamingProvider, b Behaviour) result {
	ctx, cancel := context.WithTimeout(context.Background(), deadline(b))
	defer cancel()
	st, err := p.Open(ctx, stt.Config{Language: h.Language})
	if err != nil {
		return result{err: err}
	}
	var words []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ws := range st.Words() {
			for _, w := range ws {
				words = append(words, w.Text)
			}
		}
	}()
	pcm := h.audio(b)
	const frame = stt.SampleRate / 50
	for off := 0; off < len(pcm); off += frame {
		if st.Send(pcm[off:min(off+frame, len(pcm))]) != nil {
			break
		}
		if off%(10*frame) == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	st.Close()
	select {
	case <-done:
	case <-time.After(deadline(b) + 15*time.Second):
		t.Fatal("the stream never ended after Close")
	}
	return result{text: strings.Join(words, " "), err: st.Err()}
}

func (h Harness) batch(t *testing.T, p stt.BatchProvider, b Behaviour) result {
	ctx, cancel := context.WithTimeout(context.Background(), deadline(b))
	defer cancel()
	tr, err := p.Transcribe(ctx, h.audio(b), stt.Config{Language: h.Language})
	if err == nil && tr.Segments == nil {
		t.Error("a transcript's segments are null, want []")
	}
	return result{text: tr.Text, err: err}
}

func deadline(b Behaviour) time.Duration {
	if b == Stalls {
		return time.Second
	}
	return 60 * time.Second
}

func (h Harness) check(t *testing.T, b Behaviour, r result) {
	t.Helper()
	if h.Secret != "" && r.err != nil && strings.Contains(r.err.Error(), h.Secret) {
		t.Errorf("the secret is in an error: %v", r.err)
	}
	switch b {
	case Hears:
		if r.err != nil {
			t.Fatalf("hearing speech failed: %v", r.err)
		}
		errs, n := stt.WordErrors(h.Words, r.text)
		if float64(errs) > h.MaxWER*float64(n) {
			t.Fatalf("heard %q, want %q (%d of %d words wrong)", r.text, h.Words, errs, n)
		}
	case Silence:
		if r.err != nil || strings.TrimSpace(r.text) != "" {
			t.Fatalf("silence gave %q, %v; want nothing and no error", r.text, r.err)
		}
	default:
		if r.err == nil {
			t.Fatalf("%s was reported as success (%q)", b, r.text)
		}
		var e *stt.Error
		if !errors.As(r.err, &e) {
			t.Fatalf("%s: unclassified error %v", b, r.err)
		}
		if got := stt.Classify(r.err, "").Outcome; got != want[b] {
			t.Fatalf("%s classified %s, want %s (%v)", b, got, want[b], r.err)
		}
	}
}

func outcome(err error) stt.Outcome {
	if err == nil {
		return stt.Success
	}
	return stt.Classify(err, "").Outcome
}

// Tone is seconds of a loud 440 Hz tone: what a fake vendor server "hears"
// as speech (it answers its scripted words to any sound, nothing to
// silence).
func Tone(seconds float64) []int16 {
	pcm := make([]int16, int(seconds*stt.SampleRate))
	for i := range pcm {
		// A triangle wave: loud, and no math import for a test signal.
		p := i % 36
		if p < 18 {
			pcm[i] = int16(-8000 + p*888)
		} else {
			pcm[i] = int16(8000 - (p-18)*888)
		}
	}
	return pcm
}

// Loud reports whether little-endian 16-bit PCM holds sound (for fakes).
func Loud(b []byte) bool {
	for i := 0; i+1 < len(b); i += 2 {
		if v := int16(uint16(b[i]) | uint16(b[i+1])<<8); v > 2000 || v < -2000 {
			return true
		}
	}
	return false
}
