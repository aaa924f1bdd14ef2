package builtin

import (
	"strings"
	"testing"
)

// TestWordClassesAgreeWithSets: a word's class bits say exactly what
// looking it up in each class's set says, for every word of every set and
// for words in none, whether the word was split off a sentence or made up
// by a rule (no bits yet) or rewritten by one (bits reset).
func TestWordClassesAgreeWithSets(t *testing.T) {
	words := []string{"", "zzz", "3:30", "Tuesday", "tuesday", "the", "I'm", "and"}
	for _, e := range classSets {
		for w := range e.set.All() {
			words = append(words, w)
		}
	}
	for _, w := range words {
		split := splitWords(w)
		made := cword{text: w, lower: w}
		rewritten := cword{text: "x", lower: "x", cls: classesOf("x")}
		rewritten.lower, rewritten.cls = w, 0
		for _, e := range classSets {
			want := inSet(e.set, w)
			if got := classesOf(w)&e.class != 0; got != want {
				t.Errorf("classesOf(%q) has class %d: %v, the set says %v", w, e.class, got, want)
			}
			if got := made.is(e.class); got != want {
				t.Errorf("made-up word %q is class %d: %v, the set says %v", w, e.class, got, want)
			}
			if got := rewritten.is(e.class); got != want {
				t.Errorf("rewritten word %q is class %d: %v, the set says %v", w, e.class, got, want)
			}
			for _, cw := range split {
				if got, want := cw.is(e.class), inSet(e.set, cw.lower); got != want {
					t.Errorf("split word %q is class %d: %v, the set says %v", cw.lower, e.class, got, want)
				}
			}
		}
	}
}

// TestWordClassBitsDistinct: every class has its own bit.
func TestWordClassBitsDistinct(t *testing.T) {
	var seen wordClass
	for _, e := range classSets {
		if e.class&(e.class-1) != 0 || e.class&seen != 0 || e.class == wcKnown {
			t.Errorf("class bit %b is not its own", e.class)
		}
		seen |= e.class
	}
}

// TestInterjectionLettersAsTrim: the filler check's letter test says what
// strings.Trim said, for ASCII, accented and empty words alike.
func TestInterjectionLettersAsTrim(t *testing.T) {
	for _, w := range []string{"", "h", "hmmm", "uhhh", "mhm", "ahem", "her", "home", "hmm!", "öh", "éh", "hmé", "ummmmmmmmmmmmmmmmmmmmmmmm", "HMM", "rum", "mom"} {
		if got, want := onlyInterjectionLetters(w), strings.Trim(w, "mhuaoer") == ""; got != want {
			t.Errorf("onlyInterjectionLetters(%q) = %v, strings.Trim says %v", w, got, want)
		}
	}
}
