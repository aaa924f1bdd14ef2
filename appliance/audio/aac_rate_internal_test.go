//go:build libavcodec && cgo

package audio

import "testing"

// TestCheckAACRate: the rates a corrupt frame can claim are refused before a
// resampler is built from them; every rate an AAC stream can have passes.
func TestCheckAACRate(t *testing.T) {
	for _, tc := range []struct {
		rate int
		ok   bool
	}{
		{0, false}, {-44100, false}, {3999, false}, {192001, false}, {1 << 30, false},
		{7350, true}, {8000, true}, {16000, true}, {44100, true}, {48000, true}, {96000, true},
	} {
		err := checkAACRate(tc.rate)
		if (err == nil) != tc.ok {
			t.Errorf("checkAACRate(%d) = %v, want ok=%v", tc.rate, err, tc.ok)
		}
	}
}
