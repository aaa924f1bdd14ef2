package pocketsphinx

import "strings"

// segment is one stretch of a search's best path: a word (in the phone
// search, a phone) over frames [start, end) of the utterance.
type segment struct {
	word       string
	start, end int
}

// A loud room is a steady noise (a fan, traffic, white noise) or other
// people talking, and the two pull an English utterance's fit down by
// different amounts: with white noise 20 dB under the speech the 30-clip
// English set fit at -14.7 to -1.6, with the other asterisk voices
// talking 20 dB under it at -25.0 to -3.7, while speech in another
// language fit at -20.7 to -8.7 in the noise and -23.7 to -14.5 in the
// chatter. Within each room the two part well; across both, not at all.
// The free phones tell the rooms apart at the utterance's edges, the
// pause the VAD keeps before and after the words: in a steady noise they
// are silence (or a filler) there, in chatter they are phones (the phone
// path's silence over the first and last 200 ms: white noise 0.25 to 0.97,
// median 0.97; chatter 0.07 to 0.70, median 0.20; docs/benchmarks.md,
// "The language check: foreign speech in a loud room").

// edgeFrames is how much of each edge is looked at: the 200 ms of pause
// the VAD keeps (as overRoom).
const edgeFrames = 20

// edgesSilent is the share of the first and last edgeFrames frames of an
// utterance of frames frames that the phone path spends in silence or a
// filler (SIL, +NOISE+).
func edgesSilent(phones []segment, frames int) float64 {
	edge := min(edgeFrames, frames/2)
	if edge == 0 {
		return 0
	}
	silent := 0
	for _, s := range phones {
		if s.word != "SIL" && !strings.HasPrefix(s.word, "+") {
			continue
		}
		silent += overlap(s.start, s.end, 0, edge) + overlap(s.start, s.end, frames-edge, frames)
	}
	return float64(silent) / float64(2*edge)
}

// overlap is how many frames [a, b) and [c, d) share.
func overlap(a, b, c, d int) int { return max(0, min(b, d)-max(a, c)) }
