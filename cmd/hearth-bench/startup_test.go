package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// The startup scenario builds the echo floor, starts it and the (fake)
// server in turn, on an empty folder and on a used one, and reports each
// kind with its ratio to the floor and the load it ran under.
func TestStartupScenarioAgainstTheFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the echo floor")
	}
	exe := self(t)
	tmp, _ := fakeEnv(t, "")
	cfg, err := parseFlags([]string{"-hearth", exe, "-scenarios", "startup", "-startup-rounds", "2"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	md := stdout.String()
	for _, kind := range []string{startFloor, startFresh, startRestart} {
		row := tableRow(md, kind)
		if len(row) != 8 {
			t.Fatalf("no row for %q in\n%s", kind, md)
		}
		if !strings.HasSuffix(row[1], "ms") || !strings.HasSuffix(row[5], "MiB") {
			t.Errorf("%s: no time or memory: %v", kind, row)
		}
		if kind != startFloor && !strings.Contains(row[4], "×") {
			t.Errorf("%s: no ratio to the floor: %v", kind, row)
		}
	}
	if !strings.Contains(md, "load average") {
		t.Errorf("no load average in\n%s", md)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		for _, e := range left {
			if strings.HasPrefix(e.Name(), "hearth-bench-startup-") {
				t.Errorf("left behind: %s", e.Name())
			}
		}
	}
}
