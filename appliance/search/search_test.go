package search_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/events"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/store"
)

// letterEmbedder puts each text on the axis of its first letter: texts that
// start alike are close. Dims 32 (a multiple of 8, as the index needs).
type letterEmbedder struct {
	model string
	calls atomic.Int32
	fail  atomic.Bool
}

func (e *letterEmbedder) Model() string { return e.model }
func (e *letterEmbedder) Dims() int     { return 32 }
func (e *letterEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	if e.fail.Load() {
		return nil, errors.New("embedder down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 32)
		if t = strings.ToLower(t); t != "" {
			v[int(t[0])%32] = 1
		} else {
			v[0] = 1
		}
		out[i] = v
	}
	return out, nil
}

func setup(t *testing.T) (*store.DB, context.Context) {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.CreateUser(context.Background(), &appliance.User{ID: "u1", Name: "Ada", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return db, ctx
}

func addMemories(t *testing.T, db *store.DB, contents ...string) {
	t.Helper()
	var ms []*appliance.Memory
	for i, c := range contents {
		now := time.Now()
		ms = append(ms, &appliance.Memory{ID: fmt.Sprintf("%s-%d", c[:3], i), UserID: "u1", Content: c, Category: "system", CreatedAt: now, UpdatedAt: now})
	}
	if err := db.CreateMemories(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
}

// eventually polls cond with a generous bound; it does not measure speed.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached within 20s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestIndexer_EmbedsNewItemsAndReembedsOnModelChange(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	addMemories(t, db, "apples are red", "bananas are yellow")
	e1 := &letterEmbedder{model: "letters-v1"}
	ix := search.NewIndexer(db, e1, nil)
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "initial items embedded", func() bool { p := ix.Progress(); return p.Total == 2 && p.Embedded == 2 })
	addMemories(t, db, "cherries are dark")
	ix.Notify()
	eventually(t, "new item embedded", func() bool { p := ix.Progress(); return p.Total == 3 && p.Embedded == 3 })

	ctx2, cancel := context.WithCancel(context.Background())
	defer cancel()
	e2 := &letterEmbedder{model: "letters-v2"}
	ix2 := search.NewIndexer(db, e2, nil)
	if err := ix2.Start(ctx2); err != nil {
		t.Fatal(err)
	}
	eventually(t, "re-embedded under the new model", func() bool {
		p := ix2.Progress()
		return p.Model == "letters-v2" && p.Embedded == 3 && !p.Reembed
	})
	if done, _, _ := db.IndexProgress(context.Background(), "letters-v1"); done != 0 {
		t.Fatalf("%d vectors of the old model remain", done)
	}
}

// TestIndexer_StartAfter: the first look waits, yet the model is selected
// at once; what is written meanwhile is indexed once the wait has passed;
// a stop during the wait ends the indexer.
func TestIndexer_StartAfter(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	addMemories(t, db, "apples are red")
	ix := search.NewIndexer(db, &letterEmbedder{model: "letters-v1"}, nil)
	if err := ix.StartAfter(ctx, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if p := ix.Progress(); p.Model != "letters-v1" || p.Total != 1 {
		t.Fatalf("progress while waiting: %+v", p)
	}
	addMemories(t, db, "bananas are yellow")
	ix.Notify()
	eventually(t, "both items embedded", func() bool { p := ix.Progress(); return p.Total == 2 && p.Embedded == 2 })

	waiting, stop := context.WithCancel(context.Background())
	ix2 := search.NewIndexer(db, &letterEmbedder{model: "letters-v2"}, nil)
	if err := ix2.StartAfter(waiting, time.Hour); err != nil {
		t.Fatal(err)
	}
	stop()
	ix2.Wait()
	if p := ix2.Progress(); p.Embedded != 0 {
		t.Fatalf("embedded %d during the wait", p.Embedded)
	}
}

func TestIndexer_SurvivesAFailingEmbedder(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	addMemories(t, db, "apples are red")
	e := &letterEmbedder{model: "letters-v1"}
	e.fail.Store(true)
	ix := search.NewIndexer(db, e, nil)
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "error reported", func() bool { return ix.Progress().LastError != "" })
	e.fail.Store(false)
	ix.Notify()
	eventually(t, "recovered", func() bool { p := ix.Progress(); return p.Embedded == 1 && p.LastError == "" })
}

func TestSearcher(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	addMemories(t, db, "apples are red", "bananas are yellow", "avocados are green")
	e := &letterEmbedder{model: "letters-v1"}
	ix := search.NewIndexer(db, e, nil)
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "embedded", func() bool { return ix.Progress().Embedded == 3 })
	s := search.NewSearcher(db, e, nil)
	q := appliance.SearchQuery{Kind: appliance.KindMemory, Text: "yellow", Limit: 3}
	hits, err := s.Search(ctx, "u1", q)
	if err != nil || len(hits) == 0 || hits[0].ItemID != "ban-1" {
		t.Fatalf("hits %v err %v", hits, err)
	}
	// "aardvark" shares no word but its vector sits with the a-words.
	hits, _ = s.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: "aardvark", Limit: 2})
	for _, h := range hits {
		if !strings.HasPrefix(h.ItemID, "a") || h.Similarity < 0.99 {
			t.Fatalf("vector hits %v", hits)
		}
	}
	e.fail.Store(true)
	hits, err = s.Search(ctx, "u1", q)
	if err != nil || len(hits) != 1 || hits[0].ItemID != "ban-1" || hits[0].Similarity != 0 {
		t.Fatalf("text-only fallback: %v %v", hits, err)
	}
}

// TestIndexer_FollowsTheEventStream: a write published on the event stream
// wakes the indexer at once, instead of at its idle poll (30 s).
func TestIndexer_FollowsTheEventStream(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	e := &letterEmbedder{model: "letters-v1"}
	ix := search.NewIndexer(db, e, nil)
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	broker := events.NewBroker(4)
	defer broker.Close()
	go ix.Follow(ctx, broker.Subscribe(""))
	eventually(t, "the first drain", func() bool { return ix.Progress().Model == "letters-v1" && e.calls.Load() == 0 })
	addMemories(t, db, "dates are sweet")
	// Events that write nothing searchable do not wake it; a memory does.
	broker.Publish(appliance.StreamEvent{Type: appliance.EventSegmentsAppended, UserID: "u1"})
	broker.Publish(appliance.StreamEvent{Type: appliance.EventMemoryCreated, UserID: "u1"})
	deadline := time.Now().Add(5 * time.Second)
	for ix.Progress().Embedded != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the memory was not embedded within 5 s of its event (progress %+v)", ix.Progress())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestIndexer_ProgressIsNeverAhead: Progress reads the store, so items
// written since the last batch count as not embedded at once, before the
// indexer has even been told about them (the health check and the load
// driver's wait rely on it).
func TestIndexer_ProgressIsNeverAhead(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	addMemories(t, db, "apples are red", "bananas are yellow")
	e := &letterEmbedder{model: "letters-v1"}
	ix := search.NewIndexer(db, e, nil)
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "initial items embedded", func() bool { p := ix.Progress(); return p.Total == 2 && p.Embedded == 2 })
	addMemories(t, db, "cherries are dark", "dates are sweet")
	// No Notify: the indexer may be asleep for idlePoll (30 s), yet the
	// total moves at once. (Embedded may already be 3 or 4 if the indexer
	// was still looking for work; it is never counted ahead of the store.)
	p := ix.Progress()
	done, total, err := db.IndexProgress(ctx, "letters-v1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != 4 || p.Embedded > done || total != 4 {
		t.Fatalf("progress %d/%d right after two writes (store: %d/%d), want x/4 with x ≤ %d", p.Embedded, p.Total, done, total, done)
	}
	ix.Notify()
	eventually(t, "caught up", func() bool { p := ix.Progress(); return p.Total == 4 && p.Embedded == 4 })
	hits, err := search.NewSearcher(db, e, nil).Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: "sweet", Limit: 2})
	if err != nil || len(hits) == 0 || !strings.HasPrefix(hits[0].ItemID, "dat") {
		t.Fatalf("hits %v, err %v", hits, err)
	}
}
