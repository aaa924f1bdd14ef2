package builtin_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// StructureAndMemories gives exactly what Structure and Memories give on
// their own, on every transcript of the quality corpus.
func TestBuiltin_StructureAndMemoriesMatchesTheTwoCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := builtin.New()
	withMemories := 0
	for _, e := range loadCorpus(t) {
		c, loc := e.conversation(t)
		in := transcriptInput(c, loc, "Ada")
		wantS, err := b.Structure(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		wantM, err := b.Memories(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		gotS, gotM, err := b.StructureAndMemories(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotS, wantS) {
			t.Errorf("%s: structure\n got %+v\nwant %+v", e.file, gotS, wantS)
		}
		if !reflect.DeepEqual(gotM, wantM) {
			t.Errorf("%s: memories\n got %+v\nwant %+v", e.file, gotM, wantM)
		}
		if len(wantM) > 0 {
			withMemories++
		}
	}
	if withMemories == 0 {
		t.Fatal("no corpus transcript gave memories; the comparison proves nothing")
	}
}

// countingBuiltin counts the separate calls the pipeline makes.
type countingBuiltin struct {
	*builtin.Builtin
	structures, memories int
}

func (c *countingBuiltin) Structure(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, error) {
	c.structures++
	return c.Builtin.Structure(ctx, in)
}

func (c *countingBuiltin) Memories(ctx context.Context, in appliance.TranscriptInput) ([]appliance.Memory, error) {
	c.memories++
	return c.Builtin.Memories(ctx, in)
}

// The pipeline reads the transcript once when the extractor can give the
// structure and the memories together.
func TestProcess_AsksForStructureAndMemoriesAtOnce(t *testing.T) {
	t.Parallel()
	ex := &countingBuiltin{Builtin: builtin.New()}
	p := pipeline.New(ex, nil)
	for _, e := range loadCorpus(t) {
		c, loc := e.conversation(t)
		if _, err := p.Process(context.Background(), c, pipeline.Options{Location: loc}); err != nil {
			t.Fatalf("%s: %v", e.file, err)
		}
	}
	if ex.structures != 0 || ex.memories != 0 {
		t.Errorf("Structure called %d times and Memories %d times, want neither", ex.structures, ex.memories)
	}
}

// Analyses are pooled: what the extractor makes of a transcript must not
// depend on which transcripts it read before, nor on others read at the
// same time.
func TestBuiltin_ResultsDoNotDependOnEarlierTranscripts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := builtin.New()
	entries := loadCorpus(t)
	type result struct {
		s       appliance.Structured
		m       []appliance.Memory
		discard bool
	}
	run := func(i int) result {
		c, loc := entries[i].conversation(t)
		in := transcriptInput(c, loc, "")
		s, m, err := b.StructureAndMemories(ctx, in)
		if err != nil {
			t.Error(err)
		}
		discard, err := b.ShouldDiscard(ctx, in)
		if err != nil {
			t.Error(err)
		}
		return result{s, m, discard}
	}
	forward := make([]result, len(entries))
	for i := range entries {
		forward[i] = run(i)
	}
	backward := make([]result, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		backward[i] = run(i)
	}
	concurrent := make([]result, len(entries))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(entries); i += 4 {
				concurrent[i] = run(i)
			}
		})
	}
	wg.Wait()
	for i, e := range entries {
		if !reflect.DeepEqual(forward[i], backward[i]) || !reflect.DeepEqual(forward[i], concurrent[i]) {
			t.Errorf("%s: results differ by order\nforward    %+v\nbackward   %+v\nconcurrent %+v", e.file, forward[i], backward[i], concurrent[i])
		}
	}
}

// transcriptInput is what the pipeline gives the extractor of c.
func transcriptInput(c *appliance.Conversation, loc *time.Location, userName string) appliance.TranscriptInput {
	started := c.CreatedAt
	if c.StartedAt != nil {
		started = *c.StartedAt
	}
	return appliance.TranscriptInput{Segments: c.TranscriptSegments, Language: c.Language, Source: c.Source,
		StartedAt: started, Duration: c.Duration(), Location: loc, UserName: userName}
}
