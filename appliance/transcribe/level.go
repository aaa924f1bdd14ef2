package transcribe

import "math"

// A route hears each chunk as a stream of its own, and its VAD starts a
// stream at a normal speaker's level (it follows a quiet one only after
// seconds): a quiet microphone's chunk of two seconds was heard through a
// gate set for louder speech, and at -45 dBFS "front left" and "side
// right" were split at their stops, each half decoded alone ("bryant
// let", "sigh right"). So a chunk whose loudest frame is under
// normalPeak is brought up to it, by at most maxGain, before a route
// hears it: the level the VAD brings each utterance to before it is
// decoded anyway, so the recognizer hears what it did; only the cuts
// change. Speech at a normal level is passed on as it came.
const (
	normalPeak = 3000.0 // RMS of the loudest frame, about -21 dBFS
	maxGain    = 32.0   // 30 dB
)

// levelGain is the gain for a chunk whose frames have the levels rms.
func levelGain(rms []float64) float64 {
	loudest := 0.0
	for _, r := range rms {
		loudest = max(loudest, r)
	}
	if loudest <= 0 || loudest >= normalPeak {
		return 1
	}
	return min(normalPeak/loudest, maxGain)
}

// leveled is pcm times gain, clipped; pcm itself at a gain of 1 or less.
func leveled(pcm []int16, gain float64) []int16 {
	if gain <= 1 {
		return pcm
	}
	out := make([]int16, len(pcm))
	for i, s := range pcm {
		out[i] = int16(max(-32768, min(32767, math.Round(float64(s)*gain))))
	}
	return out
}
