package builtin

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Overview rules: an extractive summary of the main points, the 1–3
// sentences that cover the most salient keywords, in spoken order, bounded
// so it reads like the reference's short overview rather than a transcript.
const (
	maxOverviewRunes   = 400
	overviewKeywords   = 10
	shortSentenceWords = 6 // sentences shorter than this score proportionally less
	questionWeight     = 0.5
	// coveredWeight is what a keyword already in the overview still counts
	// for: the main topic said again matters more than small talk.
	coveredWeight = 0.5
)

// isQuestion: the sentence ends with a question mark, or (unpunctuated)
// opens with an auxiliary or a question word followed by a subject.
func (a *analysis) isQuestion(s sentence) bool {
	t := strings.TrimSpace(s.text)
	if strings.HasSuffix(t, "?") {
		return true
	}
	if strings.ContainsAny(t, ".!") {
		return false
	}
	fs := strings.Fields(strings.ToLower(t))
	return len(fs) > 1 && (inSet(questionOpeners, fs[0]) && inSet(subjectPronouns, fs[1]) || inSet(questionContractions, fs[0]))
}

// questionContractions open a question whatever follows: "how's your wrist".
var questionContractions = lexicon.NewSet(`how's what's where's who's when's why's`)

// questionOpeners start an unpunctuated question: "can you …", "how have you …".
var questionOpeners = lexicon.NewSet(`can could will would do does did is are was were have has should shall
	how what when where why who which`)

// overview returns the summary; it is non-empty whenever any sentence holds
// a content word.
func (a *analysis) overview() string {
	if len(a.doc.sentences) == 0 {
		return ""
	}
	if !a.english {
		return a.leadOverview()
	}
	top := a.topTerms(overviewKeywords)
	// Each sentence holds some of the top keywords; the overview takes,
	// one at a time, the sentence that adds the most keyword weight, a
	// keyword already covered counting for less, so its sentences summarise
	// different parts of the conversation rather than say the main point
	// three times.
	type cand struct {
		idx    int
		terms  []*term
		weight float64
	}
	cands := make([]cand, 0, len(a.doc.sentences))
	for i, s := range a.doc.sentences {
		var terms []*term
		for j := s.first; j < s.last; j++ {
			if tm := a.tokTerm[j]; tm != nil && !containsTerm(terms, tm) && containsTerm(top, tm) {
				terms = append(terms, tm)
			}
		}
		if len(terms) == 0 {
			continue
		}
		w := 1.0
		if n := s.last - s.first; n < shortSentenceWords {
			w = float64(n) / shortSentenceWords
		}
		if a.isQuestion(s) {
			// a summary states what was said; a question is kept only when
			// it says more than the statements around it
			w *= questionWeight
		}
		cands = append(cands, cand{i, terms, w})
	}
	if len(cands) == 0 {
		return a.leadOverview()
	}
	want := 3
	switch n := len(a.doc.sentences); {
	case n <= 2:
		want = 1
	case n <= 5:
		want = 2
	}
	picked := make([]int, 0, want)
	texts := make([]string, 0, want)
	var covered []*term
	used := make([]bool, len(cands))
	for len(picked) < want {
		best, bestScore := -1, 0.0
		for k, c := range cands {
			if used[k] {
				continue
			}
			score := 0.0
			for _, tm := range c.terms {
				if containsTerm(covered, tm) {
					score += coveredWeight * tm.score
				} else {
					score += tm.score
				}
			}
			if score *= c.weight; score > bestScore {
				best, bestScore = k, score
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		t := cleanSentence(a.doc.sentences[cands[best].idx].text)
		if t == "" || slices.ContainsFunc(texts, func(s string) bool { return strings.EqualFold(s, t) }) {
			continue
		}
		picked = append(picked, cands[best].idx)
		texts = append(texts, t)
		covered = append(covered, cands[best].terms...)
	}
	slices.Sort(picked)
	out := make([]string, 0, len(picked))
	for _, i := range picked {
		t := cleanSentence(a.doc.sentences[i].text)
		if a.isQuestion(a.doc.sentences[i]) && strings.HasSuffix(t, ".") {
			t = strings.TrimSuffix(t, ".") + "?" // a question a recognizer gave without its mark
		}
		out = append(out, t)
	}
	return joinBounded(out)
}

// leadOverview is the degraded summary for languages without lexicons: the
// first sentences that say something, up to three.
func (a *analysis) leadOverview() string {
	var out []string
	for _, s := range a.doc.sentences {
		if len(out) == 3 {
			break
		}
		if !a.sentenceHasContent(s) {
			continue
		}
		if t := cleanSentence(s.text); t != "" {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		for _, s := range a.doc.sentences {
			if t := cleanSentence(s.text); t != "" {
				out = append(out, t)
				break
			}
		}
	}
	return joinBounded(out)
}

func (a *analysis) sentenceHasContent(s sentence) bool {
	for j := s.first; j < s.last; j++ {
		t := &a.doc.tokens[j]
		if t.cjk {
			if !isCJKFunction(t.lower) {
				return true
			}
			continue
		}
		if isContentWord(t.lower, a.english) {
			return true
		}
	}
	return false
}

// topTerms returns the n highest-scoring terms (ties: first spoken) by
// partial selection; n is small and a full sort showed in profiles.
func (a *analysis) topTerms(n int) []*term {
	top := make([]*term, 0, n+1)
	for _, tm := range a.termList { // termList is in first-spoken order
		k := len(top)
		for k > 0 && tm.score > top[k-1].score {
			k--
		}
		if k >= n {
			continue
		}
		top = slices.Insert(top, k, tm)
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}

// joinBounded joins sentences while they fit in maxOverviewRunes; a first
// sentence that is too long on its own is cut at a word boundary.
func joinBounded(parts []string) string {
	var b strings.Builder
	used := 0
	for _, p := range parts {
		n := utf8.RuneCountInString(p)
		sep := 0
		if used > 0 {
			sep = 1
		}
		if used+sep+n > maxOverviewRunes {
			if used == 0 {
				return truncateRunes(p, maxOverviewRunes)
			}
			continue
		}
		if sep == 1 {
			if last, _ := utf8.DecodeLastRuneInString(b.String()); strings.ContainsRune("。！？", last) {
				sep = 0 // CJK sentences run on without spaces
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(p)
		used += sep + n
	}
	return b.String()
}

// truncateRunes cuts s to at most max runes, at a space when one is near,
// and marks the cut with an ellipsis.
func truncateRunes(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n := len(s), 0
	for i := range s {
		if n == max-1 {
			cut = i
			break
		}
		n++
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:-") + "…"
}

// leadingFillers are dropped from the start of an extracted sentence ("Um,
// so we need to…" → "We need to…").
var leadingFillers = lexicon.NewSet(`um uh umm uhh hmm mm er erm ah oh okay ok yeah yep well so like alright anyway anyways and but also right yes no
	hi hey hello great sure fine perfect cool nice wow honestly`)

// cleanSentence tidies a transcript sentence for display: single spaces, no
// leading fillers, a capital first letter and closing punctuation.
func cleanSentence(s string) string {
	s = singleSpaced(s)
	s = trimLeadingPunct(s)
	for {
		word, rest, ok := strings.Cut(s, " ")
		if !ok {
			break
		}
		w := strings.ToLower(strings.TrimRight(word, ",.;:!?…-"))
		if !inSet(leadingFillers, w) || !hasLetterOrDigit(rest) {
			break
		}
		s = rest
	}
	s = trimLeadingPunct(s)
	if s == "" {
		return ""
	}
	// capitalise reads one word: a sentence holding a name ("are we doing
	// Thanksgiving") would pass for a brand spelling and stay lower case.
	first, rest, _ := strings.Cut(s, " ")
	s = strings.TrimSuffix(capitalise(first)+" "+rest, " ")
	last, _ := utf8.DecodeLastRuneInString(s)
	switch {
	case strings.ContainsRune(".!?…。！？\"')”", last):
	case isCJK(last):
		s += "。"
	default:
		s = strings.TrimRight(s, ",;:- ") + "."
	}
	return s
}

func trimLeadingPunct(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '"' && r != '\''
	})
}

// singleSpaced is strings.Join(strings.Fields(s), " "): s itself, without
// splitting and joining, when it already has single spaces between its
// words and none around them, as a transcript's sentences mostly do.
func singleSpaced(s string) string {
	prevSpace := true // a space first is one too many
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return strings.Join(strings.Fields(s), " ") // other spaces: the general way
		case c == ' ':
			if prevSpace {
				return strings.Join(strings.Fields(s), " ")
			}
			prevSpace = true
		default:
			prevSpace = false
		}
	}
	if prevSpace && s != "" {
		return strings.Join(strings.Fields(s), " ") // a space last
	}
	return s
}
