package builtin

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word classes: small predicates over one lowercase word, shared by the
// keyword scorer, the discard rules and the title builder.

// isContentWord: a word that is neither function word nor filler.
func isContentWord(lower string, english bool) bool {
	if !hasLetterOrDigit(lower) || isFiller(lower) || inSet(stopWords, lower) {
		return false
	}
	return english || !inSet(foreignStopWords, lower)
}

// keywordOf says whether a word whose classes are c is a content word
// that can name a topic.
func keywordOf(lower string, c wordClass) bool {
	if isDigits(lower) || c&wcKeywordStop != 0 {
		return false
	}
	n := utf8.RuneCountInString(lower)
	return n >= 2 && n <= maxKeywordLen && hasLetter(lower)
}

// isFiller recognises filler words, including elongated ones ("hmmmm",
// "ummm", "hahaha") that no list can enumerate.
func isFiller(w string) bool {
	if inSet(fillerWords, w) || inSet(multilingualFillers, w) {
		return true
	}
	return isElongatedFiller(w)
}

// fillerOf is isFiller of a word whose classes are c.
func fillerOf(w string, c wordClass) bool {
	return c&wcFiller != 0 || isElongatedFiller(w)
}

// onlyInterjectionLetters: every byte of w is one of "mhuaoer" (what
// strings.Trim(w, "mhuaoer") == "" says, without building its set per
// call, which was most of a filler check).
func onlyInterjectionLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case 'm', 'h', 'u', 'a', 'o', 'e', 'r':
		default:
			return false
		}
	}
	return true
}

func isElongatedFiller(w string) bool {
	if len(w) < 2 || !onlyInterjectionLetters(w) {
		return false // cheap reject: not made of interjection letters
	}
	// collapse repeated letters: hmmmm → hm, uhhh → uh, mhmm → mhm
	var buf [16]byte
	n := 0
	for i := 0; i < len(w); i++ {
		if n > 0 && buf[n-1] == w[i] {
			continue
		}
		if n == len(buf) {
			return false
		}
		buf[n] = w[i]
		n++
	}
	c := string(buf[:n])
	switch c {
	case "m", "hm", "mh", "mhm", "uh", "um", "ah", "oh", "eh", "er":
		return true
	}
	// laughter: hahaha, hehehe, hah
	for _, laugh := range []string{"ha", "he"} {
		if r := strings.ReplaceAll(c, laugh, ""); r == "" || r == "h" {
			return true
		}
	}
	return false
}

func containsTerm(ts []*term, t *term) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func hasLetterOrDigit(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func hasLetter(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isAllCaps: two or more letters, every letter upper case (API, NASA).
func isAllCaps(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters >= 2
}

// hasInnerCapital: an upper-case letter after a lower-case one (iPhone, McKinsey).
func hasInnerCapital(s string) bool {
	lower := false
	for _, r := range s {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r) && lower:
			return true
		}
	}
	return false
}
