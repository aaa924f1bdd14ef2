package builtin

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestGateRoundTrip(t *testing.T) {
	g := NewGate()
	g.W[3], g.W[1<<featureBits-1] = 0.75, -2
	g.Drop, g.Accept = 0.2, 0.9
	got, err := ParseGate(g.Marshal("a header\nof two lines"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"99999999 1\n", "bits 12\n", "x 1\n", "1\n", "drop x\n"} {
		if _, err := ParseGate([]byte(bad)); err == nil {
			t.Errorf("ParseGate(%q) = nil error", bad)
		}
	}
}

// The embedded gate parses; with no thresholds (its check did not improve,
// gate.txt's header) the extractor's output is the rules'.
func TestEmbeddedGate(t *testing.T) {
	g := EmbeddedGate()
	if len(g.W) != 1<<featureBits {
		t.Fatalf("%d weights", len(g.W))
	}
	in := dialogueInput(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC),
		turn{"U", "I need to send Maria the budget report by Friday."},
		turn{"1", "Can you also book the meeting room?"}, turn{"U", "Sure."})
	ctx := context.Background()
	got, err := New().Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewWithGate(nil).Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if g.Drop == 0 && g.Accept == 0 {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("a gate with no thresholds changed the rules' output (-rules +gate):\n%s", diff)
		}
	}
}

// A gate drops the candidates it scores under Drop and makes a task of a
// clause no rule proposed that it scores at least Accept, when the clause
// has a commitment's structure.
func TestGateDropsAndAccepts(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, ny)
	in := dialogueInput(start,
		turn{"U", "I need to send Maria the budget report by Friday."},
		turn{"1", "Great, and the venue?"},
		turn{"U", "We should grab a beer with the team."},
		turn{"U", "The weather was lovely yesterday."})
	ctx := context.Background()
	rules, err := NewWithGate(nil).Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]item{{"Send Maria the budget report", "2026-03-13 23:59"}}, items(rules, ny)); d != "" {
		t.Fatalf("the rules alone (-want +got):\n%s", d)
	}
	drop := NewGate()
	drop.W[hashFeature("cand")] = -5
	drop.Drop = 0.5
	got, err := NewWithGate(drop).Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]item{}, items(got, ny)); d != "" {
		t.Errorf("a gate scoring every candidate low (-want +got):\n%s", d)
	}
	accept := NewGate()
	accept.W[hashFeature("free")] = 5
	accept.Accept = 0.5
	got, err = NewWithGate(accept).Structure(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	// the sociable clause the rules veto is taken; the weather has no
	// commitment's structure and stays out
	want := []item{{"Send Maria the budget report", "2026-03-13 23:59"}, {"Grab a beer with the team", ""}}
	if d := cmp.Diff(want, items(got, ny)); d != "" {
		t.Errorf("a gate scoring every free clause high (-want +got):\n%s", d)
	}
}

// BenchmarkBuiltinStructureGate is Structure with the task gate on (the
// embedded weights, a drop and an accept threshold), what a create would
// cost if its check adopted it; the shipped gate has none on.
func BenchmarkBuiltinStructureGate(b *testing.B) {
	in := benchInput()
	g := *EmbeddedGate()
	g.Drop, g.Accept = 0.01, 0.99
	ex := NewWithGate(&g)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Structure(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}
