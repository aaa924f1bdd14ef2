package pocketsphinx_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestThePoolGrowsOnlyWhenWaitingCostsMore: utterances that find the
// decoder busy wait for it rather than load another (a second live
// session costs no second model), unless more of them wait than there
// are decoders, or one has waited GrowAfter; every utterance is heard
// as it is alone.
func TestThePoolGrowsOnlyWhenWaitingCostsMore(t *testing.T) {
	said := []string{sentences[1], sentences[2]}
	audio := make([][]int16, len(said))
	for i, s := range said {
		audio[i] = speech(t, s, 16000)
	}
	transcribe := func(t *testing.T, r *pocketsphinx.Route, pcm []int16) string {
		tr, err := r.Transcribe(context.Background(), pcm, stt.Config{Language: "en"})
		if err != nil {
			t.Error(err)
		}
		return tr.Text
	}
	// alone hears the first phrase on its own, loading the route's first
	// decoder (the batch tests hear each phrase alone).
	alone := func(t *testing.T, r *pocketsphinx.Route) {
		if got := transcribe(t, r, audio[0]); got != said[0] {
			t.Fatalf("alone: said %q, heard %q", said[0], got)
		}
		if n := r.Loaded(); n != 1 {
			t.Fatalf("%d decoders loaded after one utterance, want 1", n)
		}
	}
	for _, tc := range []struct {
		name      string
		growAfter time.Duration
		at        int // utterances at once, said[i%2] each
		loaded    int // decoders loaded after them
	}{
		// The second waits for the decoder the first holds.
		{"two at once share one decoder", 0, 2, 1},
		// Three wait behind the one decoding: a queue loads another.
		{"a queue loads another", 0, 4, 2},
		// The second has waited longer than GrowAfter at once.
		{"a long wait loads another", time.Nanosecond, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := route(t, pocketsphinx.Config{Decoders: 2, GrowAfter: tc.growAfter})
			alone(t, r)
			heard := make([]string, tc.at)
			var wg sync.WaitGroup
			for i := range heard {
				wg.Add(1)
				go func() {
					defer wg.Done()
					heard[i] = transcribe(t, r, audio[i%len(audio)])
				}()
			}
			wg.Wait()
			for i, h := range heard {
				if want := said[i%len(said)]; h != want {
					t.Errorf("utterance %d at once: heard %q, alone %q", i, h, want)
				}
			}
			if n := r.Loaded(); n != tc.loaded {
				t.Errorf("%d decoders loaded after %d utterances at once, want %d", n, tc.at, tc.loaded)
			}
		})
	}
}
