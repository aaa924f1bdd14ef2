package pocketsphinx_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestBatchIsReproducible: the same recording gives the same transcript,
// segment for segment and byte for byte, however often it is sent,
// whichever of the pooled decoders hears each of its utterances, and
// whatever those decoders heard before (another recording at the same
// time, a live stream, whose running normalisation a decoder would
// otherwise carry into the next job).
func TestBatchIsReproducible(t *testing.T) {
	r := route(t, pocketsphinx.Config{Decoders: 2})
	a, _ := allison(t, 1, allisonPrompts[:3]...)
	b, _ := allison(t, 1, allisonPrompts[4], allisonPrompts[9])
	ctx, cfg := context.Background(), stt.Config{Language: "en"}
	first, err := r.Transcribe(ctx, a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Segments) < 3 {
		t.Fatalf("%d segments for three prompts: %+v", len(first.Segments), first.Segments)
	}
	live(t, r, b)
	for run := range 2 {
		var (
			wg    sync.WaitGroup
			other error
		)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, other = r.Transcribe(ctx, b, cfg)
		}()
		again, err := r.Transcribe(ctx, a, cfg)
		wg.Wait()
		if err != nil || other != nil {
			t.Fatal(err, other)
		}
		if !reflect.DeepEqual(again, first) {
			t.Fatalf("run %d heard\n%+v\nthe first heard\n%+v", run+2, again, first)
		}
	}
}

// TestLiveIsReproducible: a live stream's words depend on its own audio
// only. The same recording streamed again, after another session (a
// synthetic voice through 8 kHz, which moves a decoder's running mean a
// long way) and a batch job on other audio, whose decoders it then gets,
// is heard word for word as the first time, when the decoders were fresh.
func TestLiveIsReproducible(t *testing.T) {
	r := route(t, pocketsphinx.Config{Decoders: 2})
	a, _ := allison(t, 1, allisonPrompts[:3]...)
	b, _ := allison(t, 1, allisonPrompts[4], allisonPrompts[9])
	narrow := speech(t, sentences[0], 8000)
	first := live(t, r, a)
	if n := len(strings.Fields(first)); n < 8 {
		t.Fatalf("%d words heard in three prompts: %q", n, first)
	}
	for run := range 2 {
		// Both decoders hear foreign audio: another session's, and an
		// upload's at the same time.
		var (
			wg    sync.WaitGroup
			other error
		)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, other = r.Transcribe(context.Background(), b, stt.Config{Language: "en"})
		}()
		live(t, r, narrow)
		wg.Wait()
		if other != nil {
			t.Fatal(other)
		}
		if again := live(t, r, a); again != first {
			t.Fatalf("run %d heard\n%q\nthe first heard\n%q", run+2, again, first)
		}
	}
}
