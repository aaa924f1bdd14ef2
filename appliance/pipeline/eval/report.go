package eval

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
)

// Outcome is what an extractor made of one case.
type Outcome struct {
	Discarded  bool
	Structured appliance.Structured
	Memories   []appliance.Memory
}

// Tally is the scores of a set of cases.
type Tally struct {
	Cases                      int
	DiscardScored, DiscardOK   int
	Kept, TitleEmoji, LongOver int
	Events, Items, Memories    Counts
}

// Add sums o into t.
func (t *Tally) Add(o Tally) {
	t.Cases += o.Cases
	t.DiscardScored += o.DiscardScored
	t.DiscardOK += o.DiscardOK
	t.Kept += o.Kept
	t.TitleEmoji += o.TitleEmoji
	t.LongOver += o.LongOver
	t.Events.Add(o.Events)
	t.Items.Add(o.Items)
	t.Memories.Add(o.Memories)
}

// Instants is events' and action items' exactness together.
func (t Tally) Instants() Counts {
	return Counts{Timed: t.Events.Timed + t.Items.Timed, Exact: t.Events.Exact + t.Items.Exact}
}

// DiscardAccuracy is the share of discard decisions that agree with the
// labels.
func (t Tally) DiscardAccuracy() float64 { return ratio(t.DiscardOK, t.DiscardScored) }

// Score compares one outcome with its case's labels.
func Score(c *Case, o Outcome) (Tally, []Miss) {
	var misses []Miss
	miss := func(field, what string) { misses = append(misses, Miss{Case: c.Name, Field: field, What: what}) }
	t := Tally{Cases: 1}
	if !c.DiscardEither {
		t.DiscardScored = 1
		if o.Discarded == c.Discard {
			t.DiscardOK = 1
		} else {
			miss("discard", fmt.Sprintf("discarded = %v, want %v", o.Discarded, c.Discard))
		}
	}
	var s appliance.Structured
	var mems []appliance.Memory
	if !o.Discarded {
		s, mems = o.Structured, o.Memories
		t.Kept = 1
		if hasEmoji(s.Title) {
			t.TitleEmoji = 1
			miss("title", "emoji in "+s.Title)
		}
		if sentences(s.Overview) > 3 {
			t.LongOver = 1
			miss("overview", "more than three sentences: "+s.Overview)
		}
	}
	t.Events = scoreEvents(c, s.Events, miss)
	t.Items = scoreItems(c, s.ActionItems, miss)
	t.Memories = scoreMemories(c, mems, miss)
	return t, misses
}

func hasEmoji(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.So, r) || r >= 0x1F000 || r == 0xFE0F {
			return true
		}
	}
	return false
}

func sentences(s string) int {
	n := 0
	for f := range strings.FieldsSeq(s) {
		switch strings.ToLower(f) {
		case "mr.", "mrs.", "ms.", "dr.", "st.", "vs.", "e.g.", "i.e.":
			continue // an abbreviation ends no sentence
		}
		if strings.HasSuffix(f, ".") || strings.HasSuffix(f, "!") || strings.HasSuffix(f, "?") {
			n++
		}
	}
	return n
}

// Report is a run over the corpus: each half's tally, and the misses of the
// development half only (the held-out half is never read case by case).
type Report struct {
	Dev, HeldOut Tally
	DevMisses    []Miss
	// ByForm splits each half by how the transcript was written: keys
	// "dev punctuated", "heldout unpunctuated" and so on.
	ByForm map[string]*Tally
	// ByFold is the development half by cross-validation fold (FoldOf).
	ByFold [Folds]Tally
	kept   map[string]bool
}

// Kept reports whether the run kept the named case.
func (r Report) Kept(name string) bool { return r.kept[name] }

// Run processes every case through p, as the server does for a new
// conversation, and scores it.
func Run(ctx context.Context, p *pipeline.Pipeline, cases []Case) (Report, error) {
	r := Report{kept: map[string]bool{}, ByForm: map[string]*Tally{}}
	for i := range cases {
		c := &cases[i]
		conv := c.Conversation()
		res, err := p.Process(ctx, conv, pipeline.Options{Location: c.Location()})
		if err != nil {
			return r, fmt.Errorf("%s: %w", c.Name, err)
		}
		r.kept[c.Name] = !conv.Discarded
		t, misses := Score(c, Outcome{Discarded: conv.Discarded, Structured: conv.Structured, Memories: res.Memories})
		key := c.Split + " " + c.Form
		if r.ByForm[key] == nil {
			r.ByForm[key] = &Tally{}
		}
		r.ByForm[key].Add(t)
		if c.Split == SplitDev {
			r.Dev.Add(t)
			r.ByFold[FoldOf(c.Name)].Add(t)
			r.DevMisses = append(r.DevMisses, misses...)
		} else {
			r.HeldOut.Add(t)
		}
	}
	return r, nil
}

// Row is one figure of the report on both halves.
type Row struct {
	Name         string
	Dev, HeldOut float64
	DevOf, HOOf  string
}

// Rows are the report's figures.
func (r Report) Rows() []Row {
	type fig struct {
		v  float64
		of string
	}
	pr := func(c Counts) fig { return fig{c.Precision(), fmt.Sprintf("%d/%d", c.Hit, c.Hit+c.Extra)} }
	rc := func(c Counts) fig { return fig{c.Recall(), fmt.Sprintf("%d/%d", c.Hit, c.Want)} }
	f1 := func(c Counts) fig { return fig{c.F1(), ""} }
	ex := func(c Counts) fig { return fig{c.ExactRate(), fmt.Sprintf("%d/%d", c.Exact, c.Timed)} }
	metrics := []struct {
		name string
		f    func(Tally) fig
	}{
		{"events precision", func(t Tally) fig { return pr(t.Events) }},
		{"events recall", func(t Tally) fig { return rc(t.Events) }},
		{"events F1", func(t Tally) fig { return f1(t.Events) }},
		{"event start exact", func(t Tally) fig { return ex(t.Events) }},
		{"action items precision", func(t Tally) fig { return pr(t.Items) }},
		{"action items recall", func(t Tally) fig { return rc(t.Items) }},
		{"action items F1", func(t Tally) fig { return f1(t.Items) }},
		{"action item due exact", func(t Tally) fig { return ex(t.Items) }},
		{"instant exact", func(t Tally) fig { return ex(t.Instants()) }},
		{"memories precision", func(t Tally) fig { return pr(t.Memories) }},
		{"memories recall", func(t Tally) fig { return rc(t.Memories) }},
		{"memory category", func(t Tally) fig { return ex(t.Memories) }},
		{"discard accuracy", func(t Tally) fig {
			return fig{t.DiscardAccuracy(), fmt.Sprintf("%d/%d", t.DiscardOK, t.DiscardScored)}
		}},
		{"titles without emoji", func(t Tally) fig {
			return fig{ratio(t.Kept-t.TitleEmoji, t.Kept), fmt.Sprintf("%d/%d", t.Kept-t.TitleEmoji, t.Kept)}
		}},
		{"overviews of 1-3 sentences", func(t Tally) fig {
			return fig{ratio(t.Kept-t.LongOver, t.Kept), fmt.Sprintf("%d/%d", t.Kept-t.LongOver, t.Kept)}
		}},
	}
	rows := make([]Row, len(metrics))
	for i, m := range metrics {
		d, h := m.f(r.Dev), m.f(r.HeldOut)
		rows[i] = Row{Name: m.name, Dev: d.v, HeldOut: h.v, DevOf: d.of, HOOf: h.of}
	}
	return rows
}

// Table is the report as a Markdown table.
func (r Report) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| figure | dev (%d) | held-out (%d) |\n|---|---|---|\n", r.Dev.Cases, r.HeldOut.Cases)
	for _, row := range r.Rows() {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", row.Name, cell(row.Dev, row.DevOf), cell(row.HeldOut, row.HOOf))
	}
	return b.String()
}

func cell(v float64, of string) string {
	if of == "" {
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.3f (%s)", v, of)
}

// FormTable is the main figures of each half split by how the transcripts
// were written (punctuated, or lowercase without punctuation as a live
// recognizer gives them), as a Markdown table.
func (r Report) FormTable() string {
	var b strings.Builder
	b.WriteString("| half, form | cases | events F1 | action items F1 | instant exact | memories P | discard |\n|---|---|---|---|---|---|---|\n")
	for _, key := range []string{"dev punctuated", "dev unpunctuated", "heldout punctuated", "heldout unpunctuated"} {
		t := r.ByForm[key]
		if t == nil {
			continue
		}
		in := t.Instants()
		fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f | %.3f (%d/%d) | %.3f (%d/%d) | %.3f (%d/%d) |\n", key, t.Cases,
			t.Events.F1(), t.Items.F1(), in.ExactRate(), in.Exact, in.Timed,
			t.Memories.Precision(), t.Memories.Hit, t.Memories.Hit+t.Memories.Extra,
			t.DiscardAccuracy(), t.DiscardOK, t.DiscardScored)
	}
	return b.String()
}
