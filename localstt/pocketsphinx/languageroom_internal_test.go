package pocketsphinx

import "testing"

// TestEdgesSilent: the share of an utterance's first and last 200 ms the
// phone path spends in silence or a filler, whatever the phones between.
func TestEdgesSilent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		phones []segment
		frames int
		want   float64
	}{
		{"a quiet room", []segment{{"SIL", 0, 25}, {"HH", 25, 40}, {"AY", 40, 75}, {"SIL", 75, 100}}, 100, 1},
		{"a filler at the end", []segment{{"SIL", 0, 20}, {"AY", 20, 80}, {"+NOISE+", 80, 100}}, 100, 1},
		{"chatter at both edges", []segment{{"S", 0, 10}, {"IY", 10, 30}, {"AY", 30, 90}, {"N", 90, 100}}, 100, 0},
		{"half", []segment{{"SIL", 0, 10}, {"IY", 10, 30}, {"AY", 30, 90}, {"SIL", 90, 100}}, 100, 0.5},
		{"shorter than two edges", []segment{{"SIL", 0, 5}, {"AY", 5, 30}}, 30, 5.0 / 30},
		{"nothing", nil, 0, 0},
	} {
		if got := edgesSilent(tc.phones, tc.frames); got != tc.want {
			t.Errorf("%s: %.3f, want %.3f", tc.name, got, tc.want)
		}
	}
}
