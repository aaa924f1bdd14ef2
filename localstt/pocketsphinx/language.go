package pocketsphinx

import (
	"log/slog"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// The English model hears any speech as English words: French comes back
// as "club was it a couple of the bible says". It cannot say which
// language it heard, but it can say how well English explains the sound.
// Each utterance is decoded twice: as English words (the word model and
// dictionary) and as free English phones (any phone after any other).
// English speech is explained by English words nearly as well as by free
// phones; speech in another language fits the words much worse, because
// its sounds do not follow English words. The gap per 10 ms frame is
// the utterance's fit.
type utterance struct {
	words []stt.Word
	// fit is the words' best path score less the free phones', per frame
	// (the library's log units); set when checked.
	fit     float64
	checked bool
}

// Measured on recorded voices (docs/benchmarks.md, "Speech in another
// language under PocketSphinx"), forty prompts each: Allison's English
// fits at -17.6 to 2.2 (median -4.8; the few under -10 are the ones the
// model heard wrong: "do not cook or analog the conference"), at -13.0
// to -1.0 in white noise at 20 dB and -11.3 to -2.2 at 10 dB; June's French at -30.5 to -12.7
// (median -19.7), Carlo's Italian -29.1 to -15.4, the Spanish voice -21.5
// to -9.0, the Russian one -26.1 to -13.1. One utterance under sureFit is
// marked on its own; one under doubtFit only right after another under
// it in the same stream or recording: an English speaker's utterances
// that fit so badly were seen alone, never two in a row, and a speaker
// keeps to a language.
const (
	sureFit  = -20.0
	doubtFit = -13.5
)

// checkable is whether an utterance is long enough for its fit to mean
// anything: one short word fits free phones far better than any word
// sequence, whatever the language.
func checkable(frames, words int) bool { return frames >= minCheckFrames && words >= minCheckWords }

const (
	minCheckFrames = 100 // 1 s
	minCheckWords  = 3
)

// language judges a stream's or a recording's utterances in turn.
type language struct{ doubted bool } // the last judged utterance fit under doubtFit

// foreign is whether u, the next utterance, is speech in another
// language than English.
func (l *language) foreign(u utterance) bool {
	if !u.checked {
		return false
	}
	doubt := u.fit < doubtFit
	other := u.fit < sureFit || doubt && l.doubted
	l.doubted = doubt
	return other
}

// otherLanguageMarker is the text an utterance in another language
// becomes. Unlike whisper's, it cannot name the language.
const otherLanguageMarker = "[speech in another language]"

// marker is the utterance as one marker word over its span.
func (u utterance) marker() []stt.Word {
	return []stt.Word{{Text: otherLanguageMarker, Start: u.words[0].Start, End: u.words[len(u.words)-1].End}}
}

// languageLog logs the first utterance a route marks, not each one.
type languageLog struct {
	once sync.Once
	log  *slog.Logger
}

// heard is what the route gives for an utterance, judged by l: its
// words, or the marker when it was in another language.
func (r *Route) heard(u utterance, l *language) []stt.Word {
	if !l.foreign(u) || len(u.words) == 0 {
		return u.words
	}
	r.lang.once.Do(func() {
		r.lang.log.Info("speech in another language than English: marked, not transcribed; PocketSphinx hears English only (a whisper route with a multilingual model transcribes it)",
			"fit", u.fit, "words", len(u.words))
	})
	return u.marker()
}

// text is words joined by spaces.
func text(words []stt.Word) string {
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.Text
	}
	return strings.Join(texts, " ")
}
