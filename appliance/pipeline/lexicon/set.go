// Package lexicon is the English the built-in extractor (appliance/pipeline)
// and the built-in embedder (appliance/pipeline/embed) share: one stemmer,
// the stop-word lists by kind, and word sets.
package lexicon

import "strings"

// Set is a set of lower-case words.
type Set map[string]struct{}

// NewSet builds a set from whitespace-separated lists, so that the lists
// stay readable and easy to extend.
func NewSet(lists ...string) Set {
	s := make(Set)
	for _, l := range lists {
		for _, w := range strings.Fields(l) {
			s[w] = struct{}{}
		}
	}
	return s
}

// Has reports whether w is in the set.
func (s Set) Has(w string) bool {
	_, ok := s[w]
	return ok
}

// Union is a new set of the words of all sets.
func Union(sets ...Set) Set {
	u := make(Set)
	for _, s := range sets {
		for w := range s {
			u[w] = struct{}{}
		}
	}
	return u
}
