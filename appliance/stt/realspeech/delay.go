package realspeech

import "math"

// maxDelay is the most a codec delays its audio: 150 ms.
const maxDelay = 150 * SampleRate / 1000

// Delay is how many samples later than in s the speech comes in heard, a
// codec's decode of s: the lag, within 150 ms either way, at which the
// first turn's first second matches best. Scoring the engine alone on a
// codec's audio takes the clips' spans moved by it: an AAC stream starts
// with the encoder's 1,024 samples of priming (64 ms), and on the clips'
// own spans the engine heard 64 ms of each pause and lost each clip's
// last 64 ms.
func (s Stream) Delay(heard []int16) int {
	if len(s.Turns) == 0 {
		return 0
	}
	first := s.Turns[0]
	ref := s.PCM[first.Start:min(first.Start+SampleRate, first.End)]
	best, bestScore := 0, math.Inf(-1)
	for lag := -maxDelay; lag <= maxDelay; lag++ {
		from := first.Start + lag
		if from < 0 || from+len(ref) > len(heard) {
			continue
		}
		var dot, energy float64
		for i, r := range ref {
			h := float64(heard[from+i])
			dot += float64(r) * h
			energy += h * h
		}
		if score := dot / math.Sqrt(max(energy, 1)); score > bestScore {
			best, bestScore = lag, score
		}
	}
	return best
}
