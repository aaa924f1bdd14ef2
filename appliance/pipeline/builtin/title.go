package builtin

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Title rules of the reference's structure prompt: a headline of at most
// ten words in Title Case, about the topic rather than the opening words.
const (
	maxTitleWords = 10
	// secondTopicShare: a second topic joins the title ("X and Y") only when
	// it scores at least this share of the first, so a passing mention does
	// not dilute the headline.
	secondTopicShare = 0.35
	// degradedTopics is how many keywords a non-English title strings
	// together, each scoring at least degradedTopicShare of the first.
	degradedTopics     = 3
	degradedTopicShare = 0.3
)

// title builds the headline: the best topic, widened to a phrase, plus a
// second topic when it is strong enough. It is "" only when the transcript
// has no content word other than placeholders such as "conversation".
func (a *analysis) title() string {
	best := a.pick(nil, 0)
	if best == nil {
		return titleCase(a.fallbackWord())
	}
	if a.english {
		best = a.extend(a.expand(best, nil))
	}
	chosen := []*candidate{best}
	share := secondTopicShare
	limit := 2
	if !a.english {
		limit = degradedTopics
		share = degradedTopicShare
	}
	for len(chosen) < limit {
		next := a.pick(chosen, best.score*share)
		if next == nil {
			break
		}
		if a.english {
			next = a.expand(next, chosen)
		}
		chosen = append(chosen, next)
	}
	words := a.titleWords(chosen)
	if a.opensTranscript(words) {
		// Never just echo the first words: lead with another topic instead.
		switch {
		case len(chosen) > 1:
			chosen[0], chosen[1] = chosen[1], chosen[0]
			words = a.titleWords(chosen)
		default:
			if next := a.pick(chosen, 0); next != nil {
				words = a.titleWords(append(chosen, next))
			}
		}
	}
	return titleCase(words)
}

// pick returns the best candidate that overlaps none of chosen and scores at
// least floor. Ties go to the earlier, then the longer, candidate. Light
// single words are considered only when nothing better is left.
func (a *analysis) pick(chosen []*candidate, floor float64) *candidate {
	var best *candidate
	passes := 2
	if len(chosen) > 0 {
		passes = 1 // a second topic must be a real one: no verb, date or light word joins the title
	}
	for pass := 0; pass < passes && best == nil; pass++ {
		for _, c := range a.candidates() {
			if c.score < floor || c.score <= 0 {
				continue
			}
			if pass == 0 && (len(c.terms) == 1 && (c.terms[0].light || a.mostlyVerb(c.terms[0])) || onlyWhen(c)) {
				continue
			}
			if len(chosen) > 0 && c.cjk != "" && c.count < 2 {
				continue // a one-off CJK n-gram is only good enough alone
			}
			if overlapsAny(c, chosen) {
				continue
			}
			if best == nil || c.score > best.score ||
				c.score == best.score && (c.first < best.first || c.first == best.first && c.size() > best.size()) {
				best = c
			}
		}
	}
	return best
}

// fallbackWord names a transcript whose content words are none of them
// topic material (a number, an overlong token, a lone CJK character), so
// that any transcript with a content word gets a title. Placeholder words
// are never used.
func (a *analysis) fallbackWord() []string {
	var best *form
	for _, f := range a.formList {
		if f.content && !inSet(placeholderWords, f.lower) && (best == nil || f.count > best.count) {
			best = f
		}
	}
	if best != nil {
		return []string{truncateWord(a.spell(best), maxKeywordLen)}
	}
	for _, t := range a.doc.tokens {
		if t.cjk && !isCJKFunction(t.lower) {
			return []string{truncateWord(t.lower, maxCJKGram*2)}
		}
	}
	return nil
}

// truncateWord cuts w to at most n runes.
func truncateWord(w string, n int) string {
	i := 0
	for k := range w {
		if i == n {
			return w[:k]
		}
		i++
	}
	return w
}

// expandShare: a single word grows into the best phrase containing it
// ("trip" → "Lisbon trip") when that phrase scores at least this share of it.
const expandShare = 0.5

// expand turns a single-word topic into the strongest two-word phrase built
// on it, which reads like a headline rather than a tag. The word's score is
// kept, so later thresholds do not move.
func (a *analysis) expand(c *candidate, chosen []*candidate) *candidate {
	if len(c.terms) != 1 {
		return c
	}
	var best *candidate
	for _, p := range a.candidates() {
		if len(p.terms) != 2 || p.score < c.score*expandShare || !containsTerm(p.terms, c.terms[0]) || overlapsAny(p, chosen) {
			continue
		}
		if best == nil || p.score > best.score {
			best = p
		}
	}
	if best == nil {
		return c
	}
	return &candidate{terms: best.terms, forms: best.forms, count: best.count, first: best.first, score: c.score}
}

// extend grows a recurring two-word phrase into a three-word one that
// contains it, when that longer phrase recurs at least half as often
// ("budget review" → "quarterly budget review").
func (a *analysis) extend(best *candidate) *candidate {
	if len(best.terms) != 2 || best.count < 2 {
		return best
	}
	var ext *candidate
	for _, c := range a.candidates() {
		if len(c.terms) != 3 || c.count*2 < best.count {
			continue
		}
		prefix := c.terms[0] == best.terms[0] && c.terms[1] == best.terms[1]
		suffix := c.terms[1] == best.terms[0] && c.terms[2] == best.terms[1]
		if (prefix || suffix) && (ext == nil || c.score > ext.score) {
			ext = c
		}
	}
	if ext == nil {
		return best
	}
	// keep the stronger score so the second-topic threshold is unchanged
	return &candidate{terms: ext.terms, forms: ext.forms, count: ext.count, first: ext.first, score: best.score}
}

func overlapsAny(c *candidate, chosen []*candidate) bool {
	for _, o := range chosen {
		if c == o || c.overlaps(o) {
			return true
		}
	}
	return false
}

// titleWords renders candidates as display words. English topics are
// joined with "and"; degraded titles are a plain keyword list.
func (a *analysis) titleWords(cs []*candidate) []string {
	var words []string
	for i, c := range cs {
		if i > 0 && a.english {
			words = append(words, "and")
		}
		if c.cjk != "" {
			words = append(words, c.cjk)
			continue
		}
		for k, tm := range c.terms {
			if c.forms != nil {
				words = append(words, a.spell(c.forms[k]))
				continue
			}
			words = append(words, a.display(tm))
		}
	}
	// Bound by both counts: fields, and WordCount's CJK characters/2.
	for len(words) > maxTitleWords || len(words) > 1 && WordCount(strings.Join(words, " ")) > maxTitleWords {
		words = words[:len(words)-1]
	}
	for len(words) > 0 && inSet(smallWords, strings.ToLower(words[len(words)-1])) {
		words = words[:len(words)-1]
	}
	return words
}

// display is the spelling of a term in a title: its most frequent form, kept
// as an acronym (API) or brand (iPhone) when that is how it was transcribed.
func (a *analysis) display(tm *term) string {
	f := tm.forms[0]
	for _, g := range tm.forms[1:] {
		if g.count > f.count {
			f = g
		}
	}
	return a.spell(f)
}

func (a *analysis) spell(f *form) string {
	switch {
	case f.special != "":
		return f.special
	case !a.capsHeavy && f.caps*2 > f.count:
		return strings.ToUpper(f.lower)
	}
	return f.lower
}

// opensTranscript reports whether the title words are exactly the words the
// transcript starts with (ignoring case, spaces and punctuation).
func (a *analysis) opensTranscript(words []string) bool {
	want := strings.ToLower(strings.Join(words, ""))
	if want == "" {
		return false
	}
	var b strings.Builder
	for _, t := range a.doc.tokens {
		if b.Len() >= len(want) {
			break
		}
		b.WriteString(t.lower)
	}
	return b.String() == want
}

// titleCase capitalises each word except small words inside the title; words
// that already carry capitals (API, iPhone) keep them.
func titleCase(words []string) string {
	out := make([]string, 0, len(words))
	for i, w := range words {
		if w == "" {
			continue
		}
		lw := strings.ToLower(w)
		if i > 0 && i < len(words)-1 && inSet(smallWords, lw) {
			out = append(out, lw)
			continue
		}
		out = append(out, capitalise(w))
	}
	return strings.Join(out, " ")
}

// capitalise upper-cases the first letter, leaving the rest as spelled.
func capitalise(w string) string {
	r, size := utf8.DecodeRuneInString(w)
	if r == utf8.RuneError || !unicode.IsLower(r) || hasInnerCapital(w) {
		return w // iPhone, eBay stay as spelled
	}
	return string(unicode.ToTitle(r)) + w[size:]
}

// whenWords say when, not what: "December Nineteenth" or "Friday" is no
// topic a person would title a conversation with.
var whenWords = lexicon.NewSet(`january february march april may june july august september october november
	december monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight yesterday morning
	afternoon evening night week weekend month year am pm o'clock half quarter first second third fourth fifth
	sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth
	eighteenth nineteenth twentieth thirtieth one two three four five six seven eight nine ten eleven twelve
	fifteen twenty thirty forty fifty he'll she'll they'll we'll you'll it'll he'd she'd they'd we'd`)

// onlyWhen: every word of a Latin-script candidate is a date, a time, a
// number or a pronoun's contraction.
func onlyWhen(c *candidate) bool {
	if c.cjk != "" || len(c.terms) == 0 {
		return false
	}
	forms := c.forms
	if len(forms) == 0 {
		for _, tm := range c.terms {
			if len(tm.forms) == 0 {
				return false
			}
			forms = append(forms, tm.forms[0])
		}
	}
	for _, f := range forms {
		for w := range strings.FieldsSeq(f.lower) {
			if !inSet(whenWords, w) && !isOrdinalOrNumber(w) {
				return false
			}
		}
	}
	return true
}

// isOrdinalOrNumber: "21st", "3rd", "16th", "1:45", "2026".
func isOrdinalOrNumber(w string) bool {
	w = strings.TrimRight(w, "stndrh")
	return w != "" && strings.Trim(w, "0123456789:.") == ""
}

// verbCues before a word make it a verb there: "I'll book the tour", "can
// you write it", "will be delivered".
var verbCues = lexicon.NewSet(`to i i'll we'll you'll we you they can will 'll please let's could should would must
	don't didn't be been was were is are`)

// mostlyVerb: most of the times tm was said, it was said as a verb; a
// title names a topic ("Campus Tour"), not an act ("Book").
func (a *analysis) mostlyVerb(tm *term) bool {
	return tm.count > 0 && 2*tm.verbCued > tm.count
}
