package vad_test

import (
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech/realspeechtest"
)

// TestATwoWordNameIsOneUtterance: alsa-utils' channel names ("Rear …
// Left") are two words with 300-400 ms of silence between them, about
// the pause that ends an utterance. Cut there, each word was decoded
// alone and heard as another ("front center" as "friend" / "center");
// a word or two said alone now waits longer for the rest of its phrase,
// in quiet and in noise, batch and live.
func TestATwoWordNameIsOneUtterance(t *testing.T) {
	t.Parallel()
	var names []realspeech.Clip
	for _, c := range realspeechtest.English(t) {
		if strings.HasPrefix(c.ID, "alsa/") {
			names = append(names, c)
		}
	}
	if len(names) != 8 {
		t.Fatalf("%d of alsa-utils' channel names in the corpus, want 8", len(names))
	}
	clean := realspeech.Join(names, 1.5)
	clean.PCM = append(clean.PCM, make([]int16, 2*realspeech.SampleRate)...)
	for _, cond := range []string{"clean", "white20"} {
		s := clean
		if cond != "clean" {
			var err error
			if s, err = realspeech.Condition(t.Context(), clean, cond); err != nil {
				t.Fatal(err)
			}
		}
		checkTurns(t, cond+" batch", s, batchSpans(s.PCM))
		checkTurns(t, cond+" live", s, liveSpans(s.PCM))
	}
}
