package builtin_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// FuzzBuiltinStructure feeds arbitrary text (split into segments on
// newlines) through the built-in extractor and the pipeline rules, and checks
// the invariants every conversation must satisfy whatever was said.
func FuzzBuiltinStructure(f *testing.F) {
	for _, texts := range builtin.SampleTexts() {
		f.Add(strings.Join(texts, "\n"), "en")
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
		{"I need to send the budget by Friday.\nCan you send me the deck tomorrow at 3:30pm?\nI'll do it tonight.", "en"},
		{"Let's meet on Tuesday at 3 pm for 90 minutes.\nThe plumber is coming Thursday between 8 and 10.", "en"},
		{"Remind me in 2 hours to call Dr. Patel. Meeting on the 31st at 25:99 from 11 to 1 for 500 hours.", "en"},
		{"I'm allergic to peanuts. My daughter's name is Mia. My doctor said I should walk more.", "en"},
		{"at at at by by the the end of of next next next month week weekend half past quarter to", "en"},
		{"Note to self,\nremind me\nlet me\nyou said you'd", "en"},
		{builtin.BudgetCall[0][0] + "\n" + builtin.BudgetCall[0][1], "en"},
		{"thanks for the call this morning we need to send it please remind them and then i'll call you by then so could you", "en"},
	}
	for _, s := range seeds {
		f.Add(s.text, s.lang)
	}
	b := builtin.New()
	p := pipeline.New(b, nil)
	zones := []*time.Location{time.UTC, builtin.MustZone(f, "America/New_York"), builtin.MustZone(f, "Asia/Kolkata")}
	// a start just before a DST switch, so resolved times cross it
	start := time.Date(2026, 3, 7, 22, 30, 0, 0, zones[1])
	f.Fuzz(func(t *testing.T, text, lang string) {
		segs := builtin.Segments(strings.Split(text, "\n")...)
		for i := range segs {
			segs[i].IsUser = i%2 == 0
			if i%2 == 1 {
				segs[i].Speaker = "SPEAKER_01"
			}
		}
		in := appliance.TranscriptInput{Segments: segs, Language: lang, StartedAt: start, Location: zones[len(text)%len(zones)]}
		s, err := b.Structure(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.Fields(s.Title)); n > builtin.MaxTitleWords {
			t.Errorf("title %q has %d words", s.Title, n)
		}
		if n := builtin.WordCount(s.Title); n > builtin.MaxTitleWords {
			t.Errorf("title %q counts %d words", s.Title, n)
		}
		for _, w := range strings.Fields(s.Title) {
			if builtin.IsPlaceholder(strings.ToLower(w)) {
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
		if n := utf8.RuneCountInString(s.Overview); n > builtin.MaxOverviewRunes {
			t.Errorf("overview has %d runes", n)
		}
		checkStructureInvariants(t, "fuzz", s)
		end := builtin.TimingEnd(in)
		for _, it := range s.ActionItems {
			if it.DueAt != nil && it.DueAt.Before(end) {
				t.Errorf("%q due %v, before the conversation's end %v", it.Description, it.DueAt, end)
			}
		}
		ms, err := b.Memories(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) > appliance.MaxMemoriesPerConversation {
			t.Errorf("%d memories", len(ms))
		}
		for _, m := range ms {
			if strings.TrimSpace(m.Content) == "" || m.Category != appliance.MemorySystem && m.Category != appliance.MemoryInteresting {
				t.Errorf("memory %+v", m)
			}
		}
		if _, err := b.ShouldDiscard(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		c := &appliance.Conversation{ID: "fuzz", Source: appliance.SourceOmi, Language: lang, TranscriptSegments: in.Segments}
		if _, err := p.Process(context.Background(), c, pipeline.Options{}); err != nil {
			t.Fatal(err)
		}
		if c.Status != appliance.StatusCompleted || c.Discarded != (c.Structured.Title == "") {
			t.Errorf("status %q, discarded %v, title %q", c.Status, c.Discarded, c.Structured.Title)
		}
	})
}
