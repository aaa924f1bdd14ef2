package localstt_test

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// TestWhisperStreamSkipsWhenBehind: speech sent far faster than whisper
// hears it no longer fails a stream whose consumer keeps the audio: Send
// says it is behind, the stream ends cleanly, and the stretches it skipped
// are handed over, in order, within the audio sent.
func TestWhisperStreamSkipsWhenBehind(t *testing.T) {
	needWhisper(t)
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var (
		mu    sync.Mutex
		skips []stt.Skip
	)
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1, Skipped: func(s stt.Skip) {
		mu.Lock()
		skips = append(skips, s)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	// jfk.wav without its pauses, three times: one long utterance (the
	// random model hears nothing in it, and a stream counts an utterance
	// it hears nothing in once, however often it transcribes it again as
	// it grows; three such stretches and the route is judged deaf, which
	// would end the stream before it falls behind).
	one := withoutPauses(jfk(t))
	var speech []int16
	for len(speech) < 36*16000 { // at once: more than the 10 s a stream queues
		speech = append(speech, one...)
	}
	behind := 0
	for off := 0; off < len(speech); off += 320 {
		err := st.Send(speech[off:min(off+320, len(speech))])
		switch {
		case errors.Is(err, stt.ErrBehind):
			behind++
		case err != nil:
			t.Fatalf("send at %.1f s: %v", float64(off)/16000, err)
		}
	}
	st.Close()
	for range st.Words() {
	}
	if err := st.Err(); err != nil {
		t.Fatalf("the stream failed: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if behind == 0 || len(skips) == 0 {
		t.Fatalf("Send said behind %d times, %d stretches skipped", behind, len(skips))
	}
	for i, s := range skips {
		if s.From >= s.To || s.To > len(speech) || (i > 0 && s.From < skips[i-1].To) {
			t.Fatalf("skips %+v: stretch %d is not a stretch of the audio after the one before", skips, i)
		}
	}
}

// withoutPauses is pcm without its quiet stretches longer than 100 ms
// (20 ms frames under a tenth of the loudest frame's RMS), so that a VAD
// hears one utterance.
func withoutPauses(pcm []int16) []int16 {
	const frame = 320
	rms := make([]float64, len(pcm)/frame)
	loudest := 0.0
	for i := range rms {
		sum := 0.0
		for _, v := range pcm[i*frame : (i+1)*frame] {
			sum += float64(v) * float64(v)
		}
		rms[i] = math.Sqrt(sum / frame)
		loudest = max(loudest, rms[i])
	}
	var out []int16
	quiet := 0
	for i, r := range rms {
		if r < loudest/10 {
			quiet++
		} else {
			quiet = 0
		}
		if quiet <= 5 {
			out = append(out, pcm[i*frame:(i+1)*frame]...)
		}
	}
	return out
}
