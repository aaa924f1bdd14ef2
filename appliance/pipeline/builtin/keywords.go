package builtin

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Keyword scoring. Every word that is not a stop word or filler is a
// candidate topic; its score is its frequency, nudged up when a category
// lexicon knows it (those words are topical by construction), down when it is
// a light word ("call", "tomorrow"), and slightly up for longer, more specific
// words. Adjacent content words form two- and three-word phrases, which are
// preferred over single words when they recur, so "budget review" beats
// "budget" + "review".

const (
	lexiconBoost   = 1.3
	lightDiscount  = 0.4
	maxKeywordLen  = 24  // runes; longer "words" are URLs, hashes or noise
	phraseBonus2   = 1.6 // recurring two-word phrase
	phraseBonus3   = 1.9 // recurring three-word phrase
	phraseBonus1x  = 1.2 // a phrase heard once may be an accident of adjacency
	capsHeavyRatio = 0.3
)

// form is one lowercase spelling seen in the transcript. Everything known
// about a spelling is computed once here, so the per-token loops do no map
// lookups.
type form struct {
	lower   string
	count   int
	caps    int       // all-caps occurrences: acronyms such as API
	special string    // a spelling with inner capitals, such as iPhone
	cats    []int     // categories its lexicon entry signals
	cue     *cueEntry // its lexicon entry, nil if none
	cls     wordClass // its classes (classesOf), looked up as the form is made
	stop    bool      // English function word
	fstop   bool      // function word of another Latin-script language
	content bool      // neither function word nor filler (set once the language is known)
	keyword bool      // a content word that can name a topic
	term    *term
}

// term groups the forms that share a stem.
type term struct {
	stem  string
	count int
	first int // token index of the first occurrence
	forms []*form
	light bool
	score float64
	// verbCued: of count, the times said right after a verb cue (see
	// mostlyVerb), counted as the terms are, not by a pass over every
	// token for every title candidate.
	verbCued int
}

// analysis is the scored vocabulary of one transcript.
type analysis struct {
	doc       *document
	english   bool
	forms     map[string]*form
	formList  []*form
	tokForm   []*form // per token; nil for CJK tokens
	terms     map[string]*term
	termList  []*term
	tokTerm   []*term // per token; nil when the token is no keyword
	content   int     // content words (CJK: characters/2 added separately)
	cjkChars  int
	cjkFiller int // CJK characters that are backchannel particles
	foreign   int // tokens with non-ASCII letters (Latin scripts other than English)
	stops     int // English stop words seen
	fstops    int // foreign stop words seen
	latin     int // non-CJK tokens
	capsHeavy bool
	cands     []*candidate // title candidates, built on first use
	// The candidates' storage, kept with the analysis in the pool.
	candBuf  []*candidate
	candSlab []candidate
	phrases  map[phraseKey]*candidate
	// Where forms and terms are carved from; kept with the analysis in
	// the pool.
	formSlab slab[form]
	termSlab slab[term]
}

// analyses keeps analyses, their maps and slabs for the next transcript: a
// third of a create's allocations were an analysis made and dropped.
var analyses = sync.Pool{New: func() any { return &analysis{forms: map[string]*form{}, terms: map[string]*term{}} }}

// release returns a to the pool. Nothing may use a, or a form, term or
// candidate of it, afterwards; what callers keep (titles, categories,
// overviews) are strings, which the next analysis does not touch.
func (a *analysis) release() {
	a.doc, a.cands = nil, nil
	analyses.Put(a)
}

// reused is s with length n and every element zero, in s's storage when it
// is large enough.
func reused[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func analyze(d *document, lang string) *analysis {
	a := analyses.Get().(*analysis)
	clear(a.forms)
	clear(a.terms)
	*a = analysis{
		doc:      d,
		forms:    a.forms,
		formList: a.formList[:0],
		tokForm:  reused(a.tokForm, len(d.tokens)),
		terms:    a.terms,
		termList: a.termList[:0],
		tokTerm:  reused(a.tokTerm, len(d.tokens)),
		formSlab: a.formSlab.reset(),
		termSlab: a.termSlab.reset(),
		candBuf:  a.candBuf,
		candSlab: a.candSlab,
		phrases:  a.phrases,
	}
	// Forms and terms are carved from slabs (see slab), so the per-word
	// allocations, which dominated the profile, disappear.
	formSlab := &a.formSlab
	caps, latin := 0, 0
	for i := range d.tokens {
		t := &d.tokens[i]
		if t.cjk {
			n := utf8.RuneCountInString(t.lower)
			a.cjkChars += n
			if _, ok := cjkFillerRunes[firstRune(t.lower)]; ok && n == 1 {
				a.cjkFiller++
			}
			continue
		}
		latin++
		f := a.forms[t.lower]
		if f == nil {
			f = formSlab.new()
			c := classesOf(t.lower) // one lookup for both questions
			*f = form{lower: t.lower, cls: c, stop: c&wcStop != 0, fstop: c&wcForeignStop != 0}
			a.forms[t.lower] = f
			a.formList = append(a.formList, f)
		}
		a.tokForm[i] = f
		f.count++
		if isAllCaps(t.surface) {
			f.caps++
			caps++
		} else if f.special == "" && hasInnerCapital(t.surface) {
			f.special = t.surface
		}
		switch {
		case f.stop:
			a.stops++
		case f.fstop:
			a.fstops++
		}
		if !isASCII(t.lower) {
			a.foreign++
		}
	}
	a.latin = latin
	a.capsHeavy = latin > 0 && float64(caps) > capsHeavyRatio*float64(latin)
	a.english = isEnglish(lang, a)

	termSlab := &a.termSlab
	for _, f := range a.formList {
		f.content = !f.stop && (a.english || !f.fstop) && hasLetterOrDigit(f.lower) && !fillerOf(f.lower, f.cls)
		f.keyword = f.content && keywordOf(f.lower, f.cls)
		if a.english {
			if f.cue = categoryCue(f.lower); f.cue != nil {
				f.cats = f.cue.cats
			}
		}
		if !f.keyword {
			continue
		}
		key := f.lower
		if a.english {
			key = lexicon.Stem(key)
		}
		tm := a.terms[key]
		if tm == nil {
			tm = termSlab.new()
			*tm = term{stem: key, first: -1}
			a.terms[key] = tm
		}
		tm.forms = append(tm.forms, f)
		f.term = tm
	}
	for i, f := range a.tokForm {
		if f == nil || !f.content {
			continue
		}
		a.content++
		if tm := f.term; tm != nil {
			if tm.first < 0 {
				tm.first = i
				a.termList = append(a.termList, tm) // first-spoken order
			}
			tm.count++
			if i > 0 && a.verbCueAt(i-1) {
				tm.verbCued++
			}
			a.tokTerm[i] = tm
		}
	}
	for _, tm := range a.termList {
		tm.score = a.termScore(tm)
	}
	return a
}

// slab hands out pointers to values allocated 64 at a time. Chunks are
// never reallocated, so the pointers stay valid until reset, which hands
// the same chunks out again.
type slab[T any] struct {
	chunks [][]T
	used   int // chunks handed out from, the last one partly
}

func (s *slab[T]) new() *T {
	if s.used == 0 || len(s.chunks[s.used-1]) == cap(s.chunks[s.used-1]) {
		if s.used == len(s.chunks) {
			s.chunks = append(s.chunks, make([]T, 0, 64))
		}
		s.chunks[s.used] = s.chunks[s.used][:0]
		s.used++
	}
	c := &s.chunks[s.used-1]
	*c = (*c)[:len(*c)+1]
	var zero T
	(*c)[len(*c)-1] = zero
	return &(*c)[len(*c)-1]
}

// reset makes every value handed out free for reuse.
func (s slab[T]) reset() slab[T] {
	s.used = 0
	return s
}

// isEnglish decides between the English heuristics and the degraded,
// language-neutral ones: a non-English language tag, mostly non-ASCII words,
// mostly CJK text, or (untagged) more foreign than English function words.
func isEnglish(lang string, a *analysis) bool {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang != "" && lang != "multi" && lang != "en" && !strings.HasPrefix(lang, "en-") && !strings.HasPrefix(lang, "en_") {
		return false
	}
	words := a.latin
	if a.cjkChars/2 > words {
		return false
	}
	if words > 0 && a.foreign*2 > words {
		return false
	}
	return a.fstops < 2 || a.fstops <= a.stops
}

// quickEnglish is analyze(d, lang).english without the keyword scoring,
// for callers that only need the language decision.
func quickEnglish(d *document, lang string) bool {
	var a analysis
	for i := range d.tokens {
		t := &d.tokens[i]
		if t.cjk {
			a.cjkChars += utf8.RuneCountInString(t.lower)
			continue
		}
		a.latin++
		c := classesOf(t.lower) // one lookup for both questions
		switch {
		case c&wcStop != 0:
			a.stops++
		case c&wcForeignStop != 0:
			a.fstops++
		}
		if !isASCII(t.lower) {
			a.foreign++
		}
	}
	return isEnglish(lang, &a)
}

// verbCueAt: token i is a verb cue (verbCues), asked of the token's form,
// whose classes were looked up once.
func (a *analysis) verbCueAt(i int) bool {
	if f := a.tokForm[i]; f != nil {
		return f.cls&wcVerbCue != 0
	}
	return inSet(verbCues, a.doc.tokens[i].lower)
}

func (a *analysis) termScore(tm *term) float64 {
	n := utf8.RuneCountInString(tm.stem)
	if !a.english {
		s := float64(tm.count) * (1 + 0.1*float64(min(n, 12)))
		if n < 4 {
			s *= 0.3
		}
		return s
	}
	w := 1.0
	for _, f := range tm.forms {
		if len(f.cats) > 0 {
			w = lexiconBoost
			break
		}
	}
	for _, f := range tm.forms {
		if f.cls&wcLight != 0 {
			tm.light = true
			w = lightDiscount
			break
		}
	}
	w *= 1 + 0.04*float64(min(max(n-3, 0), 6))
	return float64(tm.count) * w
}
