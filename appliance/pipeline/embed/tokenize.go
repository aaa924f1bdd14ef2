package embed

import (
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tokWord   tokKind = iota // letters, possibly with digits ("covid19")
	tokNumber                // digits only
	tokCJK                   // a run of Han, Hiragana or Katakana characters
	tokSymbol                // one emoji or other pictographic symbol
)

// token is a span of scratch.text.
type token struct {
	start, end int32
	kind       tokKind
	brk        bool // a sentence boundary precedes it, so no bigram spans it
	stop       bool
}

// maxWordBytes truncates absurdly long "words" (hashes, base64 blobs, a
// key held down) so their n-grams cannot dominate the cost or the vector.
const maxWordBytes = 64

// tokenize lower-cases text into s.text and splits it into s.toks. Words are
// runs of letters, digits and combining marks; punctuation separates them.
// Apostrophes join "n't" contractions ("don't" → "dont") and split the rest
// ("I'll" → "i", "ll"; "daughter's" → "daughter", "s"), so both halves can
// be stop words. Han and Kana form separate runs because those scripts do
// not put spaces between words. Invalid UTF-8 counts as a separator.
func (s *scratch) tokenize(text string) {
	cur := -1 // index in s.toks of the open token, or -1
	brk := false
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size

		var kind tokKind
		switch {
		case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'):
			kind = tokWord
		case '0' <= r && r <= '9':
			kind = tokNumber
		case r < utf8.RuneSelf:
			if r == '\'' && cur >= 0 && s.toks[cur].kind != tokCJK {
				if joinApostrophe(text[i:]) {
					continue
				}
			}
			cur = s.close(cur)
			brk = brk || isBreak(r)
			continue
		case r == utf8.RuneError && size == 1:
			cur = s.close(cur)
			continue
		case isCJK(r):
			kind = tokCJK
		case unicode.IsLetter(r):
			kind = tokWord
		case unicode.IsDigit(r):
			kind = tokNumber
		case unicode.IsMark(r):
			// A combining accent belongs to the word it follows; alone it
			// is noise.
			if cur >= 0 && s.toks[cur].kind != tokSymbol {
				s.appendRune(cur, r)
			}
			continue
		case r == '’' || r == 'ʼ':
			if cur >= 0 && s.toks[cur].kind != tokCJK && joinApostrophe(text[i:]) {
				continue
			}
			cur = s.close(cur)
			continue
		case unicode.Is(unicode.So, r):
			s.close(cur)
			cur = s.open(tokSymbol, brk)
			brk = false
			s.appendRune(cur, r)
			cur = s.close(cur)
			continue
		default:
			cur = s.close(cur)
			brk = brk || isBreak(r)
			continue
		}

		if cur >= 0 {
			t := &s.toks[cur]
			switch {
			case t.kind == kind:
			case t.kind == tokNumber && kind == tokWord:
				t.kind = tokWord // "3pm", "4k"
			case t.kind == tokWord && kind == tokNumber:
			default:
				cur = s.close(cur) // a script change ends the word
			}
		}
		if cur < 0 {
			cur = s.open(kind, brk)
			brk = false
		}
		s.appendRune(cur, r)
	}
	s.close(cur)
}

func (s *scratch) open(kind tokKind, brk bool) int {
	n := int32(len(s.text))
	s.toks = append(s.toks, token{start: n, end: n, kind: kind, brk: brk})
	return len(s.toks) - 1
}

// close ends the open token, if any, and returns -1 (no open token).
func (s *scratch) close(cur int) int {
	if cur >= 0 {
		s.toks[cur].end = int32(len(s.text))
	}
	return -1
}

// appendRune adds r, lower-cased, to the open token cur (always the last).
func (s *scratch) appendRune(cur int, r rune) {
	t := &s.toks[cur]
	if t.kind != tokCJK && len(s.text)-int(t.start) >= maxWordBytes {
		return
	}
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		s.text = append(s.text, byte(r))
		return
	}
	s.text = utf8.AppendRune(s.text, unicode.ToLower(r))
}

// joinApostrophe reports whether an apostrophe followed by rest is the one in
// a "n't" contraction, which is kept whole ("dont", "wont", "isnt").
func joinApostrophe(rest string) bool {
	if len(rest) == 0 || rest[0] != 't' && rest[0] != 'T' {
		return false
	}
	if len(rest) == 1 {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest[1:])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// isBreak reports whether r ends a sentence or clause; bigrams do not span it.
func isBreak(r rune) bool {
	switch r {
	case '.', '!', '?', ';', ':', '\n', '。', '！', '？', '；', '：', '…':
		return true
	}
	return false
}

// isCJK reports whether r belongs to a script written without spaces
// between words (Chinese and Japanese), where words cannot be found by
// splitting and character n-grams stand in for them. Hangul is spaced and is
// tokenised as words.
func isCJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || r == 'ー' || r == '々'
}
