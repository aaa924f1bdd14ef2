// Command trainclauses fits the built-in extractor's clause model
// (appliance/pipeline/builtin/clausemodel.go) on the development half of the
// evaluation corpus, never the held-out half, and writes its weights; run by
// `go generate` in appliance/pipeline/builtin.
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
	dev := eval.DevCases(cases)
	m, err := eval.TrainClauseModel(context.Background(), dev)
	if err != nil {
		return err
	}
	header := fmt.Sprintf("Clause model of the built-in extractor: written by `go generate` (eval/cmd/trainclauses)\n"+
		"from the %d development conversations of the evaluation corpus; do not edit.", len(dev))
	return os.WriteFile(out, m.Marshal(header), 0o644)
}
