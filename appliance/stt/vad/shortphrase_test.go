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

// TestAQuietChunkIsHeardFromItsFirstSound: each channel name at -45
// dBFS alone in a stream of its own, as a batch upload's chunk reaches a
// route (0.2 s of quiet before it), is one utterance over the whole name.
// A fresh VAD held the stream to a normal speaker's level until it faded,
// seconds later: a quiet chunk's weak sounds fell under it, and its words
// were split at their stops or clipped at their onsets.
func TestAQuietChunkIsHeardFromItsFirstSound(t *testing.T) {
	t.Parallel()
	for _, c := range realspeechtest.English(t) {
		if !strings.HasPrefix(c.ID, "alsa/") {
			continue
		}
		s := realspeech.Join([]realspeech.Clip{c}, 0.2).ScaledTo(-45)
		s.PCM = append(s.PCM, make([]int16, realspeech.SampleRate)...)
		checkTurns(t, c.Text+" at -45 dBFS", s, batchSpans(s.PCM))
	}
}
