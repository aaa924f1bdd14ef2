package embed_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/logtest"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/store"
)

// previousVersion stands for the built-in embedder before the current
// algoVersion: same vectors' shape, the model name stored vectors carry in
// a database written by the previous release.
type previousVersion struct{ *embed.Builtin }

func (previousVersion) Model() string { return "builtin-hash-384-v1" }

// waitEmbedded waits until the indexer has embedded n items; the bound
// catches a hang, it does not measure speed.
func waitEmbedded(t *testing.T, ix *search.Indexer, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for p := ix.Progress(); p.Total != n || p.Embedded != n || p.Reembed; p = ix.Progress() {
		if time.Now().After(deadline) {
			t.Fatalf("indexer stuck at %+v of %d items", p, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNewVersionReembedsStoredVectors opens a store whose vectors were
// written by the previous version of the built-in embedder with the
// current one: the indexer must say it is re-embedding, replace every
// vector (its progress counts the current model's), and log when it is
// done.
func TestNewVersionReembedsStoredVectors(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Now()
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "Ada", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	const n = 300 // several of the indexer's batches
	ms := make([]*appliance.Memory, n)
	for i := range ms {
		ms[i] = &appliance.Memory{ID: fmt.Sprintf("m%d", i), UserID: "u1", Content: fmt.Sprintf("Memory %d: my daughter's piano lesson moved to room %d", i, i),
			Category: "system", CreatedAt: now, UpdatedAt: now}
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}

	oldCtx, stopOld := context.WithCancel(ctx)
	old := search.NewIndexer(db, previousVersion{embed.NewBuiltin(0)}, nil)
	if err := old.Start(oldCtx); err != nil {
		t.Fatal(err)
	}
	waitEmbedded(t, old, n)
	stopOld()
	old.Wait()

	var logs logtest.Buffer
	emb := embed.NewBuiltin(0)
	ix := search.NewIndexer(db, emb, slog.New(slog.NewTextHandler(&logs, nil)))
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if p := ix.Progress(); p.Model != emb.Model() {
		t.Fatalf("progress after a version change = %+v, want the model %s", p, emb.Model())
	}
	// Embedded counts vectors of the current model only, so reaching n
	// means every old vector was replaced.
	waitEmbedded(t, ix, n)
	// The last line is written just after the progress says done.
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(logs.String(), "re-embedding finished") {
		if time.Now().After(deadline) {
			t.Fatalf("log lacks \"re-embedding finished\":\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "embedding model changed") {
		t.Errorf("log lacks \"embedding model changed\":\n%s", logs.String())
	}
	// The new vectors are the ones searched: a paraphrase finds its memory.
	hits, err := search.NewSearcher(db, emb, nil).Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: "my kid's music class", Limit: 5})
	if err != nil || len(hits) == 0 {
		t.Fatalf("search after re-embedding: %v, %v", hits, err)
	}
}
