package pocketsphinx

import "strings"

// segment is one stretch of a search's best path: a word (in the phone
// search, a phone) over frames [start, end) of the utterance, with the
// acoustic and language model scores the library gives it.
type segment struct {
	word       string
	start, end int
	acoustic   int
	lm         int
}

// A room's sound fills the utterance's pauses, and in a loud room the
// pauses decide the whole utterance's fit: free phones explain the noise
// or the chatter between the words better than the words' silence does,
// and they explain English and other languages alike there. Over the
// frames of the words alone the two part again (measured on the
// 30-clip English set and nine prompts of each other voice, white noise
// and chatter 20 dB under the speech: English median -11.5, the others
// -19.6 to -23.5; over the whole utterance -7.8 and -12.6 against -13.4
// to -21.7; docs/benchmarks.md, "The language check: foreign speech in a
// loud room").
//
// The word search's path comes from its lattice, whose segments carry
// the acoustic score in 1024ths of the path's unit and the language
// model's unweighted: latticeAcoustic and latticeLM bring them to the
// path's score (on the measured prompts the segments' total came within
// a few per cent of the path's with these, and the fit needs no more).
// The phone search's segments add up to its path's score exactly.
const (
	latticeAcoustic = 1024.0
	latticeLM       = 1.5
)

// wordsFit is the words' score less the free phones', per frame, over
// the frames of words (not silence, fillers or the sentence's ends) in
// the word path; ok is false when there are none.
func wordsFit(words, phones []segment) (fit float64, ok bool) {
	n := 0
	for _, s := range phones {
		n = max(n, s.end)
	}
	free := make([]float64, n) // the phone path's score in each frame
	for _, s := range phones {
		if s.end <= s.start || s.start < 0 {
			continue
		}
		per := float64(s.acoustic+s.lm) / float64(s.end-s.start)
		for f := s.start; f < s.end; f++ {
			free[f] += per
		}
	}
	var score, phone float64
	frames := 0
	for _, s := range words {
		if !spoken(s.word) || s.end <= s.start || s.start < 0 {
			continue
		}
		score += float64(s.acoustic)/latticeAcoustic + latticeLM*float64(s.lm)
		for f := s.start; f < min(s.end, n); f++ {
			phone += free[f]
		}
		frames += s.end - s.start
	}
	if frames == 0 {
		return 0, false
	}
	return (score - phone) / float64(frames), true
}

// spoken is whether a path's entry is a word said: not <s>, </s>, <sil>
// or a filler ([NOISE], +BREATH+).
func spoken(w string) bool {
	return w != "" && !strings.HasPrefix(w, "<") && !strings.HasPrefix(w, "[") && !strings.HasPrefix(w, "+")
}
