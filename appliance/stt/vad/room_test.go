package vad_test

import (
	"errors"
	"os"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// TestTheRoomsVoicesAreNotTheWearers (issue #33): recorded prompts with
// four other voices talking at once 20 dB under them (babble) give one
// utterance a prompt, none in the pauses, at a normal level and from a
// quiet microphone (-45 dBFS), batch and live. Before, the VAD opened on
// the babble in the pauses and an utterance ran on through them (one
// held two prompts and the pause between).
func TestTheRoomsVoicesAreNotTheWearers(t *testing.T) {
	clips, err := realspeech.English(t.Context())
	if errors.Is(err, realspeech.ErrMissing) && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var some []realspeech.Clip
	for _, c := range clips {
		if c.Seconds() <= 3 && len(some) < 8 {
			some = append(some, c)
		}
	}
	clean := realspeech.Join(some, 1.5)
	babble, err := realspeech.Condition(t.Context(), clean, "babble20")
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]realspeech.Stream{"normal": babble, "-45 dBFS": babble.ScaledTo(-45)} {
		t.Run(name, func(t *testing.T) {
			var v vad.VAD
			utts := v.Push(s.PCM)
			if u, ok := v.Flush(); ok {
				utts = append(utts, u)
			}
			var spans [][2]int
			for _, u := range utts {
				spans = append(spans, [2]int{u.Start, u.Start + len(u.PCM)})
			}
			checkTurns(t, "batch", s, spans)

			var l vad.VAD
			spans = nil
			for _, e := range append(l.Events(s.PCM), l.FlushEvents()...) {
				switch e.Kind {
				case vad.Start:
					spans = append(spans, [2]int{e.At, e.At + len(e.PCM)})
				case vad.Audio:
					spans[len(spans)-1][1] += len(e.PCM)
				}
			}
			checkTurns(t, "live", s, spans)
		})
	}
}

// checkTurns fails unless each span holds speech of exactly one turn
// and each turn is in one span.
func checkTurns(t *testing.T, path string, s realspeech.Stream, spans [][2]int) {
	t.Helper()
	covered := make([]int, len(s.Turns))
	for _, sp := range spans {
		var in []int
		for i, tr := range s.Turns {
			if sp[0] < tr.End && tr.Start < sp[1] {
				in = append(in, i)
				covered[i]++
			}
		}
		if len(in) != 1 {
			t.Errorf("%s: an utterance from %.2f s to %.2f s holds %d prompts", path, sec(sp[0]), sec(sp[1]), len(in))
		}
	}
	for i, n := range covered {
		if n != 1 {
			t.Errorf("%s: %q (%.2f-%.2f s) is in %d utterances", path, s.Turns[i].Clip.Text, sec(s.Turns[i].Start), sec(s.Turns[i].End), n)
		}
	}
}

func sec(samples int) float64 { return float64(samples) / 16000 }

// TestADoorIsNotAVoice: a sound too short to be speech (a door, a clap)
// 24 dB above the speaker does not become the voice the next utterance
// is held to: the speaker, heard before it, is heard after it.
func TestADoorIsNotAVoice(t *testing.T) {
	pcm := signal(1, 1, 0.5)
	for i := range 1600 { // 100 ms at full scale
		pcm = append(pcm, int16(30000*(1-2*float64(i%2))))
	}
	after := len(pcm) + 16000
	pcm = append(pcm, scaled(signal(1, 1, 1), -6)...)
	var v vad.VAD
	utts := v.Push(pcm)
	if u, ok := v.Flush(); ok {
		utts = append(utts, u)
	}
	for _, u := range utts {
		if u.Start <= after+3200 && u.Start+len(u.PCM) >= after+16000 {
			return
		}
	}
	t.Errorf("the speaker after the door is not heard: %d utterances", len(utts))
}
