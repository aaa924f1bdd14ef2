package pocketsphinx

import (
	"log/slog"
	"math"
	"slices"
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
	fit float64
	// overRoom is how far the utterance's speech stands above the sound
	// at its edges, in dB (see overRoom); set when checked.
	overRoom float64
	// edgesSilent is the share of its edges the free phones hear as
	// silence (see edgesSilent); set when checked.
	edgesSilent float64
	checked     bool
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

// A room's own sound pulls an English utterance's fit down with it: the
// free phones explain the noise under the words better than the words'
// silence does. White noise 20 dB under the speech took Allison's median
// from -4.8 to -7.6; a room's chatter in other languages (four voices 20
// or 10 dB under English speakers) took single utterances to -23.0, and
// two in a row to -22.2 and -20.0, where the quiet room's lines marked 5
// of 17 and 10 of 17. So an utterance whose speech stands less than
// loudRoom over the sound at its edges is judged against other lines. A quiet
// room's English stands 36 dB or more over its edges (a test recording's
// own hiss), the asterisk voices' other languages 62 dB or more.
//
// Noise or chatter 20 dB under the speech (21 to 35 dB over the room) is
// told apart by the free phones at the utterance's edges (see
// edgesSilent), and each has its lines. Louder still (less than deafRoom
// over it: 10 dB under the speech stands 7 to 19 dB over its room)
// English fits as badly as the other languages in both: lines no English
// utterance meets, which mark next to nothing (docs/benchmarks.md, "The
// language check in a room's chatter" and "The language check: foreign
// speech in a loud room").
const (
	loudRoom = 35.0 // dB
	deafRoom = 21.0 // dB
	// steadyRoom is the share of silent edges over which a loud room is
	// a steady noise, not chatter.
	steadyRoom = 0.7
)

// lines are the fits an utterance is judged against. One under sure is
// marked on its own; one under doubt when the utterance before it was
// under that one's before line; one under after when the utterance before
// it was marked (a speaker keeps to a language).
type lines struct{ sure, doubt, before, after float64 }

// The lines by room. The loud rooms' were measured on the 30-clip English
// set (clean, white noise and chatter 20 and 10 dB under it, -45 dBFS),
// the ten-clip one of TestEnglishInARoomsChatterIsNotMarked, and nine
// prompts of each other voice with white noise and chatter 20 dB under
// them, each stream judged in its order and in 200 shuffled orders (the
// ten-clip one in 60): no English utterance was marked, nor any English
// one right after a foreign speaker's. In white noise English stays
// above -15 and the steady noise's lines mark 4 to 7 of 9 a voice. In
// chatter English fits down to -25.4, and -25.4 then -19.6 in a row, so
// lines that caught most Italian there (-26, and -20 after -19) would
// have left English half a point of room, on one English voice: the
// chatter keeps the louder room's lines, which leave it two and more.
// Foreign speech in chatter is then marked only when it fits very badly.
var (
	quietLines   = lines{sure: sureFit, doubt: doubtFit, before: doubtFit, after: doubtFit}
	steadyLines  = lines{sure: -20, doubt: -12, before: -15, after: -12}
	deafLines    = lines{sure: -28, doubt: -22, before: -22, after: -22}
	chatterLines = deafLines
)

// lines are the lines u is judged against, by how far it stands over
// its room and what the room is.
func (u utterance) lines() lines {
	switch {
	case u.overRoom >= loudRoom:
		return quietLines
	case u.overRoom < deafRoom:
		return deafLines
	case u.edgesSilent >= steadyRoom:
		return steadyLines
	}
	return chatterLines
}

// overRoom is how far, in dB, an utterance's speech (its 90th
// percentile 20 ms frame) stands above the sound at its edges: the lower
// of the median frame levels of its first and last 200 ms, the pause the
// VAD keeps before and after the words. In a quiet room that is silence
// or a recording's hiss; in a loud one, the room. (Not the quietest
// frames of the whole utterance: a Spanish prompt said in one breath for
// 15 s has no pause inside, and its quietest tenth was speech.)
func overRoom(pcm []int16) float64 {
	levels := frameLevels(pcm)
	if len(levels) == 0 {
		return 0
	}
	edge := min(len(pcm)/2, edgeSamples)
	room := min(median(frameLevels(pcm[:edge])), median(frameLevels(pcm[len(pcm)-edge:])))
	slices.Sort(levels)
	return levels[len(levels)*9/10] - room
}

const (
	levelFrame  = 320  // 20 ms
	edgeSamples = 3200 // 200 ms
)

// frameLevels is the level of each whole 20 ms frame of pcm, in dB over
// one unit of sample power (0 for digital silence).
func frameLevels(pcm []int16) []float64 {
	var out []float64
	for off := 0; off+levelFrame <= len(pcm); off += levelFrame {
		var e float64
		for _, s := range pcm[off : off+levelFrame] {
			e += float64(s) * float64(s)
		}
		out = append(out, 10*math.Log10(e/levelFrame+1))
	}
	return out
}

// median of levels (sorts them); 0 when there are none.
func median(levels []float64) float64 {
	if len(levels) == 0 {
		return 0
	}
	slices.Sort(levels)
	return levels[len(levels)/2]
}

// checkable is whether an utterance is long enough for its fit to mean
// anything: one short word fits free phones far better than any word
// sequence, whatever the language.
func checkable(frames, words int) bool { return frames >= minCheckFrames && words >= minCheckWords }

const (
	minCheckFrames = 100 // 1 s
	minCheckWords  = 3
)

// language judges a stream's or a recording's utterances in turn.
type language struct {
	before bool // the last judged utterance fit under its before line
	marked bool // the last judged utterance was marked
}

// foreign is whether u, the next utterance, is speech in another
// language than English.
func (l *language) foreign(u utterance) bool {
	if !u.checked {
		return false
	}
	j := u.lines()
	other := u.fit < j.sure || u.fit < j.doubt && l.before || u.fit < j.after && l.marked
	l.before, l.marked = u.fit < j.before, other
	return other
}

// otherLanguageMarker is the text an utterance in another language
// becomes. Unlike whisper's, it cannot name the language.
const otherLanguageMarker = stt.OtherLanguage + "]"

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
