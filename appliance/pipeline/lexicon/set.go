// Package lexicon is the English the built-in extractor (appliance/pipeline)
// and the built-in embedder (appliance/pipeline/embed) share: one stemmer,
// the stop-word lists by kind, and word sets.
package lexicon

import (
	"iter"
	"sync"
	"sync/atomic"
)

// Set is a set of lower-case words, built at its first lookup. The
// extractor declares two hundred sets at package level; built as the
// program started they were 0.5 ms of every `hearth serve` before it could
// answer (GODEBUG=inittrace=1), for rules a restart may not run for hours.
// A Set declared now holds its lists, and the map is made the first time
// anything asks it, once, whichever goroutine asks first. The zero Set is
// empty.
type Set struct{ l *lazySet }

type lazySet struct {
	words atomic.Pointer[map[string]struct{}]
	mu    sync.Mutex
	build func() map[string]struct{}
}

func newLazy(build func() map[string]struct{}) Set {
	return Set{&lazySet{build: build}}
}

// words is the set's map, made now if nothing asked before.
func (s Set) words() map[string]struct{} {
	if s.l == nil {
		return nil
	}
	if m := s.l.words.Load(); m != nil {
		return *m
	}
	return s.l.make()
}

func (l *lazySet) make() map[string]struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m := l.words.Load(); m != nil {
		return *m
	}
	m := l.build()
	l.words.Store(&m)
	l.build = nil
	return m
}

// NewSet is a set of the words of whitespace-separated lists, so that the
// lists stay readable and easy to extend. The map is made at its final
// size (growing it rehashed every word several times) and the words are
// read in place rather than split into a slice.
func NewSet(lists ...string) Set {
	return newLazy(func() map[string]struct{} {
		n := 0
		for _, l := range lists {
			n += countWords(l)
		}
		s := make(map[string]struct{}, n)
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
	})
}

// Build is a set of the words fill adds, called at the set's first lookup:
// for sets made from other tables.
func Build(fill func(add func(w string))) Set {
	return newLazy(func() map[string]struct{} {
		s := map[string]struct{}{}
		fill(func(w string) { s[w] = struct{}{} })
		return s
	})
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
	_, ok := s.words()[w]
	return ok
}

// HasBytes reports whether the word spelled by b is in the set, without
// making a string of it.
func (s Set) HasBytes(b []byte) bool {
	_, ok := s.words()[string(b)]
	return ok
}

// Len is the number of words in the set.
func (s Set) Len() int { return len(s.words()) }

// All is the set's words, in no order.
func (s Set) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		for w := range s.words() {
			if !yield(w) {
				return
			}
		}
	}
}

// Union is a set of the words of all sets, made at its first lookup.
func Union(sets ...Set) Set {
	return newLazy(func() map[string]struct{} {
		n := 0
		for _, s := range sets {
			n += s.Len()
		}
		u := make(map[string]struct{}, n)
		for _, s := range sets {
			for w := range s.words() {
				u[w] = struct{}{}
			}
		}
		return u
	})
}
