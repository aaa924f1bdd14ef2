package pipeline

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance"
)

// FuzzBuiltinStructure feeds arbitrary text (split into segments on
// newlines) through the built-in extractor and the pipeline rules, and checks
// the invariants every conversation must satisfy whatever was said.
func FuzzBuiltinStructure(f *testing.F) {
	for _, s := range samples {
		f.Add(strings.Join(s.segments, "\n"), "en")
	}
	seeds := []struct{ text, lang string }{
		{"", ""}, {"okay", "en"}, {"hey siri what time is it", ""},
		{"我们明天要开会讨论项目预算。项目预算需要增加。", "zh"},
		{"明日の会議でプロジェクトの予算について話しましょう", "ja"},
		{"Mañana tenemos la reunión para revisar el presupuesto.", "es"},
		{"\xff\xfe\xfd invalid utf8 ' '' ''' ...", "en"},
		{strings.Repeat("budget ", 300), "en"},
		{strings.Repeat("ー", 50) + strings.Repeat("プ", 40), "ja"},
		{"Dr. J. K. e.g. i.e. 3.5 - — … ?!", "en"},
		{"API API iPhone McDonald's NASA", "en"},
	}
	for _, s := range seeds {
		f.Add(s.text, s.lang)
	}
	b := NewBuiltin()
	p := New(b, nil)
	f.Fuzz(func(t *testing.T, text, lang string) {
		in := appliance.TranscriptInput{Segments: segments(strings.Split(text, "\n")...), Language: lang}
		s, err := b.Structure(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.Fields(s.Title)); n > maxTitleWords {
			t.Errorf("title %q has %d words", s.Title, n)
		}
		if n := WordCount(s.Title); n > maxTitleWords {
			t.Errorf("title %q counts %d words", s.Title, n)
		}
		for _, w := range strings.Fields(s.Title) {
			if inSet(placeholderWords, strings.ToLower(w)) {
				t.Errorf("title %q holds placeholder word %q", s.Title, w)
			}
		}
		if _, ok := appliance.ParseCategory(string(s.Category)); !ok {
			t.Errorf("invalid category %q", s.Category)
		}
		if s.Emoji == "" {
			t.Error("empty emoji")
		}
		if s.Title != "" && s.Overview == "" {
			t.Errorf("title %q with an empty overview", s.Title)
		}
		if n := utf8.RuneCountInString(s.Overview); n > maxOverviewRunes {
			t.Errorf("overview has %d runes", n)
		}
		if s.ActionItems == nil || s.Events == nil {
			t.Error("nil action items or events")
		}
		if _, err := b.ShouldDiscard(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		c := &appliance.Conversation{ID: "fuzz", Source: appliance.SourceOmi, Language: lang, TranscriptSegments: in.Segments}
		if _, err := p.Process(context.Background(), c, Options{}); err != nil {
			t.Fatal(err)
		}
		if c.Status != appliance.StatusCompleted || c.Discarded != (c.Structured.Title == "") {
			t.Errorf("status %q, discarded %v, title %q", c.Status, c.Discarded, c.Structured.Title)
		}
	})
}
