package embed

import (
	"math"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Feature weights. They are relative: the vector is normalised at the end.
const (
	// bigramScale weighs a word pair against its words. Pairs add phrase
	// precision, but a paraphrase rarely keeps them, so they stay minor.
	bigramScale = 0.4
	// gramScale is the norm of one word's character n-grams relative to
	// the word itself: enough for "restaurnat" to find "restaurant" and
	// "budgets" to lean on "budget", not so much that words sharing a few
	// letters look alike.
	gramScale = 0.8
	// numberWeight is fixed: a number is specific, but often incidental
	// (times, counts) rather than what a text is about.
	numberWeight = 0.5
	// symbolWeight is for emoji and other pictographs.
	symbolWeight = 0.5
	// CJK character weights. Hiragana mostly writes particles and
	// inflections, so it weighs little; a Han or Katakana character carries
	// meaning, and a character pair usually spells a whole word.
	cjkKanaWeight   = 0.25
	cjkCharWeight   = 0.6
	cjkBigramWeight = 1.0
)

// maxGramRunes bounds the characters of a word that yield n-grams.
const maxGramRunes = 24

// feature is one weighted occurrence of a hashed feature.
type feature struct {
	h uint64
	w float64
}

// scratch is the per-call working memory, pooled so that embedding does not
// allocate maps or large slices each time.
type scratch struct {
	text  []byte // lower-cased tokens, back to back
	toks  []token
	stems []byte
	offs  []int32
	feats []feature
	table []int32 // project's hash table: 1 + index into uniq, 0 for empty
	uniq  []merged
	acc   []float64
}

func (s *scratch) reset(dims int) {
	s.text, s.toks, s.stems, s.offs, s.feats = s.text[:0], s.toks[:0], s.stems[:0], s.offs[:0], s.feats[:0]
	if cap(s.acc) < dims {
		s.acc = make([]float64, dims)
	}
	s.acc = s.acc[:dims]
	clear(s.acc)
}

func (s *scratch) add(h hasher, w float64) {
	s.feats = append(s.feats, feature{h: uint64(h), w: w})
}

// extract turns s.toks into s.feats. Stop words are left out unless the text
// has nothing else, so a stop-word-only text still gets a vector of its own.
// Bigrams join consecutive content words, skipping stop words ("budget for
// the quarter" pairs "budget" with "quarter") but not sentence breaks.
func (s *scratch) extract() {
	content := 0
	for i := range s.toks {
		t := &s.toks[i]
		if t.kind == tokWord {
			t.stop = stopWords.HasBytes(s.text[t.start:t.end])
		}
		if !t.stop {
			content++
		}
	}
	useStops := content == 0
	concept := conceptScale
	if content == 1 {
		concept = loneWordConceptScale
	}
	prev, prevEnd, prevW := -1, 0, 0.0 // previous word's stem in s.stems
	for _, t := range s.toks {
		if t.stop && !useStops {
			continue
		}
		if t.brk {
			prev = -1
		}
		w := s.text[t.start:t.end]
		switch t.kind {
		case tokWord, tokNumber:
			st0 := len(s.stems)
			weight := numberWeight
			if t.kind == tokWord {
				s.stems = lexicon.AppendStem(s.stems, w)
				weight = idfOf(s.stems[st0:])
				s.grams(w, gramScale*weight)
				s.concepts(s.stems[st0:], concept*weight)
			} else {
				s.stems = append(s.stems, w...)
			}
			st := s.stems[st0:]
			s.add(newHasher(kindWord).bytes(st), weight)
			if prev >= 0 {
				h := newHasher(kindBigram).bytes(s.stems[prev:prevEnd]).byte(' ').bytes(st)
				s.add(h, bigramScale*math.Sqrt(prevW*weight))
			}
			prev, prevEnd, prevW = st0, len(s.stems), weight
		case tokCJK:
			s.cjk(w)
			prev = -1
		case tokSymbol:
			s.add(newHasher(kindSymbol).bytes(w), symbolWeight)
			prev = -1
		}
	}
}

// grams adds the character 3- and 4-grams of word w padded with boundary
// markers ("<budget>" gives "<bu", "bud", …, "et>", "<bud", …), whose
// weights share total so that a long word gets no more say than a short one.
func (s *scratch) grams(w []byte, total float64) {
	offs := s.offs[:0]
	for i := 0; i < len(w) && len(offs) < maxGramRunes; {
		offs = append(offs, int32(i))
		_, n := utf8.DecodeRune(w[i:])
		i += n
	}
	m := len(offs)
	end := int32(len(w))
	if m == maxGramRunes && int(offs[m-1]) < len(w) {
		// Truncated: the last kept rune ends where the next would start.
		_, n := utf8.DecodeRune(w[offs[m-1]:])
		end = offs[m-1] + int32(n)
	}
	offs = append(offs, end)
	s.offs = offs
	count := m + max(m-1, 0) // m 3-grams and m-1 4-grams over m+2 padded positions
	if count == 0 {
		return
	}
	each := total / math.Sqrt(float64(count))
	// Padded position p is '<' at 0, '>' at m+1, rune p-1 otherwise.
	for _, g := range [2]int{3, 4} {
		for p := 0; p+g <= m+2; p++ {
			h := newHasher(kindGram)
			for q := p; q < p+g; q++ {
				switch q {
				case 0:
					h = h.byte('<')
				case m + 1:
					h = h.byte('>')
				default:
					h = h.bytes(w[offs[q-1]:offs[q]])
				}
			}
			s.add(h, each)
		}
	}
}

// cjk adds the characters of a Han/Kana run and their adjacent pairs.
func (s *scratch) cjk(run []byte) {
	prev := -1
	for i := 0; i < len(run); {
		r, n := utf8.DecodeRune(run[i:])
		weight := cjkCharWeight
		if r >= 0x3040 && r <= 0x309F { // Hiragana block
			weight = cjkKanaWeight
		}
		s.add(newHasher(kindCJK).bytes(run[i:i+n]), weight)
		if prev >= 0 {
			s.add(newHasher(kindCJK).bytes(run[prev:i+n]), cjkBigramWeight)
		}
		prev = i
		i += n
	}
}

// stopWords are left out of a text's features unless it has nothing else,
// so "what is it" and "where are they" stay distinct.
var stopWords = lexicon.EmbedderStopWords
