package pocketsphinx

import (
	"math"
	"testing"
)

// TestWordsFit: the fit over the words' frames leaves out the path's
// silence, fillers and ends, spreads a phone's score over its frames,
// and brings the lattice's scores to the path's units.
func TestWordsFit(t *testing.T) {
	phones := []segment{
		{word: "SIL", start: 0, end: 10, acoustic: -100},
		{word: "HH", start: 10, end: 20, acoustic: -150, lm: -50},
		{word: "AY", start: 20, end: 40, acoustic: -300, lm: -100},
		{word: "SIL", start: 40, end: 50, acoustic: -500},
	}
	for _, tc := range []struct {
		name  string
		words []segment
		fit   float64
		ok    bool
	}{
		{"a word over two phones", []segment{
			{word: "<s>", start: 0, end: 10, acoustic: -1024 * 1000},
			{word: "hi", start: 10, end: 40, acoustic: -1024 * 500, lm: -100},
			{word: "</s>", start: 40, end: 50, acoustic: -1024 * 500},
		}, (-500 - 1.5*100 - (-200 - 400)) / 30.0, true},
		{"half a phone", []segment{{word: "a(2)", start: 20, end: 30, acoustic: -1024 * 300}}, (-300 - -200) / 10.0, true},
		{"fillers and silence only", []segment{{word: "<sil>", start: 0, end: 20}, {word: "[NOISE]", start: 20, end: 40}, {word: "+BREATH+", start: 40, end: 50}}, 0, false},
	} {
		fit, ok := wordsFit(tc.words, phones)
		if ok != tc.ok || math.Abs(fit-tc.fit) > 1e-9 {
			t.Errorf("%s: fit %.3f, %v; want %.3f, %v", tc.name, fit, ok, tc.fit, tc.ok)
		}
	}
}
