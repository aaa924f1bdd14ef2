package builtin

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestClauseModelRoundTrip(t *testing.T) {
	m := NewClauseModel()
	m.Task[7], m.Task[1<<featureBits-1], m.Plan[42] = 1.25, -0.5, 3
	m.TaskFloor, m.PlanFloor, m.TaskPropose = 0.05, 0.1, 0.9
	got, err := ParseClauseModel(m.Marshal("a header\nof two lines"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"task 99999999 1\n", "bits - 12\n", "task x 1\n", "weights 1 2\n", "task 1\n"} {
		if _, err := ParseClauseModel([]byte(bad)); err == nil {
			t.Errorf("ParseClauseModel(%q) = nil error", bad)
		}
	}
}

// The embedded model parses, and its thresholds are what its header says
// cross-validation adopted; with none adopted the extractor is the rules.
func TestEmbeddedClauseModel(t *testing.T) {
	m := embeddedModel()
	if len(m.Task) != 1<<featureBits || len(m.Plan) != 1<<featureBits {
		t.Fatalf("weights %d, %d", len(m.Task), len(m.Plan))
	}
	in := dialogueInput(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC),
		turn{"U", "I need to send Maria the budget report by Friday."},
		turn{"1", "The plumber is coming on Thursday at 10."})
	ctx := context.Background()
	got, err := New().Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewWithModel(nil).Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if m.TaskFloor == 0 && m.PlanFloor == 0 && m.TaskPropose == 0 {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("a model with no thresholds changed the rules' output (-rules +model):\n%s", diff)
		}
	}
}

// TrainLogistic separates a toy problem: feature 1 marks the positives.
func TestTrainLogistic(t *testing.T) {
	var xs [][]uint32
	var ys []bool
	for i := range 200 {
		pos := i%3 == 0
		x := []uint32{0, uint32(2 + i%5)}
		if pos {
			x = append(x, 1)
		}
		xs, ys = append(xs, x), append(ys, pos)
	}
	w := TrainLogistic(xs, ys, 20, 0.2, 1e-4, 1)
	if p := Probability(w, []uint32{0, 3, 1}); p < 0.9 {
		t.Errorf("positive scored %.3f, want ≥ 0.9", p)
	}
	if p := Probability(w, []uint32{0, 3}); p > 0.1 {
		t.Errorf("negative scored %.3f, want ≤ 0.1", p)
	}
	again := TrainLogistic(xs, ys, 20, 0.2, 1e-4, 1)
	if diff := cmp.Diff(w, again); diff != "" {
		t.Errorf("training is not deterministic:\n%s", diff)
	}
}

// clauseFeaturesBias is the index of the feature every clause has.
func clauseFeaturesBias() uint32 {
	return clauseFeatures(nil, &utterance{}, 0, 0, 0, 0, 0, time.Time{}, false)[0]
}

// constantModel scores every clause p.
func constantModel(p float64) *ClauseModel {
	m := NewClauseModel()
	bias := clauseFeaturesBias()
	z := float32(math.Log(p / (1 - p)))
	m.Task[bias], m.Plan[bias] = z, z
	return m
}

// A rule's task or plan whose utterance the model scores under the floor
// is dropped; at or over it, kept. A clause over TaskPropose with the
// structure of a commitment gives a task the rules did not.
func TestClauseModelFloorsAndProposals(t *testing.T) {
	start := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	in := dialogueInput(start,
		turn{"U", "I need to send Maria the budget report by Friday."},
		turn{"1", "The plumber is coming on Thursday at 10."})
	ctx := context.Background()
	rules, _ := NewWithModel(nil).Structure(ctx, in)
	if len(rules.ActionItems) == 0 || len(rules.Events) == 0 {
		t.Fatalf("the rules read %d tasks, %d events; the test needs both", len(rules.ActionItems), len(rules.Events))
	}
	low := constantModel(0.01)
	low.TaskFloor, low.PlanFloor = 0.05, 0.05
	got, _ := NewWithModel(low).Structure(ctx, in)
	if len(got.ActionItems) != 0 || len(got.Events) != 0 {
		t.Errorf("under the floors: %d tasks, %d events kept, want none", len(got.ActionItems), len(got.Events))
	}
	high := constantModel(0.5)
	high.TaskFloor, high.PlanFloor = 0.05, 0.05
	got, _ = NewWithModel(high).Structure(ctx, in)
	if len(got.ActionItems) != len(rules.ActionItems) || len(got.Events) != len(rules.Events) {
		t.Errorf("over the floors: %d tasks, %d events, want the rules' %d, %d", len(got.ActionItems), len(got.Events),
			len(rules.ActionItems), len(rules.Events))
	}

	// "If I get time I should…": the rules' condition veto drops it; a
	// model sure of it proposes it, with the commitment's deed
	cond := dialogueInput(start, turn{"U", "If I get time I should write a proposal for caching Docker layers."})
	if base, _ := NewWithModel(nil).Structure(ctx, cond); len(base.ActionItems) != 0 {
		t.Fatalf("the rules read %v; the test needs a vetoed commitment", base.ActionItems)
	}
	sure := constantModel(0.99)
	sure.TaskPropose = 0.9
	got, _ = NewWithModel(sure).Structure(ctx, cond)
	if len(got.ActionItems) != 1 || got.ActionItems[0].Description != "Write a proposal for caching Docker layers" {
		t.Errorf("proposed %v, want Write a proposal for caching Docker layers", got.ActionItems)
	}
	unsure := constantModel(0.8)
	unsure.TaskPropose = 0.9
	if got, _ = NewWithModel(unsure).Structure(ctx, cond); len(got.ActionItems) != 0 {
		t.Errorf("proposed %v under the threshold", got.ActionItems)
	}
}
