package audio

import (
	"math/rand/v2"
	"testing"
)

// The per-phase kernels must compute what the general path computes.
func TestPolyphaseMatchesGeneralResampler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rates := range [][2]int{{8000, 16000}, {48000, 16000}, {44100, 16000}, {24000, 16000}, {22050, 16000}} {
		fast, slow := NewResampler(rates[0], rates[1]), NewResampler(rates[0], rates[1])
		if fast.poly == nil {
			t.Fatalf("%v: no per-phase kernels", rates)
		}
		slow.poly = nil
		var a, b []int16
		for range 200 {
			in := make([]int16, 1+rng.IntN(700)) // pieces of any size
			for i := range in {
				in[i] = int16(rng.IntN(40000) - 20000)
			}
			a = fast.Process(a, in)
			b = slow.Process(b, in)
		}
		if len(a) != len(b) {
			t.Fatalf("%v: %d samples against %d", rates, len(a), len(b))
		}
		for i := range a {
			if d := int(a[i]) - int(b[i]); d > 1 || d < -1 {
				t.Fatalf("%v: sample %d is %d, the general path says %d", rates, i, a[i], b[i])
			}
		}
	}
}
