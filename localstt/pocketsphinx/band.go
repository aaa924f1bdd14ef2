package pocketsphinx

import "math"

// Narrow-band speech (pcm8, a telephone line) reaches the wideband model
// upsampled, with nothing above 4 kHz: it fits English words badly
// whatever its language (Festival's English at 8 kHz fit at -11, where
// recorded Spanish fits at -11.7), so it is not judged.

// highPass is a 63-tap windowed-sinc high-pass filter with its cut at
// 4.4 kHz (16 kHz samples): what upsampled 8 kHz audio lacks.
var highPass = func() []float64 {
	const taps, cut = 63, 4400.0 / 16000
	h := make([]float64, taps)
	mid := taps / 2
	for i := range h {
		n := float64(i - mid)
		low := 2 * cut
		if n != 0 {
			low = math.Sin(2*math.Pi*cut*n) / (math.Pi * n)
		}
		w := 0.42 - 0.5*math.Cos(2*math.Pi*float64(i)/(taps-1)) + 0.08*math.Cos(4*math.Pi*float64(i)/(taps-1)) // Blackman
		h[i] = -low * w
	}
	h[mid] += 1
	return h
}()

// narrowBand is whether pcm has almost no power above 4.4 kHz: under
// 1/1000 (-30 dB) of its whole power. Wideband speech puts a few per cent
// there (fricatives), 8 kHz audio upsampled next to nothing.
func narrowBand(pcm []int16) bool {
	var all, high float64
	for i := len(highPass); i < len(pcm); i++ {
		var y float64
		for k, c := range highPass {
			y += c * float64(pcm[i-k])
		}
		x := float64(pcm[i])
		all += x * x
		high += y * y
	}
	return all == 0 || high < all/1000
}
