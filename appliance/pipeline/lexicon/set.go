// Package lexicon is the English the built-in extractor (appliance/pipeline)
// and the built-in embedder (appliance/pipeline/embed) share: one stemmer,
// the stop-word lists by kind, and word sets.
package lexicon

// Set is a set of lower-case words.
type Set map[string]struct{}

// NewSet builds a set from whitespace-separated lists, so that the lists
// stay readable and easy to extend. The extractor's two hundred sets are
// built as the program starts, before `hearth serve` can answer: the map
// is made at its final size (growing it rehashed every word several
// times) and the words are read in place rather than split into a slice,
// which took the extractor's package init from 0.49 to 0.36 ms (least of
// 15 runs under GODEBUG=inittrace=1).
func NewSet(lists ...string) Set {
	n := 0
	for _, l := range lists {
		n += countWords(l)
	}
	s := make(Set, n)
	for _, l := range lists {
		for l != "" {
			var w string
			w, l = nextWord(l)
			if w != "" {
				s[w] = struct{}{}
			}
		}
	}
	return s
}

// countWords counts the whitespace-separated words in l.
func countWords(l string) int {
	n := 0
	for l != "" {
		var w string
		w, l = nextWord(l)
		if w != "" {
			n++
		}
	}
	return n
}

// nextWord returns l's first word (ASCII whitespace-separated; "" when l is
// only space) and what follows it.
func nextWord(l string) (word, rest string) {
	i := 0
	for i < len(l) && isSpace(l[i]) {
		i++
	}
	j := i
	for j < len(l) && !isSpace(l[j]) {
		j++
	}
	return l[i:j], l[j:]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// Has reports whether w is in the set.
func (s Set) Has(w string) bool {
	_, ok := s[w]
	return ok
}

// Union is a new set of the words of all sets.
func Union(sets ...Set) Set {
	n := 0
	for _, s := range sets {
		n += len(s)
	}
	u := make(Set, n)
	for _, s := range sets {
		for w := range s {
			u[w] = struct{}{}
		}
	}
	return u
}
