package vad_test

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech/realspeechtest"
)

// TestARoomsChatterIsNotAnUtterance: four other recorded voices talking
// at once, 20 dB under the speaker and on through the pauses, are loud
// enough for the level rules; the VAD hears the speaker's turns, one
// utterance each, and not the chatter between them (before the voice
// rule the utterances ran through the pauses, up to 10 s of chatter and
// three turns in one, and the route transcribed the chatter).
func TestARoomsChatterIsNotAnUtterance(t *testing.T) {
	clips := realspeechtest.English(t)
	var short []realspeech.Clip
	for _, c := range clips {
		if c.Seconds() <= 3 {
			short = append(short, c)
		}
	}
	var turns []realspeech.Clip
	for i := range 10 {
		turns = append(turns, short[i*len(short)/10])
	}
	clean := realspeech.Join(turns, 1.5)
	clean.PCM = append(clean.PCM, make([]int16, 4*realspeech.SampleRate)...)
	s, err := realspeech.Condition(t.Context(), clean, "babble20")
	if err != nil {
		t.Fatal(err)
	}

	spans := batchSpans(s.PCM)
	checkTurns(t, "batch", s, spans)
	checkChatter(t, "batch", s, spans)

	spans = liveSpans(s.PCM)
	checkTurns(t, "live", s, spans)
	checkChatter(t, "live", s, spans)
}

// checkChatter fails when an utterance holds more than a second of the
// pauses around its turn (the VAD's preroll and lead before the voice,
// the 300 ms kept after its last sound, are less).
func checkChatter(t *testing.T, path string, s realspeech.Stream, spans [][2]int) {
	t.Helper()
	for _, sp := range spans {
		out := sp[1] - sp[0]
		for _, tr := range s.Turns {
			if lo, hi := max(sp[0], tr.Start), min(sp[1], tr.End); hi > lo {
				out -= hi - lo
			}
		}
		if out > realspeech.SampleRate {
			t.Errorf("%s: the utterance from %.2f s to %.2f s holds %.2f s of the room's chatter", path, sec(sp[0]), sec(sp[1]), sec(out))
		}
	}
}
