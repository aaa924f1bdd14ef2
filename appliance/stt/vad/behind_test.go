package vad_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// TestUtteranceStreamSkipsWhenBehind: utterances that end faster than the
// route hears them no longer fail a stream whose consumer keeps the audio
// (stt.Config.Skipped): the ones waiting and the one that found no room
// become one skipped stretch, Send says the stream is behind, and the
// utterances said after it are heard live.
func TestUtteranceStreamSkipsWhenBehind(t *testing.T) {
	entered, release := make(chan struct{}, 16), make(chan struct{})
	var (
		mu    sync.Mutex
		skips []stt.Skip
	)
	st := vad.NewStreamFor(context.Background(), "batch", stt.Config{Skipped: func(s stt.Skip) {
		mu.Lock()
		skips = append(skips, s)
		mu.Unlock()
	}}, func(_ context.Context, pcm []int16) ([]stt.Word, error) {
		entered <- struct{}{}
		<-release
		return []stt.Word{{Text: "heard", End: float64(len(pcm)) / 16000}}, nil
	})
	// The first utterance is being heard (and the route is stuck on it)
	// before the others come.
	first := signal(0.5, 1, 0.6)
	if err := st.Send(first); err != nil {
		t.Fatal(err)
	}
	<-entered
	// Six more: four wait, the fifth finds no room, the sixth is live.
	more := signal(0, 1, 0.6, 1, 0.6, 1, 0.6, 1, 0.6, 1, 0.6, 1, 0.6)
	err := st.Send(more)
	if !errors.Is(err, stt.ErrBehind) {
		t.Fatalf("send past the queue: %v, want ErrBehind", err)
	}
	close(release)
	st.Close()
	var heard []stt.Word
	for ws := range st.Words() {
		heard = append(heard, ws...)
	}
	if err := st.Err(); err != nil {
		t.Fatalf("the stream failed: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(skips) != 1 {
		t.Fatalf("skips %+v, want one stretch", skips)
	}
	// The second utterance starts with the second second of speech (its
	// preroll a little before); the sixth ends before the seventh's.
	second, seventh := len(first), len(first)+5*int(1.6*16000)
	if s := skips[0]; s.From > second+16000/2 || s.From < second-16000/2 || s.To > seventh || s.To <= s.From {
		t.Errorf("skipped %.2f–%.2f s, want from about %.2f s to before %.2f s", float64(s.From)/16000, float64(s.To)/16000,
			float64(second)/16000, float64(seventh)/16000)
	}
	if len(heard) != 2 {
		t.Errorf("heard %d utterances live, want the first and the last", len(heard))
	}
}
