package eval_test

import (
	"context"
	"os"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/pipeline/eval"
)

// TestGateCheck trains the task gate on development folds 0-3 and their
// twins (thresholds by cross-validation inside them) and scores it on fold
// 4 and its twins, which no round has read, beside the rules alone; the
// committed gate keeps thresholds only when that check improved
// (eval/cmd/traingate). Slow-ish (a few seconds): HEARTH_EVAL=gate runs
// and logs it.
func TestGateCheck(t *testing.T) {
	if os.Getenv("HEARTH_EVAL") != "gate" {
		t.Skip("HEARTH_EVAL=gate runs the task gate's check")
	}
	cases := loadCorpus(t)
	ctx := context.Background()
	var train []eval.Case
	for _, c := range eval.WithTwins(eval.DevCases(cases)) {
		if eval.FoldOf(c.Name) != 4 {
			train = append(train, c)
		}
	}
	sums, err := eval.GateSweep(ctx, train)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cross-validated on folds 0-3 with twins:\n%s", eval.GateSweepTable(sums))
	c, err := eval.CheckGate(ctx, cases, 4)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", c)
}
