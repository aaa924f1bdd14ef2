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
	}{
		{"credits over silence", silence, []stt.Segment{{Start: 0, End: 3, Text: " Thank you for watching!"}}, nil},
		{"the same words over speech stay", loud, []stt.Segment{{Start: 0, End: 3, Text: "Thank you for watching."}}, []string{"Thank you for watching."}},
		{"markup", loud, []stt.Segment{{Start: 0, End: 2, Text: "[BLANK_AUDIO]"}, {Start: 2, End: 3, Text: "(music)"}}, nil},
		{"a looped phrase is kept once", loud, []stt.Segment{{Start: 0, End: 2, Text: "Call the plumber."}, {Start: 2, End: 4, Text: "call the plumber."}}, []string{"Call the plumber."}},
		{"a looped word", loud, []stt.Segment{{Start: 0, End: 5, Text: "okay the the the the the the the end"}}, []string{"okay the end"}},
	} {
		in := make([]heard, len(tc.in))
		for i, s := range tc.in {
			in[i] = heard{Segment: s}
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
