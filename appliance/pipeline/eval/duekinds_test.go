package eval_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
	"github.com/hearth-appliance/hearth/appliance/pipeline/eval"
)

// TestDueKinds tallies the development conversations' action items (and
// their live twins') by the kind of time said with the task, and how often
// the extractor's due agrees with the label, kind by kind. HEARTH_EVAL=dues
// logs the table and the disagreements of every fold but the unread one
// (HEARTH_EVAL_FOLD, 4 unless set), whose table is logged without them.
func TestDueKinds(t *testing.T) {
	t.Parallel()
	hold := 4
	if f := os.Getenv("HEARTH_EVAL_FOLD"); f != "" {
		hold, _ = strconv.Atoi(f)
	}
	var read, unread []eval.Case
	for _, c := range eval.WithTwins(eval.DevCases(loadCorpus(t))) {
		if eval.FoldOf(c.Name) == hold {
			unread = append(unread, c)
		} else {
			read = append(read, c)
		}
	}
	p := pipeline.New(builtin.New(), nil)
	ks, err := eval.DueKinds(context.Background(), p, read)
	if err != nil {
		t.Fatal(err)
	}
	held, err := eval.DueKinds(context.Background(), p, unread)
	if err != nil {
		t.Fatal(err)
	}
	labels, agree := 0, 0
	for _, k := range ks {
		labels += k.Labels
		agree += k.Exact
	}
	if labels < 140 {
		t.Errorf("%d labelled action items on the read folds, want the corpus's 140 or more", labels)
	}
	// floor: the measured agreement minus a margin (docs/benchmarks.md)
	if agree < 110 {
		t.Errorf("due agrees with the label on %d of %d items of the read folds, below the floor 110 (measured 116)", agree, labels)
	}
	mode := os.Getenv("HEARTH_EVAL")
	if mode != "dues" && mode != "dues-all" {
		return
	}
	t.Logf("folds but %d (%d conversations with twins):\n%s", hold, len(read), eval.DueKindTable(ks))
	for _, k := range ks {
		lines := k.Misses
		if mode == "dues-all" {
			lines = k.All
		}
		for _, m := range lines {
			t.Logf("%s: %s", k.Kind, m)
		}
	}
	hl, hm, he := 0, 0, 0
	for _, k := range held {
		hl, hm, he = hl+k.Labels, hm+k.Matched, he+k.Exact
	}
	t.Logf("read folds: %d labelled, due agrees on %d; unread fold %d (%d conversations with twins), totals only: %d labelled, %d matched, due agrees on %d",
		labels, agree, hold, len(unread), hl, hm, he)
}
