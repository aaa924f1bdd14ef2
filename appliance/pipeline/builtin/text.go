package builtin

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// maxSentenceTokens bounds a "sentence". Speech-to-text output often has no
// punctuation at all, so a whole segment can arrive as one run-on line; it is
// cut into chunks of about chunkTokens words so an extractive overview stays
// readable and bounded.
const (
	maxSentenceTokens = 40
	chunkTokens       = 28
)

// token is one word of a transcript. Han and hiragana text has no spaces
// between words, so each of its characters is a token; a katakana run is one.
type token struct {
	surface    string // as transcribed
	lower      string
	seg        int // index into document.texts
	start, end int // byte offsets in the segment text
	cjk        bool
	// joined: only whitespace separates this token from the previous one of
	// the same sentence, so the two may form a phrase.
	joined bool
	// adjacent: nothing at all separates them (CJK n-grams need this).
	adjacent bool
}

// sentence is a span of one segment and the range [first, last) of its tokens.
type sentence struct {
	text        string
	first, last int
}

// document is a transcript split into sentences and tokens, built once per
// call and shared by every heuristic.
type document struct {
	texts     []string // segment texts, apostrophes normalised
	tokens    []token
	sentences []sentence
}

var apostrophes = strings.NewReplacer("’", "'", "‘", "'", "`", "'")

// abbreviations end in a full stop that does not end a sentence.
var abbreviations = lexicon.NewSet(`mr mrs ms dr st vs etc jr sr prof inc ltd co mt approx dept fig`)

// parseSegments tokenises a transcript, segment by segment: a sentence never
// spans two segments, which may come from different speakers.
func parseSegments(segs []appliance.TranscriptSegment) *document {
	d := &document{}
	n := 0
	for _, s := range segs {
		n += len(s.Text)
	}
	d.tokens = make([]token, 0, n/5+1)
	for _, s := range segs {
		d.addText(s.Text)
	}
	return d
}

// documents keeps parsed documents' storage between creates: their tokens
// were a fifth of the bytes a create allocated, and what a create
// allocates decides how often the collector runs.
var documents = sync.Pool{New: func() any { return new(document) }}

// maxKeptTokens bounds the tokens a pooled document keeps room for, so that
// one long transcript does not hold its storage for good.
const maxKeptTokens = 1 << 14

// parseSegmentsPooled is parseSegments in a pooled document; the caller
// calls release once nothing it read from the document (other than
// strings) is used any more.
func parseSegmentsPooled(segs []appliance.TranscriptSegment) *document {
	d := documents.Get().(*document)
	n := 0
	for _, s := range segs {
		n += len(s.Text)
	}
	d.texts, d.sentences = d.texts[:0], d.sentences[:0]
	if cap(d.tokens) < n/5+1 {
		d.tokens = make([]token, 0, n/5+1)
	}
	d.tokens = d.tokens[:0]
	for _, s := range segs {
		d.addText(s.Text)
	}
	return d
}

// release returns a document from parseSegmentsPooled to the pool, its
// strings let go.
func (d *document) release() {
	if cap(d.tokens) > maxKeptTokens {
		return
	}
	clear(d.texts[:cap(d.texts)])
	clear(d.tokens[:cap(d.tokens)])
	clear(d.sentences[:cap(d.sentences)])
	documents.Put(d)
}

// addText tokenises one segment and splits it into sentences.
func (d *document) addText(s string) {
	// ’ and ‘ both start with byte 0xE2; IndexByte is far cheaper than
	// ContainsAny, which walks non-ASCII sets rune by rune.
	if strings.IndexByte(s, '`') >= 0 || strings.IndexByte(s, 0xE2) >= 0 && strings.ContainsAny(s, "’‘") {
		s = apostrophes.Replace(s)
	}
	seg := len(d.texts)
	d.texts = append(d.texts, s)
	sentStart, sentFirst := 0, len(d.tokens)
	wordStart := -1
	wordKana := false // the open word is a katakana run
	prevEnd := -1

	emit := func(start, end int, cjk bool) {
		surface := s[start:end]
		t := token{surface: surface, lower: lowerWord(surface), seg: seg, start: start, end: end, cjk: cjk}
		if prevEnd >= 0 && len(d.tokens) > sentFirst {
			t.adjacent = prevEnd == start
			t.joined = strings.TrimSpace(s[prevEnd:start]) == ""
		}
		d.tokens = append(d.tokens, t)
		prevEnd = end
	}
	closeWord := func(end int) {
		if wordStart >= 0 {
			emit(wordStart, end, wordKana)
			wordStart = -1
		}
	}
	closeSentence := func(end int) {
		d.addSentence(s, sentStart, end, sentFirst)
		sentStart, sentFirst, prevEnd = end, len(d.tokens), -1
	}

	for i := 0; i < len(s); {
		// Decode explicitly: an invalid byte is RuneError of width 1, which
		// utf8.RuneLen would misreport as 3.
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isKatakana(r):
			// Katakana runs are loanwords (プロジェクト): one token, not one
			// per character, so n-grams do not cut through them.
			if wordStart >= 0 && !wordKana {
				closeWord(i)
			}
			if wordStart < 0 {
				wordStart, wordKana = i, true
			}
		case isHanOrKana(r):
			closeWord(i)
			emit(i, i+size, true)
		case isWordRune(r):
			if wordKana {
				closeWord(i)
			}
			if wordStart < 0 {
				wordStart, wordKana = i, false
			}
		case r == '\'' && wordStart >= 0 && !wordKana && letterAt(s, i+size):
			// an apostrophe inside a word: don't, I'm, o'clock
		default:
			closeWord(i)
			if endsSentence(s, i, r, size, d.lastWordBefore(i, sentFirst)) {
				closeSentence(i + size)
			}
		}
		i += size
	}
	closeWord(len(s))
	closeSentence(len(s))
}

// lastWordBefore returns the token of the current sentence that ends exactly
// at byte i, if any, so a full stop can be checked against abbreviations.
func (d *document) lastWordBefore(i, sentFirst int) string {
	if len(d.tokens) > sentFirst {
		if t := d.tokens[len(d.tokens)-1]; t.end == i {
			return t.lower
		}
	}
	return ""
}

func endsSentence(s string, i int, r rune, size int, prevWord string) bool {
	switch r {
	case '\n', '。', '！', '？', '；':
		return true
	case '.', '!', '?', '…':
	default:
		return false
	}
	if next, _ := utf8.DecodeRuneInString(s[i+size:]); i+size < len(s) &&
		!unicode.IsSpace(next) && !strings.ContainsRune(`"')]”»`, next) && !isCJK(next) {
		return false // 3.5, e.g, file.txt
	}
	if r == '.' && prevWord != "" && (utf8.RuneCountInString(prevWord) == 1 || inSet(abbreviations, prevWord)) {
		return false // Dr. Smith, J. K. Rowling
	}
	return true
}

// addSentence records s[from:to] as a sentence holding tokens[first:], or as
// several chunks when it is a long unpunctuated run.
func (d *document) addSentence(s string, from, to, first int) {
	last := len(d.tokens)
	n := last - first
	if n == 0 {
		return
	}
	if n <= maxSentenceTokens {
		d.sentences = append(d.sentences, sentence{text: strings.TrimSpace(s[from:to]), first: first, last: last})
		return
	}
	// Cut before a discourse marker near each chunk boundary when there is
	// one, so chunks read like clauses ("… the cucumbers | and then …").
	a := first
	for a < last {
		b := min(a+chunkTokens, last)
		if last-b < chunkTokens/3 && last-a <= maxSentenceTokens {
			b = last // don't leave a stub
		} else {
			for k := b; k > a+chunkTokens/2; k-- {
				if inSet(clauseMarkers, d.tokens[k].lower) || d.opensRequest(k) {
					for k-1 > a+chunkTokens/2 && inSet(clauseMarkers, d.tokens[k-1].lower) {
						k-- // "and | then" → "| and then"
					}
					b = k
					break
				}
			}
		}
		d.tokens[a].joined, d.tokens[a].adjacent = false, false
		end := d.tokens[b-1].end
		if b == last {
			end = to
		}
		d.sentences = append(d.sentences, sentence{text: strings.TrimSpace(s[d.tokens[a].start:end]), first: a, last: b})
		a = b
	}
}

// opensRequest: tokens[k] opens a request or a commitment in unpunctuated
// speech ("can you", "please", "I'll"), a place to cut a long run.
func (d *document) opensRequest(k int) bool {
	w := d.tokens[k].lower
	if inSet(requestModals, w) {
		return k+1 < len(d.tokens) && d.tokens[k+1].lower == "you"
	}
	return w == "please" || inSet(runOnOpeners, w)
}

// clauseMarkers start a new clause in unpunctuated speech.
var clauseMarkers = lexicon.NewSet(`and but so because anyway then otherwise which also although though however`)

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) && !isCJK(r)
}

// isCJK reports Han, kana and Hangul characters, which WordCount counts
// two to a word as the reference does.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// lowerWord lowercases a token; strings.ToLower returns its input without
// allocating when nothing changes, the common case for ASR output.
// isHanOrKana: Han ideographs and hiragana, tokenised one character at a
// time because nothing marks word boundaries. Hangul is written with spaces
// and tokenises like Latin text.
func isHanOrKana(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r))
}

func isKatakana(r rune) bool {
	return r >= 0x30A0 && (r == 'ー' || unicode.Is(unicode.Katakana, r))
}

func lowerWord(w string) string {
	return strings.ToLower(w)
}

func isDigits(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

func isASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// WordCount counts words the way the reference's discard rules do, extended
// to mixed text: every whitespace-separated run holding a letter or digit is
// one word, and CJK characters (written without spaces) count two to a word.
// Runs of bare punctuation ("—", "...") are not words.
func WordCount(text string) int {
	words, cjk := wordsAndCJK(text)
	return words + cjk/2
}

// WordsOver reports whether WordCount(JoinSegments(segs)) > n without
// joining the segments, and without counting past n: the line break
// between two segments ends a word as the start of a text does not begin
// one, so the counts add up segment by segment, and they only grow.
func WordsOver(segs []appliance.TranscriptSegment, n int) bool {
	words, cjk := 0, 0
	for _, s := range segs {
		w, c := wordsAndCJK(s.Text)
		words, cjk = words+w, cjk+c
		if words+cjk/2 > n {
			return true
		}
	}
	return words+cjk/2 > n // no segments: 0 > n
}

// wordsAndCJK is WordCount's two counts: Latin-script words and CJK
// characters.
func wordsAndCJK(text string) (words, cjk int) {
	inWord, counted := false, false
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			// ASCII, most of a transcript: no CJK, and the spaces and word
			// characters of the general cases below, without decoding.
			i++
			switch c {
			case '\t', '\n', '\v', '\f', '\r', ' ':
				inWord, counted = false, false
			default:
				if !inWord {
					inWord, counted = true, false
				}
				if !counted && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
					words++
					counted = true
				}
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case isCJK(r):
			cjk++
			inWord = false // Latin text right after CJK starts a new word
		case unicode.IsSpace(r):
			inWord, counted = false, false
		default:
			if !inWord {
				inWord, counted = true, false
			}
			if !counted && isWordRune(r) {
				words++
				counted = true
			}
		}
	}
	return words, cjk
}

// JoinSegments is the transcript as one string, segments on separate lines.
func JoinSegments(segs []appliance.TranscriptSegment) string {
	switch len(segs) {
	case 0:
		return ""
	case 1:
		return segs[0].Text
	}
	n := len(segs) - 1
	for _, s := range segs {
		n += len(s.Text)
	}
	var b strings.Builder
	b.Grow(n) // one allocation, not a doubling per few segments
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Text)
	}
	return b.String()
}
