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
