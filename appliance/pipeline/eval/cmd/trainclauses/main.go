// Command trainclauses fits the built-in extractor's clause model
// (appliance/pipeline/builtin/clausemodel.go) on the development half of the
// evaluation corpus and its live twins, never the held-out half, and writes
// its weights; run by `go generate` in appliance/pipeline/builtin.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hearth-appliance/hearth/appliance/pipeline/eval"
)

func main() {
	corpus := flag.String("corpus", "../eval/testdata/conversations", "the labelled conversations")
	out := flag.String("out", "clausemodel.txt", "where the weights go")
	flag.Parse()
	if err := run(*corpus, *out); err != nil {
		fmt.Fprintln(os.Stderr, "trainclauses:", err)
		os.Exit(1)
	}
}

func run(corpus, out string) error {
	cases, err := eval.Load(corpus)
	if err != nil {
		return err
	}
	ctx := context.Background()
	dev := eval.DevCases(cases)
	m, err := eval.TrainClauseModel(ctx, eval.WithTwins(dev))
	if err != nil {
		return err
	}
	// adopt the thresholds only where the same procedure, cross-validated
	// on the development folds, raised the figure over the rules alone
	folds, err := eval.CrossValidate(ctx, cases)
	if err != nil {
		return err
	}
	var items, events eval.CVMean
	for _, f := range eval.CVMeans(folds) {
		switch f.Name {
		case "action items F1":
			items = f
		case "events F1":
			events = f
		}
	}
	if items.Model <= items.Rules {
		m.TaskFloor, m.TaskPropose = 0, 0
	}
	if events.Model <= events.Rules {
		m.PlanFloor = 0
	}
	header := fmt.Sprintf("Clause model of the built-in extractor: written by `go generate` (eval/cmd/trainclauses)\n"+
		"from the %d development conversations of the evaluation corpus and their live twins; do not edit.\n"+
		"Cross-validated (%d folds) rules alone / with the model: action items F1 %.3f / %.3f, events F1 %.3f / %.3f;\n"+
		"thresholds kept only where the model raised the figure.", len(dev), len(folds), items.Rules, items.Model, events.Rules, events.Model)
	return os.WriteFile(out, m.Marshal(header), 0o644)
}
