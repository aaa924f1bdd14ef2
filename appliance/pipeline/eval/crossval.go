package eval

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// Cross-validation inside the development half. The rules were written
// against the whole development half, so a development figure says how well
// they fit what was read, not how they generalise; the held-out half may be
// scored only at the end of a change. Whatever is learned (the clause
// model's weights and floors) is therefore learned on k-1 folds of the
// development half and scored on the k-th, and the figure to optimise is the
// mean over the folds. The folds are fixed by each conversation's name hash.
//
// The rules alone are scored on the same folds for comparison; their figure
// there is still dev-on-dev (they saw every fold), so a learned component
// that beats it on the folds is measured against a baseline that is
// flattered, never against one that is handicapped.

// Folds is the number of cross-validation folds.
const Folds = 5

// FoldOf is the fold of the named conversation; a live twin is in its
// original's.
func FoldOf(name string) int {
	h := fnv.New32a()
	h.Write([]byte("fold:" + strings.TrimSuffix(name, liveSuffix)))
	return int(h.Sum32() % Folds)
}

// WithTwins is cases and the live twins of the punctuated ones.
func WithTwins(cases []Case) []Case {
	out := append([]Case(nil), cases...)
	for _, c := range cases {
		if c.Form == "punctuated" {
			out = append(out, LiveTwin(c))
		}
	}
	return out
}

// DevCases are the development half of cases.
func DevCases(cases []Case) []Case {
	var out []Case
	for _, c := range cases {
		if c.Split == SplitDev {
			out = append(out, c)
		}
	}
	return out
}

// input is the case as the extractor receives it through the pipeline.
func (c *Case) input() appliance.TranscriptInput {
	conv := c.Conversation()
	return appliance.TranscriptInput{
		Segments: conv.TranscriptSegments, Language: conv.Language, Source: conv.Source,
		StartedAt: c.StartedAt, Duration: conv.Duration(), Location: c.loc,
	}
}

// ClauseLabels labels each clause of a case for the clause model: a clause
// states a task when it is the clause sharing most content words with a
// labelled action item (at least a third of them, the matching rule's
// share), and a plan when it shares most of a labelled event's title words,
// a clause with a time said preferred on a tie.
func ClauseLabels(c *Case, exs []builtin.ClauseExample) (task, plan []bool) {
	task, plan = make([]bool, len(exs)), make([]bool, len(exs))
	words := make([][]string, len(exs))
	for i, e := range exs {
		words[i] = contentWords(e.Text)
	}
	mark := func(want string, out []bool, timeBonus bool) {
		w := contentWords(want)
		if len(w) == 0 {
			return
		}
		best, at := 0, []int(nil)
		for i := range exs {
			n := 2 * shared(w, words[i])
			if n == 0 || 3*n < 2*len(w) && !timeBonus {
				continue
			}
			if timeBonus && exs[i].Time {
				n++
			}
			switch {
			case n > best:
				best, at = n, []int{i}
			case n == best:
				at = append(at, i)
			}
		}
		for _, i := range at {
			out[i] = true
		}
	}
	for _, it := range c.ActionItems {
		mark(it.Description, task, false)
	}
	for _, ev := range c.Events {
		mark(ev.Title, plan, true)
	}
	return task, plan
}

// ClauseData are the clauses of cases with their labels.
type ClauseData struct {
	X          [][]uint32
	Task, Plan []bool
}

// Clauses reads the labelled clauses of cases.
func Clauses(cases []Case) ClauseData {
	var d ClauseData
	for i := range cases {
		exs := builtin.ClauseExamples(cases[i].input())
		t, p := ClauseLabels(&cases[i], exs)
		for _, e := range exs {
			d.X = append(d.X, e.Features)
		}
		d.Task = append(d.Task, t...)
		d.Plan = append(d.Plan, p...)
	}
	return d
}

// Training settings of the clause model.
// Training settings of the clause model: of those tried, these gave the
// best out-of-fold ranking of clauses (area under the ROC curve, task 0.869
// and plan 0.918 over the five folds; 12 epochs at 0.2 with positives
// weighted 3 gave 0.858 and 0.900).
const (
	trainEpochs = 5
	trainRate   = 0.1
	trainL2     = 1e-3
	trainPos    = 1.0
)

// minGain is how much a setting must raise the pooled out-of-fold F1 over
// the rules alone to be adopted: more than one item of the development
// half's hundred-odd, so that one lucky case adopts nothing.
const minGain = 0.01

// setting is one choice of the clause model's thresholds.
type setting struct{ floor, propose float64 }

// settings are the thresholds tried, the most conservative first so that a
// tie keeps it: no floor and no proposal is the rules alone.
var settings = func() []setting {
	var out []setting
	for _, f := range []float64{0, 0.05, 0.2} {
		for _, p := range []float64{0, 0.6, 0.9} {
			out = append(out, setting{f, p})
		}
	}
	return out
}()

// fitClauseModel is the clause model's weights fitted on cases.
func fitClauseModel(cases []Case) *builtin.ClauseModel {
	d := Clauses(cases)
	m := builtin.NewClauseModel()
	m.Task = builtin.TrainLogistic(d.X, d.Task, trainEpochs, trainRate, trainL2, trainPos)
	m.Plan = builtin.TrainLogistic(d.X, d.Plan, trainEpochs, trainRate, trainL2, trainPos)
	return m
}

// TrainClauseModel fits the clause model on cases (development ones only)
// and picks its thresholds by cross-validation inside them: for each fold
// of cases, weights fitted on the others score it under every setting, and
// the setting with the best pooled F1 of its field (action items for the
// task thresholds, events for the plan floor) is kept; the weights are then
// fitted on all of cases. So no threshold is chosen on what its weights
// were fitted on, and when cases are four folds of the development half the
// fifth is not seen at all.
func TrainClauseModel(ctx context.Context, cases []Case) (*builtin.ClauseModel, error) {
	groups := map[int][]Case{}
	for _, c := range cases {
		groups[FoldOf(c.Name)] = append(groups[FoldOf(c.Name)], c)
	}
	sums := make([]Tally, len(settings))
	if len(groups) >= 2 {
		for g := range Folds {
			test := groups[g]
			if len(test) == 0 {
				continue
			}
			var train []Case
			for _, c := range cases {
				if FoldOf(c.Name) != g {
					train = append(train, c)
				}
			}
			m := fitClauseModel(train)
			for i, s := range settings {
				m.TaskFloor, m.PlanFloor, m.TaskPropose = s.floor, s.floor, s.propose
				t, err := Score1(ctx, builtin.NewWithModel(m), test)
				if err != nil {
					return nil, err
				}
				sums[i].Add(t)
			}
		}
	}
	task, plan := 0, 0
	for i := range settings {
		if sums[i].Items.F1() > max(sums[task].Items.F1(), sums[0].Items.F1()+minGain) {
			task = i
		}
		if settings[i].propose == 0 && sums[i].Events.F1() > max(sums[plan].Events.F1(), sums[0].Events.F1()+minGain) {
			plan = i
		}
	}
	m := fitClauseModel(cases)
	m.TaskFloor, m.TaskPropose, m.PlanFloor = settings[task].floor, settings[task].propose, settings[plan].floor
	return m, nil
}

// Score1 runs ex over cases and sums their tallies.
func Score1(ctx context.Context, ex *builtin.Builtin, cases []Case) (Tally, error) {
	p := pipeline.New(ex, nil)
	var sum Tally
	for i := range cases {
		c := &cases[i]
		conv := c.Conversation()
		res, err := p.Process(ctx, conv, pipeline.Options{Location: c.Location()})
		if err != nil {
			return sum, fmt.Errorf("%s: %w", c.Name, err)
		}
		t, _ := Score(c, Outcome{Discarded: conv.Discarded, Structured: conv.Structured, Memories: res.Memories})
		sum.Add(t)
	}
	return sum, nil
}

// CVFold is one fold's figures: the rules alone and the rules checked by a
// clause model trained on the other folds.
type CVFold struct {
	Cases        int
	Rules, Model Tally
	TaskFloor    float64
	PlanFloor    float64
	TaskPropose  float64
	// TaskClauses and PlanClauses score the classifier alone on the fold's
	// labelled clauses, a clause taken when its probability is at least 0.5.
	TaskClauses, PlanClauses Counts
	// TaskAUC and PlanAUC are the area under the ROC curve of the
	// classifier's ranking of the fold's clauses.
	TaskAUC, PlanAUC float64
}

// rocArea is the chance that a positive is scored over a negative (ties
// count half).
func rocArea(w []float32, xs [][]uint32, ys []bool) float64 {
	var pos, neg []float64
	for i, x := range xs {
		if p := builtin.Probability(w, x); ys[i] {
			pos = append(pos, p)
		} else {
			neg = append(neg, p)
		}
	}
	if len(pos) == 0 || len(neg) == 0 {
		return 1
	}
	sort.Float64s(neg)
	var sum float64
	for _, p := range pos {
		lo := sort.SearchFloat64s(neg, p)
		hi := sort.Search(len(neg), func(i int) bool { return neg[i] > p })
		sum += float64(lo) + float64(hi-lo)/2
	}
	return sum / float64(len(pos)*len(neg))
}

// clauseCounts scores probabilities against labels at 0.5.
func clauseCounts(w []float32, xs [][]uint32, ys []bool) Counts {
	var c Counts
	for i, x := range xs {
		p := builtin.Probability(w, x) >= 0.5
		if ys[i] {
			c.Want++
		}
		switch {
		case p && ys[i]:
			c.Hit++
		case p:
			c.Extra++
		}
	}
	return c
}

// CrossValidate scores the rules alone and the rules with a clause model
// trained on the other folds, fold by fold, over the development cases and
// the live twins of the punctuated ones (which the rules were not written
// against, so the rules' own figure there is no longer dev-on-dev only).
func CrossValidate(ctx context.Context, cases []Case) ([]CVFold, error) {
	dev := WithTwins(DevCases(cases))
	out := make([]CVFold, Folds)
	for k := range Folds {
		var train, test []Case
		for _, c := range dev {
			if FoldOf(c.Name) == k {
				test = append(test, c)
			} else {
				train = append(train, c)
			}
		}
		m, err := TrainClauseModel(ctx, train)
		if err != nil {
			return nil, err
		}
		rules, err := Score1(ctx, builtin.NewWithModel(nil), test)
		if err != nil {
			return nil, err
		}
		model, err := Score1(ctx, builtin.NewWithModel(m), test)
		if err != nil {
			return nil, err
		}
		d := Clauses(test)
		out[k] = CVFold{Cases: len(test), Rules: rules, Model: model, TaskFloor: m.TaskFloor, PlanFloor: m.PlanFloor, TaskPropose: m.TaskPropose,
			TaskClauses: clauseCounts(m.Task, d.X, d.Task), PlanClauses: clauseCounts(m.Plan, d.X, d.Plan),
			TaskAUC: rocArea(m.Task, d.X, d.Task), PlanAUC: rocArea(m.Plan, d.X, d.Plan)}
	}
	return out, nil
}

// CVMean is a figure's mean over the folds.
type CVMean struct {
	Name         string
	Rules, Model float64
}

// CVMeans are the main figures' means over the folds.
func CVMeans(folds []CVFold) []CVMean {
	figs := []struct {
		name string
		f    func(Tally) float64
	}{
		{"events F1", func(t Tally) float64 { return t.Events.F1() }},
		{"events precision", func(t Tally) float64 { return t.Events.Precision() }},
		{"events recall", func(t Tally) float64 { return t.Events.Recall() }},
		{"action items F1", func(t Tally) float64 { return t.Items.F1() }},
		{"action items precision", func(t Tally) float64 { return t.Items.Precision() }},
		{"action items recall", func(t Tally) float64 { return t.Items.Recall() }},
		{"instant exact", func(t Tally) float64 { return t.Instants().ExactRate() }},
		{"memories precision", func(t Tally) float64 { return t.Memories.Precision() }},
		{"discard accuracy", func(t Tally) float64 { return t.DiscardAccuracy() }},
	}
	out := make([]CVMean, len(figs))
	for i, f := range figs {
		out[i].Name = f.name
		for _, fd := range folds {
			out[i].Rules += f.f(fd.Rules) / float64(len(folds))
			out[i].Model += f.f(fd.Model) / float64(len(folds))
		}
	}
	return out
}

// CVTable is the cross-validation as a Markdown table.
func CVTable(folds []CVFold) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| figure (mean of %d folds) | rules alone | rules + clause model |\n|---|---|---|\n", len(folds))
	for _, m := range CVMeans(folds) {
		fmt.Fprintf(&b, "| %s | %.3f | %.3f |\n", m.Name, m.Rules, m.Model)
	}
	b.WriteString("\n| fold | cases | events F1 rules / model | action items F1 rules / model | task floor, propose / plan floor | task clauses P / R (labelled), AUC | plan clauses P / R (labelled), AUC |\n|---|---|---|---|---|---|---|\n")
	for k, f := range folds {
		fmt.Fprintf(&b, "| %d | %d | %.3f / %.3f | %.3f / %.3f | %g, %g / %g | %.2f / %.2f (%d), %.3f | %.2f / %.2f (%d), %.3f |\n", k, f.Cases,
			f.Rules.Events.F1(), f.Model.Events.F1(), f.Rules.Items.F1(), f.Model.Items.F1(), f.TaskFloor, f.TaskPropose, f.PlanFloor,
			f.TaskClauses.Precision(), f.TaskClauses.Recall(), f.TaskClauses.Want, f.TaskAUC,
			f.PlanClauses.Precision(), f.PlanClauses.Recall(), f.PlanClauses.Want, f.PlanAUC)
	}
	return b.String()
}
