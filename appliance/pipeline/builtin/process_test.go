package builtin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// These run the built-in extractor inside the pipeline, which imports this
// package: they are external tests.

func TestBuiltinMemoriesFromPipeline(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	in := builtin.DialogueInput(start, [2]string{"U", "I'm allergic to shellfish, so no paella for me."})
	c := &appliance.Conversation{ID: "m", Source: appliance.SourceOmi, Language: "en", StartedAt: &start, TranscriptSegments: in.Segments}
	res, err := pipeline.New(builtin.New(), nil).Process(context.Background(), c, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []appliance.Memory{{Content: "User is allergic to shellfish", Category: appliance.MemorySystem}}
	if d := cmp.Diff(want, res.Memories); d != "" {
		t.Errorf("memories (-want +got):\n%s", d)
	}
	if !strings.Contains(strings.ToLower(c.Structured.Title+c.Structured.Overview), "shellfish") {
		t.Errorf("structure %+v does not mention shellfish", c.Structured)
	}
}

func BenchmarkPipelineProcess(b *testing.B) {
	in := builtin.BenchInput()
	p := pipeline.New(builtin.New(), nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c := &appliance.Conversation{ID: "bench", Source: appliance.SourceOmi, Language: "en", TranscriptSegments: in.Segments}
		if _, err := p.Process(ctx, c, pipeline.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	// Throughput of the built-in route on one core, as make bench reports it.
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "conversations/s")
}
