package pocketsphinx

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNarrowBand: white noise at 16 kHz is wideband, a 1 kHz tone and
// silence are narrow (speech sent at 8 kHz: TestNarrowBandSpeech).
func TestNarrowBand(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	white := make([]int16, 16000)
	for i := range white {
		white[i] = int16(rng.NormFloat64() * 3000)
	}
	tone := make([]int16, 16000)
	for i := range tone {
		tone[i] = int16(8000 * math.Sin(2*math.Pi*1000*float64(i)/16000))
	}
	for _, tc := range []struct {
		name string
		pcm  []int16
		want bool
	}{{"white", white, false}, {"tone", tone, true}, {"silence", make([]int16, 1600), true}} {
		if got := narrowBand(tc.pcm); got != tc.want {
			t.Errorf("%s: narrowBand %v, want %v", tc.name, got, tc.want)
		}
	}
}
