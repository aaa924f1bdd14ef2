// Package punctuate restores sentences in the words of recognizers that
// give none: PocketSphinx and other local routes emit lowercase words with
// timings and no punctuation. Punctuate splits a batch at pauses, capitalises
// each sentence's first word and "I", and ends each sentence with a full stop
// or, when it opens like a question, a question mark. It is a small rule set
// with no model; batches that already carry punctuation or capitals (whisper,
// remote vendors) pass through unchanged.
package punctuate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// SentencePause is the shortest silence between two words of one batch, in
// seconds, that ends a sentence.
//
// A batch is one utterance of the route's VAD, which closes an utterance
// after 360 ms of silence (600 ms after a word or two said alone), so
// nearly every gap inside a batch is shorter than that.
// PocketSphinx reports a silence 0–90 ms shorter than it is (a word's end
// absorbs the release of its last sound). Measured on Festival speech
// decoded by the route (the timings recorded in pocketsphinx_test.go):
// fluent words and commas are 0–0.10 s apart; sentences joined by 200 ms of
// silence are 0.17–0.19 s apart, by 300 ms 0.25–0.30 s, by 340 ms
// 0.29–0.35 s. A threshold of 0.25 s therefore splits at silences of about
// 300 ms and more (the top of the range a batch can hold, well above
// phrase-internal pauses); 0.3 s would split almost nowhere.
const SentencePause = 0.25

// epsilon absorbs float error in timings given in hundredths of a second
// (8.64-8.39 is 0.2499999…).
const epsilon = 1e-6

// Punctuate returns words with sentence boundaries, capitalisation and final punctuation restored.
// The last word always ends a sentence (a batch of words is one utterance, ended by a pause).
//
// A sentence also ends at a pause of at least SentencePause, unless the word
// before it cannot end one ("the", "and", "of", "i'm"…): a pause there is a
// hesitation. If any word already holds punctuation other than an
// apostrophe or hyphen, or an upper-case letter, the batch was formatted by
// its route and is returned as it is. Otherwise empty and whitespace-only
// words are dropped and the rest are returned in a new slice, in order, with
// their timings and speakers unchanged; words is never modified.
func Punctuate(words []stt.Word) []stt.Word {
	if formatted(words) {
		return words
	}
	out := make([]stt.Word, 0, len(words))
	for _, w := range words {
		w.Text = strings.TrimSpace(w.Text)
		if w.Text != "" {
			out = append(out, w)
		}
	}
	start := 0
	for i := range out {
		if i == len(out)-1 || out[i+1].Start-out[i].End >= SentencePause-epsilon && canEnd(out[i].Text) && !goesOn(out[i+1:]) {
			finish(out[start : i+1])
			start = i + 1
		}
	}
	return out
}

// formatted reports whether a word carries punctuation or capitals.
func formatted(words []stt.Word) bool {
	for _, w := range words {
		for _, r := range w.Text {
			if unicode.IsUpper(r) || unicode.IsTitle(r) || unicode.IsPunct(r) && !inWord(r) {
				return true
			}
		}
	}
	return false
}

// inWord: punctuation that belongs inside words ("don't", "one-on-one").
func inWord(r rune) bool {
	switch r {
	case '\'', '’', 'ʼ', '-', '‐', '‑':
		return true
	}
	return false
}

// finish makes s one sentence: "I" capitalised, the first word too, and a
// final mark after the last.
func finish(s []stt.Word) {
	q := question(s)
	for i := range s {
		if isI(s[i].Text) {
			s[i].Text = "I" + s[i].Text[1:]
		}
	}
	s[0].Text = upperFirst(s[0].Text)
	if q {
		s[len(s)-1].Text += "?"
	} else {
		s[len(s)-1].Text += "."
	}
}

// isI: "i" and its contractions (i'm, i'll, i've, i'd).
func isI(w string) bool {
	return w == "i" || strings.HasPrefix(w, "i'") || strings.HasPrefix(w, "i’")
}

func upperFirst(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	u := unicode.ToUpper(r)
	if u == r || r == utf8.RuneError {
		return w
	}
	return string(u) + w[n:]
}

// noEnd are words a sentence cannot end with; a pause after them is a
// hesitation ("send it to the … team"). "to" is not among them: sentences
// end with it ("I'd love to"), and PocketSphinx hears "two" as "to".
var noEnd = set(`the a an my your our their its and or but nor because cause if than of
	i i'm i'll i've i'd we we're we'll we've they they're they'll you're he's she's it's
	um uh er erm`)

func canEnd(w string) bool { return !has(noEnd, norm(w)) }

// goesOn reports whether the words after a pause carry on the sentence
// before it: a preposition that opens a noun phrase ("send a report … to my
// manager", "the end … of the month") is a breath inside a sentence, not
// the start of one. Festival and people alike pause there.
func goesOn(next []stt.Word) bool {
	return len(next) >= 2 && has(carryOn, norm(next[0].Text)) && has(phraseOpeners, norm(next[1].Text))
}

var (
	carryOn       = set(`to of into onto`)
	phraseOpeners = set(`the a an my your our their his her its this that these those`)
)
