package builtin

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Title candidates: single terms, phrases of two or three adjacent terms,
// and CJK n-grams, each with a score the title picker ranks by.

// candidate is a possible title topic: one term, a phrase of two or three
// adjacent terms, or a CJK n-gram.
type candidate struct {
	terms []*term // Latin-script candidates, in spoken order
	forms []*form // phrases: the spelling of their first occurrence
	cjk   string  // CJK n-gram candidates
	count int
	first int
	score float64
}

func (c *candidate) size() int {
	if c.cjk != "" {
		return 1
	}
	return len(c.terms)
}

// overlaps reports whether two candidates name the same topic, so a title
// never says "Budget Review and Budget".
func (c *candidate) overlaps(o *candidate) bool {
	if c.cjk != "" || o.cjk != "" {
		return c.cjk != "" && o.cjk != "" && (strings.Contains(c.cjk, o.cjk) || strings.Contains(o.cjk, c.cjk))
	}
	for _, t := range c.terms {
		for _, u := range o.terms {
			if t == u {
				return true
			}
		}
	}
	return false
}

// candidates returns the title candidates, building them on first use; the
// discard decision never needs them.
func (a *analysis) candidates() []*candidate {
	if a.cands == nil {
		a.buildCandidates()
	}
	return a.cands
}

// buildCandidates collects single terms, recurring phrases and CJK n-grams.
func (a *analysis) buildCandidates() {
	d := a.doc
	// The list, the single terms and the phrase map reuse the pooled
	// analysis's storage (candBuf, candSlab, phrases).
	if a.candBuf == nil || cap(a.candBuf) < len(a.termList)*3 {
		a.candBuf = make([]*candidate, 0, len(a.termList)*3)
	}
	a.cands = a.candBuf[:0]
	slab := reused(a.candSlab, len(a.termList))
	a.candSlab = slab
	for i, tm := range a.termList {
		slab[i] = candidate{terms: a.termList[i : i+1 : i+1], count: tm.count, first: tm.first, score: tm.score}
		a.cands = append(a.cands, &slab[i])
	}
	if a.phrases == nil {
		a.phrases = make(map[phraseKey]*candidate, len(a.termList))
	}
	phrases := a.phrases
	clear(phrases)
	var cjk map[string]*candidate
	for _, s := range d.sentences {
		for j := s.first; j < s.last; j++ {
			t := &d.tokens[j]
			if t.cjk {
				if cjk == nil {
					cjk = make(map[string]*candidate)
				}
				a.addCJKGrams(cjk, j, s.last)
				continue
			}
			if !a.english || a.tokTerm[j] == nil || a.tokTerm[j].light {
				continue
			}
			for n := 2; n <= 3 && j+n <= s.last; n++ {
				a.addPhrase(phrases, j, n)
			}
		}
	}
	a.cands = appendSorted(a.cands, phrases)
	a.cands = appendSorted(a.cands, cjk)
	a.candBuf = a.cands[:0]
}

// phraseKey identifies a phrase by its terms; pointers hash faster than a
// joined string and need no allocation.
type phraseKey [3]*term

// addPhrase records tokens[j:j+n] when they are adjacent, distinct,
// non-light-edged keywords that look like a noun phrase.
func (a *analysis) addPhrase(m map[phraseKey]*candidate, j, n int) {
	var key phraseKey
	sum := 0.0
	for k := j; k < j+n; k++ {
		tm := a.tokTerm[k]
		if tm == nil || (k > j && !a.doc.tokens[k].joined) || containsTerm(key[:k-j], tm) {
			return
		}
		if !phraseShape(a.doc.tokens[k].lower, k-j, n) {
			return
		}
		key[k-j] = tm
		sum += tm.score
	}
	if key[n-1].light {
		return
	}
	c := m[key]
	if c == nil {
		forms := make([]*form, n)
		for k := range n {
			forms[k] = a.tokForm[j+k]
		}
		c = &candidate{terms: append([]*term(nil), key[:n]...), forms: forms, first: j}
		m[key] = c
	}
	c.count++
	bonus := phraseBonus1x
	switch {
	case c.count > 1 && n == 2:
		bonus = phraseBonus2
	case c.count > 1:
		bonus = phraseBonus3
	case n == 3:
		bonus = 0 // a three-word phrase heard once only ever extends a bigram
	}
	c.score = float64(c.count) * sum / float64(n) * bonus
}

// phraseShape is a part-of-speech guess from suffixes alone: a past-tense
// or adverb form ("revised", "quarterly") may open a noun phrase but not
// continue it ("contractor breached"), and a plural or possessive noun ends
// it ("investors liked", "author's writing").
func phraseShape(w string, pos, n int) bool {
	if pos > 0 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ly")) {
		return false
	}
	if pos < n-1 && (strings.HasSuffix(w, "'s") || lexicon.Stem(w) != w && strings.HasSuffix(w, "s")) {
		return false
	}
	return true
}

// addCJKGrams records the 2-, 3- and 4-character n-grams starting at token
// j, skipping those that begin or end with a particle or backchannel.
func (a *analysis) addCJKGrams(m map[string]*candidate, j, last int) {
	d := a.doc
	start := d.tokens[j]
	if k := utf8.RuneCountInString(start.lower); k > 1 {
		// a katakana word is a candidate by itself
		if k <= maxCJKGram*2 {
			a.addCJK(m, start.lower, j, k, true)
		}
		return
	}
	if isCJKFunction(start.lower) {
		return
	}
	for n := 2; n <= maxCJKGram && j+n <= last; n++ {
		end := d.tokens[j+n-1]
		if !end.cjk || !end.adjacent || end.seg != start.seg || utf8.RuneCountInString(end.lower) > 1 {
			return
		}
		if isCJKFunction(end.lower) {
			continue
		}
		a.addCJK(m, d.texts[start.seg][start.start:end.end], j, n, false)
	}
}

// maxCJKGram is the longest CJK n-gram considered, in characters.
const maxCJKGram = 4

// addCJK counts one CJK candidate of n characters. A recurring n-gram is
// likely a word, and the longer the better; one heard once is as likely to
// straddle two words, and the shorter the likelier it is one (most Chinese
// words have two characters). Katakana runs are whole words either way.
func (a *analysis) addCJK(m map[string]*candidate, key string, j, n int, word bool) {
	c := m[key]
	if c == nil {
		c = &candidate{cjk: key, first: j}
		m[key] = c
	}
	c.count++
	n = min(n, maxCJKGram)
	switch {
	case word || c.count > 1:
		c.score = float64(c.count) * float64(n) * 0.5
		if c.count > 1 {
			c.score *= 1.5
		}
	default:
		c.score = 1.1 - 0.1*float64(n)
	}
}

func isCJKFunction(ch string) bool {
	r := firstRune(ch)
	_, f := cjkFunctionRunes[r]
	_, g := cjkFillerRunes[r]
	return f || g
}

// appendSorted appends map values in first-occurrence order, so ties between
// candidates resolve the same way on every run (map order is random).
func appendSorted[K comparable](dst []*candidate, m map[K]*candidate) []*candidate {
	start := len(dst)
	for _, c := range m {
		dst = append(dst, c)
	}
	tail := dst[start:]
	sortCandidates(tail)
	return dst
}

func sortCandidates(cs []*candidate) {
	slices.SortFunc(cs, func(x, y *candidate) int {
		if c := cmp.Compare(x.first, y.first); c != 0 {
			return c
		}
		if c := cmp.Compare(len(x.terms), len(y.terms)); c != 0 {
			return c
		}
		return cmp.Compare(len(x.cjk), len(y.cjk))
	})
}
