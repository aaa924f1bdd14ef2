package localstt

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

func TestGuardDropsWhatWhisperInvents(t *testing.T) {
	loud := make([]int16, 16000*6)
	for i := range loud {
		if i%40 < 20 {
			loud[i] = 6000
		} else {
			loud[i] = -6000
		}
	}
	silence := make([]int16, 16000*6)
	for _, tc := range []struct {
		name string
		pcm  []int16
		in   []stt.Segment
		want []string
		// noSpeech and logProb are what the decoder reported for every
		// segment of the case.
		noSpeech, logProb float64
	}{
		{"credits over silence", silence, []stt.Segment{{Start: 0, End: 3, Text: " Thank you for watching!"}}, nil, 0, 0},
		{"the same words over speech stay", loud, []stt.Segment{{Start: 0, End: 3, Text: "Thank you for watching."}}, []string{"Thank you for watching."}, 0, 0},
		{"markup", loud, []stt.Segment{{Start: 0, End: 2, Text: "[BLANK_AUDIO]"}, {Start: 2, End: 3, Text: "(music)"}}, nil, 0, 0},
		{"a looped phrase is kept once", loud, []stt.Segment{{Start: 0, End: 2, Text: "Call the plumber."}, {Start: 2, End: 4, Text: "call the plumber."}}, []string{"Call the plumber."}, 0, 0},
		{"a looped word", loud, []stt.Segment{{Start: 0, End: 5, Text: "okay the the the the the the the end"}}, []string{"okay the end"}, 0, 0},
		{"no speech, written without confidence", loud, []stt.Segment{{Start: 0, End: 3, Text: "So, the weather."}}, nil, 0.9, -1.6},
		{"no speech, but written with confidence", loud, []stt.Segment{{Start: 0, End: 3, Text: "Call me back."}}, []string{"Call me back."}, 0.9, -0.2},
		{"speech, written without confidence", loud, []stt.Segment{{Start: 0, End: 3, Text: "Mumble grumble."}}, []string{"Mumble grumble."}, 0.1, -1.6},
	} {
		in := make([]heard, len(tc.in))
		for i, s := range tc.in {
			in[i] = heard{Segment: s, noSpeech: tc.noSpeech, logProb: tc.logProb}
		}
		got := guard(in, tc.pcm)
		var texts []string
		for _, s := range got {
			texts = append(texts, s.Text)
		}
		if len(texts) != len(tc.want) || (len(texts) > 0 && texts[0] != tc.want[0]) {
			t.Errorf("%s: %q, want %q", tc.name, texts, tc.want)
		}
	}
}
