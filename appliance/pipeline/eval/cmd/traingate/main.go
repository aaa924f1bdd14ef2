// Command traingate fits the built-in extractor's task gate
// (appliance/pipeline/builtin/gate.go) on the development half of the
// evaluation corpus and its live twins, never the held-out half, and writes
// it; run by `go generate` in appliance/pipeline/builtin. The gate keeps
// thresholds only when, trained on development folds 0-3 (thresholds by
// cross-validation inside them), it raised the action items F1 of fold 4,
// which no round has read, and of fold 4's twins.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/eval"
)

// checkFold is the development fold kept unread, on which the gate is
// checked before it is adopted.
const checkFold = 4

func main() {
	corpus := flag.String("corpus", "../eval/testdata/conversations", "the labelled conversations")
	out := flag.String("out", "gate.txt", "where the gate goes")
	flag.Parse()
	if err := run(*corpus, *out); err != nil {
		fmt.Fprintln(os.Stderr, "traingate:", err)
		os.Exit(1)
	}
}

func run(corpus, out string) error {
	cases, err := eval.Load(corpus)
	if err != nil {
		return err
	}
	ctx := context.Background()
	check, err := eval.CheckGate(ctx, cases, checkFold)
	if err != nil {
		return err
	}
	dev := eval.DevCases(cases)
	g, err := eval.TrainGate(ctx, eval.WithTwins(dev))
	if err != nil {
		return err
	}
	verdict := "adopted: the check improved"
	if !check.Improves() {
		g.Drop, g.Accept = 0, 0
		verdict = "not adopted (thresholds 0, the rules alone): the check did not improve"
	}
	header := fmt.Sprintf("Task gate of the built-in extractor: written by `go generate` (eval/cmd/traingate)\n"+
		"from the %d development conversations of the evaluation corpus and their live twins; do not edit.\n"+
		"Check, trained on folds 0-3 and scored on fold %d:\n%s%s.",
		len(dev), checkFold, check, verdict)
	fmt.Print(check)
	fmt.Println(verdict)
	return os.WriteFile(out, g.Marshal(strings.TrimSpace(header)), 0o644)
}
