package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// Training and checking the task gate (builtin/gate.go). Its examples are
// the rules' action item candidates, labelled by whether they match a
// labelled item (the matching rule of the scorer; a candidate matching only
// an acceptable label is left out), and the user's clauses the rules made
// no task of, labelled when they are the clause best describing a labelled
// item no candidate matched. Weights are fitted on some folds of the
// development half and the thresholds chosen by cross-validation inside
// those folds, never on a fold scored with them.

// GateData are labelled gate examples.
type GateData struct {
	X [][]uint32
	Y []bool
	// Candidates and Free count the examples of each kind, Pos their
	// positives.
	Candidates, CandidatesPos, Free, FreePos int
}

// GateExamples reads and labels the gate's examples of cases.
func GateExamples(cases []Case) GateData {
	var d GateData
	for i := range cases {
		c := &cases[i]
		exs := builtin.GateExamples(c.input())
		var cands []appliance.ActionItem
		var candAt []int
		for k, e := range exs {
			if e.Candidate {
				cands = append(cands, appliance.ActionItem{Description: e.Text})
				candAt = append(candAt, k)
			}
		}
		pos := make([]bool, len(exs))
		skip := make([]bool, len(exs))
		pair := pairing(len(c.ActionItems), len(cands), func(l, i int) int { return itemScore(c.ActionItems[l], cands[i]) })
		var unmatched []Item
		for l, i := range pair {
			if i >= 0 {
				pos[candAt[i]] = true
			} else {
				unmatched = append(unmatched, c.ActionItems[l])
			}
		}
		for k, i := range candAt {
			if pos[i] {
				continue
			}
			for _, ok := range c.OKActionItems {
				if itemScore(ok, cands[k]) > 0 {
					skip[i] = true
				}
			}
		}
		for _, it := range unmatched {
			w := contentWords(it.Description)
			best, at := 0, -1
			for k, e := range exs {
				if e.Candidate {
					continue
				}
				n := shared(w, contentWords(e.Text))
				if n > best && 3*n >= len(w) {
					best, at = n, k
				}
			}
			if at >= 0 {
				pos[at] = true
			}
		}
		for k, e := range exs {
			if skip[k] {
				continue
			}
			d.X = append(d.X, e.Features)
			d.Y = append(d.Y, pos[k])
			if e.Candidate {
				d.Candidates++
				if pos[k] {
					d.CandidatesPos++
				}
			} else {
				d.Free++
				if pos[k] {
					d.FreePos++
				}
			}
		}
	}
	return d
}

// FitGate is the gate's weights fitted on cases, with no thresholds.
func FitGate(cases []Case) *builtin.Gate {
	d := GateExamples(cases)
	g := builtin.NewGate()
	g.W = builtin.TrainLogistic(d.X, d.Y, trainEpochs, trainRate, trainL2, gatePos)
	return g
}

// gateSettings are the thresholds tried, the rules alone first so that a
// tie keeps them.
var gateSettings = func() [][2]float64 {
	var out [][2]float64
	for _, drop := range []float64{0, 0.5, 0.8, 0.9, 0.95} {
		for _, accept := range []float64{0, 0.15, 0.3, 0.5} {
			out = append(out, [2]float64{drop, accept})
		}
	}
	return out
}()

// TrainGate fits the gate on cases and picks its thresholds by
// cross-validation inside them: each fold of cases is scored under every
// setting by weights fitted on the others, and the setting with the best
// pooled action items F1 is kept when it beats the rules alone by more than
// minGain (and events are not lost). The weights are then fitted on all of
// cases.
func TrainGate(ctx context.Context, cases []Case) (*builtin.Gate, error) {
	sums, err := GateSweep(ctx, cases)
	if err != nil {
		return nil, err
	}
	best := 0
	for i := range gateSettings {
		if sums[i].Items.F1() > max(sums[best].Items.F1(), sums[0].Items.F1()+minGain) {
			best = i
		}
	}
	g := FitGate(cases)
	g.Drop, g.Accept = gateSettings[best][0], gateSettings[best][1]
	return g, nil
}

// GateSweep scores every setting of gateSettings by cross-validation
// inside cases: each fold under weights fitted on the others, pooled.
func GateSweep(ctx context.Context, cases []Case) ([]Tally, error) {
	groups := map[int][]Case{}
	for _, c := range cases {
		groups[FoldOf(c.Name)] = append(groups[FoldOf(c.Name)], c)
	}
	sums := make([]Tally, len(gateSettings))
	if len(groups) < 2 {
		return sums, nil
	}
	for k := range Folds {
		test := groups[k]
		if len(test) == 0 {
			continue
		}
		var train []Case
		for _, c := range cases {
			if FoldOf(c.Name) != k {
				train = append(train, c)
			}
		}
		g := FitGate(train)
		for i, s := range gateSettings {
			g.Drop, g.Accept = s[0], s[1]
			t, err := Score1(ctx, builtin.NewWithGate(g), test)
			if err != nil {
				return nil, err
			}
			sums[i].Add(t)
		}
	}
	return sums, nil
}

// GateSweepTable is a sweep as lines of figures.
func GateSweepTable(sums []Tally) string {
	var b strings.Builder
	for i, s := range gateSettings {
		fmt.Fprintf(&b, "drop %.2f accept %.2f: action items F1 %.3f (P %.3f R %.3f), events F1 %.3f\n", s[0], s[1],
			sums[i].Items.F1(), sums[i].Items.Precision(), sums[i].Items.Recall(), sums[i].Events.F1())
	}
	return b.String()
}

// GateCheck is the gate trained on the development folds but one, scored
// on that one (its conversations and their live twins apart) beside the
// rules alone.
type GateCheck struct {
	Fold                  int
	Drop, Accept          float64
	Train                 GateData
	Rules, Gate           Tally // the fold's conversations
	RulesTwins, GateTwins Tally // their live twins
	// AUC is the area under the ROC curve of the gate's ranking of the
	// fold's examples (candidates and free clauses, with the twins'),
	// Examples their count and Positives the labelled ones.
	AUC                 float64
	Examples, Positives int
}

// CheckGate trains the gate on every development fold but fold (with the
// live twins of their punctuated conversations) and scores it on fold.
func CheckGate(ctx context.Context, cases []Case, fold int) (GateCheck, error) {
	var train, test, twins []Case
	for _, c := range WithTwins(DevCases(cases)) {
		switch {
		case FoldOf(c.Name) != fold:
			train = append(train, c)
		case strings.HasSuffix(c.Name, liveSuffix):
			twins = append(twins, c)
		default:
			test = append(test, c)
		}
	}
	g, err := TrainGate(ctx, train)
	if err != nil {
		return GateCheck{}, err
	}
	out := GateCheck{Fold: fold, Drop: g.Drop, Accept: g.Accept, Train: GateExamples(train)}
	held := GateExamples(append(append([]Case(nil), test...), twins...))
	out.AUC, out.Examples = rocArea(g.W, held.X, held.Y), len(held.Y)
	for _, y := range held.Y {
		if y {
			out.Positives++
		}
	}
	for _, s := range []struct {
		ex    *builtin.Builtin
		cases []Case
		into  *Tally
	}{
		{builtin.NewWithGate(nil), test, &out.Rules}, {builtin.NewWithGate(g), test, &out.Gate},
		{builtin.NewWithGate(nil), twins, &out.RulesTwins}, {builtin.NewWithGate(g), twins, &out.GateTwins},
	} {
		if *s.into, err = Score1(ctx, s.ex, s.cases); err != nil {
			return out, err
		}
	}
	return out, nil
}

// String is the check as a few lines of figures.
func (c GateCheck) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trained on %d examples (%d candidates, %d matching; %d free clauses, %d stating a missed item); thresholds drop %g, accept %g\n",
		len(c.Train.Y), c.Train.Candidates, c.Train.CandidatesPos, c.Train.Free, c.Train.FreePos, c.Drop, c.Accept)
	fmt.Fprintf(&b, "ranking of fold %d's %d examples (%d positive): area under the ROC curve %.3f\n", c.Fold, c.Examples, c.Positives, c.AUC)
	for _, r := range []struct {
		name        string
		rules, gate Tally
	}{{fmt.Sprintf("fold %d", c.Fold), c.Rules, c.Gate}, {fmt.Sprintf("fold %d twins", c.Fold), c.RulesTwins, c.GateTwins}} {
		fmt.Fprintf(&b, "%s: action items F1 %.3f → %.3f (P %.3f → %.3f, R %.3f → %.3f), events F1 %.3f → %.3f, instant exact %.3f → %.3f\n",
			r.name, r.rules.Items.F1(), r.gate.Items.F1(), r.rules.Items.Precision(), r.gate.Items.Precision(),
			r.rules.Items.Recall(), r.gate.Items.Recall(), r.rules.Events.F1(), r.gate.Events.F1(),
			r.rules.Instants().ExactRate(), r.gate.Instants().ExactRate())
	}
	return b.String()
}

// Improves reports whether the gate raised the fold's action items F1 and
// its twins' without lowering either's events F1.
func (c GateCheck) Improves() bool {
	return c.Gate.Items.F1() > c.Rules.Items.F1() && c.GateTwins.Items.F1() >= c.RulesTwins.Items.F1() &&
		c.Gate.Events.F1() >= c.Rules.Events.F1() && c.GateTwins.Events.F1() >= c.RulesTwins.Events.F1()
}

// gatePos weights the gate's positives: the free clauses stating a missed
// item are a few in hundreds.
var gatePos = 20.0
