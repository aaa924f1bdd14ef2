package builtin

import (
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

// parseText parses one string as a single segment.
func parseText(text string) *document {
	d := &document{}
	d.addText(text)
	return d
}

func TestWordCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"   \n\t", 0},
		{"hello", 1},
		{"hello world, how are you?", 5},
		{"don't stop — ever", 3}, // a bare dash is no word
		{"... !!!", 0},
		{"我们明天开会", 3},       // six CJK characters
		{"嗯", 0},            // characters/2, rounded down
		{"我们 明天", 2},        // spaces do not add CJK words
		{"hello世界", 2},      // a word plus two characters
		{"世界hello", 2},      // Latin right after CJK is a new word
		{"明日の会議", 2},        // kana count like Han
		{"회의 예산", 2},        // Hangul too, as in the reference
		{"\xff\xfe bad", 1}, // invalid UTF-8 is no word, and no panic
		{strings.Repeat("word ", 101), 101},
	}
	for _, tt := range tests {
		if got := WordCount(tt.text); got != tt.want {
			t.Errorf("WordCount(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestCategoryStems(t *testing.T) {
	t.Parallel()
	cat := func(w string) []appliance.Category {
		var out []appliance.Category
		for _, i := range categoryStems(w) {
			out = append(out, appliance.Categories[i])
		}
		return out
	}
	tests := []struct {
		word string
		want []appliance.Category
	}{
		{"budget", []appliance.Category{"finance", "business"}},
		{"budgets", []appliance.Category{"finance", "business"}},
		{"budgeting", []appliance.Category{"finance", "business"}},
		{"medications", []appliance.Category{"health"}},
		{"meditating", []appliance.Category{"spiritual"}},
		{"shopping", nil},
		{"hiking", nil},
		{"coding", []appliance.Category{"technology"}},
		{"wars", []appliance.Category{"history"}},
		{"ware", nil}, // short stems take plural endings only
		{"parents", []appliance.Category{"parenting"}},
		{"rainy", []appliance.Category{"weather"}},
		{"training", nil},
		{"cloudy", []appliance.Category{"weather"}},
		{"grandma's", []appliance.Category{"family"}}, // possessive
		{"contractors", nil},                          // not a contract
		{"booking", nil},                              // not a book
		{"", nil},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, cat(tt.word)); d != "" {
			t.Errorf("categoryStems(%q) (-want +got):\n%s", tt.word, d)
		}
	}
}

func TestLexiconAndEmojisCoverEveryCategory(t *testing.T) {
	t.Parallel()
	seen := map[string]appliance.Category{}
	for _, c := range appliance.Categories {
		if emojis[c] == "" {
			t.Errorf("category %q has no emoji", c)
		}
		if c == appliance.CategoryOther {
			if categoryCues[c] != "" {
				t.Error("other must have no lexicon: it is the fallback")
			}
			continue
		}
		n := len(strings.Fields(categoryCues[c]))
		if n < 10 || n > 40 {
			t.Errorf("category %q has %d lexicon stems, want 10–40", c, n)
		}
		if prev, dup := seen[emojis[c]]; dup {
			t.Errorf("categories %q and %q share emoji %q", prev, c, emojis[c])
		}
		seen[emojis[c]] = c
	}
	if len(emojis) != len(appliance.Categories) || len(categoryCues) != len(appliance.Categories)-1 {
		t.Errorf("%d emojis and %d lexicons for %d categories", len(emojis), len(categoryCues), len(appliance.Categories))
	}
	for c := range categoryCues {
		if _, ok := appliance.ParseCategory(string(c)); !ok {
			t.Errorf("lexicon names unknown category %q", c)
		}
	}
}

func TestParseSentences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"punctuation", "First one. Second one! Third one? Fourth", []string{"First one.", "Second one!", "Third one?", "Fourth"}},
		{"abbreviations and decimals", "Dr. Smith said 3.5 mg is fine. Call J. K. tomorrow.", []string{"Dr. Smith said 3.5 mg is fine.", "Call J. K. tomorrow."}},
		{"newlines", "one line\nanother line", []string{"one line", "another line"}},
		{"cjk", "我们明天开会。预算太高了！", []string{"我们明天开会。", "预算太高了！"}},
		{"punctuation only", "... !!", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, s := range parseText(tt.text).sentences {
				got = append(got, s.text)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("sentences (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseChunksRunOnSpeech(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("we walked along the river for a while ", 15) // 120 words, no punctuation
	d := parseText(text)
	if len(d.sentences) < 3 {
		t.Fatalf("got %d sentences, want the run-on cut into chunks", len(d.sentences))
	}
	covered := 0
	for _, s := range d.sentences {
		n := s.last - s.first
		if n > maxSentenceTokens {
			t.Errorf("chunk of %d tokens, want ≤ %d", n, maxSentenceTokens)
		}
		covered += n
	}
	if covered != len(d.tokens) {
		t.Errorf("chunks cover %d of %d tokens", covered, len(d.tokens))
	}
}

func TestTokensKeepApostrophesAndSplitCJK(t *testing.T) {
	t.Parallel()
	var got []string
	for _, tk := range parseText("I’m sure it's 'fine' at Café 明天プロジェクト").tokens {
		got = append(got, tk.lower)
	}
	want := []string{"i'm", "sure", "it's", "fine", "at", "café", "明", "天", "プロジェクト"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tokens (-want +got):\n%s", d)
	}
}

func TestTitleCase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"budget", "review", "and", "hiring", "plan"}, "Budget Review and Hiring Plan"},
		{[]string{"the", "plan", "of", "record"}, "The Plan of Record"},
		{[]string{"API", "gateway", "and", "iPhone"}, "API Gateway and iPhone"},
		{[]string{"presupuesto", "año"}, "Presupuesto Año"},
		{[]string{"项目预算"}, "项目预算"},
	}
	for _, tt := range tests {
		if got := titleCase(tt.in); got != tt.want {
			t.Errorf("titleCase(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanSentence(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"um, so we need to ship it":    "We need to ship it.",
		"  okay   yeah the plan works": "The plan works.",
		"okay":                         "Okay.",
		"is it done?":                  "Is it done?",
		"- and then, ":                 "Then.",
		"我们明天开会":                       "我们明天开会。",
		"":                             "",
	}
	for in, want := range tests {
		if got := cleanSentence(in); got != want {
			t.Errorf("cleanSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncateRunes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 200)
	got := truncateRunes(long, 50)
	if n := len([]rune(got)); n > 50 || !strings.HasSuffix(got, "…") || strings.Contains(got, "wor…") {
		t.Errorf("truncateRunes = %q (%d runes), want ≤ 50 runes cut at a word", got, n)
	}
	if got := truncateRunes("short", 50); got != "short" {
		t.Errorf("truncateRunes(short) = %q", got)
	}
}

func TestClassifyWeakCues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want appliance.Category
	}{
		// weak cues alone do not make a category
		{"Return the library books and take the recycling out.", appliance.CategoryOther},
		// but they add to a strong one
		{"The teacher said the school exam is on Friday, the school is closed Monday.", "education"},
		// ties go to the broader category
		{"The dentist is at noon and the accountant at three.", "health"},
	}
	for _, tt := range tests {
		a := analyze(parseSegments(segments(tt.text)), "en")
		if got := classify(a, ""); got != tt.want {
			t.Errorf("classify(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestWordsOverAsJoined: counting segment by segment, and stopping past n,
// says what counting the joined transcript says, CJK halves, words cut at a
// segment's end, non-ASCII spaces and invalid bytes included.
func TestWordsOverAsJoined(t *testing.T) {
	for _, texts := range [][]string{
		nil,
		{""},
		{"", ""},
		{"hello there", "general kenobi"},
		{"half", "word"},
		{"会议", "明天开始", "ok"},
		{"会", "议"},
		{"— ...", "   ", "3:30 pm"},
		{"mixed 中文 text", "", "  trailing  "},
		{"\u00a0nbsp\u00a0", "é", "a\u0085b"},
		{"bad \xff\xfe bytes", "\xe4\xbc", "tab\tand\vvertical\fform\rreturn"},
		{"one two three", "four five", "six"},
	} {
		segs := segments(texts...)
		count := WordCount(JoinSegments(segs))
		for n := -1; n <= count+1; n++ {
			if got, want := WordsOver(segs, n), count > n; got != want {
				t.Errorf("WordsOver(%q, %d) = %v, the joined text counts %d", texts, n, got, count)
			}
		}
	}
}

// TestSingleSpacedAsFields: the shortcut gives what splitting into fields
// and joining them gives.
func TestSingleSpacedAsFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", " a b", "a b ", "a  b", "a\tb", "a\nb", "naïve café", "a\u00a0b", "a\u2003b", "会议 明天", "x, y. z", "\r\n"} {
		if got, want := singleSpaced(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("singleSpaced(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestWordCountAsByRunes: the count with its ASCII shortcut is the count
// rune by rune, over mixed scripts, odd spaces, invalid bytes and the
// sample conversations.
func TestWordCountAsByRunes(t *testing.T) {
	byRunes := func(text string) int {
		words, cjk := 0, 0
		inWord, counted := false, false
		for _, r := range text {
			switch {
			case isCJK(r):
				cjk++
				inWord = false
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
		return words + cjk/2
	}
	texts := []string{"", " ", "a", "hello, world!", "— ... --", "it's 3:30 pm", "会议明天开始 ok 好", "naïve café",
		"a\u00a0b\u0085c", "\xff\xfe x \xe4\xbc", "tab\tand\vvertical\fform\rreturn\nline", "x—y", "日本語とEnglish混在"}
	for _, s := range samples {
		texts = append(texts, s.segments...)
	}
	for _, s := range texts {
		if got, want := WordCount(s), byRunes(s); got != want {
			t.Errorf("WordCount(%q) = %d, rune by rune %d", s, got, want)
		}
	}
}

// TestLookupStemEAsConcatenated: looking a stem up with an "e" added in a
// buffer finds what looking up the concatenated string finds: every
// lexicon stem ending in "e", short stems and one longer than the buffer.
func TestLookupStemEAsConcatenated(t *testing.T) {
	bases := []string{"", "a", "ab", "abc", "shar", "danc", strings.Repeat("x", 40), strings.Repeat("y", 31)}
	for w := range categoryIndex() {
		if base, ok := strings.CutSuffix(w, "e"); ok {
			bases = append(bases, base)
		}
	}
	for _, b := range bases {
		if got, want := lookupStemE(b), lookupStem(b+"e", false); got != want {
			t.Errorf("lookupStemE(%q) = %v, lookupStem(%q) = %v", b, got, b+"e", want)
		}
	}
}
