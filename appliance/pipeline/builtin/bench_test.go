package builtin

import (
	"context"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

// benchInput is a 50-segment transcript assembled from the sample
// conversations: about 900 words, a long meeting's worth.
func benchInput() appliance.TranscriptInput {
	var texts []string
	for len(texts) < 50 {
		for _, s := range samples {
			texts = append(texts, s.segments...)
		}
	}
	return appliance.TranscriptInput{Segments: segments(texts[:50]...), Language: "en"}
}

func BenchmarkBuiltinStructure(b *testing.B) {
	in := benchInput()
	ex := New()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Structure(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuiltinShouldDiscard(b *testing.B) {
	in := benchInput()
	ex := New()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.ShouldDiscard(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuiltinStructureClauseModel is Structure with the clause model
// active (floors and proposals on), what a create would cost if
// cross-validation adopted it; the shipped model has none on.
func BenchmarkBuiltinStructureClauseModel(b *testing.B) {
	in := benchInput()
	m := *embeddedModel()
	m.TaskFloor, m.PlanFloor, m.TaskPropose = 0.01, 0.01, 0.9
	ex := NewWithModel(&m)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Structure(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}
