package store_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// wordEmbedder is a test embedder: each vocabulary word owns one dimension,
// so cosine similarity is word overlap. Deterministic and easy to reason about.
type wordEmbedder struct{ vocab []string }

func (w wordEmbedder) Model() string { return "test-words-" + fmt.Sprint(len(w.vocab)) }
func (w wordEmbedder) Dims() int     { return 16 }
func (w wordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 16)
		v[15] = 0.01 // keeps empty texts unit length
		for _, word := range strings.Fields(strings.ToLower(t)) {
			for j, voc := range w.vocab {
				if strings.HasPrefix(word, voc) {
					v[j]++
				}
			}
		}
		var n float32
		for _, x := range v {
			n += x * x
		}
		n = float32(math.Sqrt(float64(n)))
		for j := range v {
			v[j] /= n
		}
		out[i] = v
	}
	return out, nil
}

var testVocab = wordEmbedder{vocab: []string{"budget", "money", "finance", "dentist", "tooth", "teeth", "garden", "tomato", "piano", "music"}}

// index embeds every pending doc, as the indexer does.
func index(t *testing.T, db *store.DB, e appliance.Embedder) {
	t.Helper()
	ctx := context.Background()
	for {
		docs, err := db.PendingDocs(ctx, e.Model(), 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) == 0 {
			return
		}
		texts := make([]string, len(docs))
		for i, d := range docs {
			texts[i] = d.Text
		}
		vecs, _ := e.Embed(ctx, texts)
		if err := db.PutVectors(ctx, e.Model(), docs, vecs); err != nil {
			t.Fatal(err)
		}
	}
}

func search(t *testing.T, db *store.DB, user, kind, text string, withVector bool) []string {
	t.Helper()
	q := appliance.SearchQuery{Kind: kind, Text: text, Limit: 5}
	if withVector {
		v, _ := testVocab.Embed(context.Background(), []string{text})
		q.Vector, q.Model = v[0], testVocab.Model()
	}
	hits, err := db.Search(context.Background(), user, q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.ItemID)
	}
	return out
}

func TestSearch_Hybrid(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	if _, err := db.UseEmbeddingModel(ctx, testVocab.Model(), testVocab.Dims()); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	mems := []*appliance.Memory{
		newMemory("money", "u1", "Keeps a monthly budget spreadsheet for household money", now),
		newMemory("teeth", "u1", "Sees the dentist every six months for teeth cleaning", now),
		newMemory("garden", "u1", "Grows tomato plants in the garden", now),
		newMemory("piano", "u1", "Practices piano music on Sundays", now),
		newMemory("other", "u2", "Keeps a budget for money and finance", now),
	}
	if err := db.CreateMemories(ctx, mems); err != nil {
		t.Fatal(err)
	}
	index(t, db, testVocab)
	done, total, _ := db.IndexProgress(ctx, testVocab.Model())
	if done != 5 || total != 5 {
		t.Fatalf("progress %d/%d", done, total)
	}
	t.Run("TextOnly", func(t *testing.T) {
		if got := search(t, db, "u1", appliance.KindMemory, "spreadsheet", false); len(got) != 1 || got[0] != "money" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("StemmedText", func(t *testing.T) {
		if got := search(t, db, "u1", appliance.KindMemory, "cleanings", false); len(got) != 1 || got[0] != "teeth" {
			t.Fatalf("porter stemming: got %v", got)
		}
	})
	t.Run("VectorFindsWithoutSharedWords", func(t *testing.T) {
		// "finances" shares no indexed word with the money memory, but the
		// embedder's prefix match puts them close.
		if got := search(t, db, "u1", appliance.KindMemory, "financeyness", true); len(got) == 0 || got[0] != "money" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("FusedOrder", func(t *testing.T) {
		got := search(t, db, "u1", appliance.KindMemory, "dentist tooth", true)
		if len(got) == 0 || got[0] != "teeth" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("OtherUsersNeverSeen", func(t *testing.T) {
		for _, id := range search(t, db, "u1", appliance.KindMemory, "budget money finance", true) {
			if id == "other" {
				t.Fatal("u2's memory in u1's results")
			}
		}
	})
	t.Run("KindScoped", func(t *testing.T) {
		if got := search(t, db, "u1", appliance.KindActionItem, "budget", true); len(got) != 0 {
			t.Fatalf("action item search found memories: %v", got)
		}
	})
	t.Run("FTSSyntaxIsNotInterpreted", func(t *testing.T) {
		for _, q := range []string{`"`, `budget OR`, `NEAR(`, `*`, `budget"; DROP TABLE memories; --`, `col:x`} {
			if _, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: q}); err != nil {
				t.Errorf("query %q: %v", q, err)
			}
		}
	})
	t.Run("DeletedLeavesTheIndex", func(t *testing.T) {
		if err := db.DeleteMemory(ctx, "u1", "garden"); err != nil {
			t.Fatal(err)
		}
		for _, withVector := range []bool{false, true} {
			for _, id := range search(t, db, "u1", appliance.KindMemory, "tomato garden", withVector) {
				if id == "garden" {
					t.Fatalf("deleted memory still found (vector=%v)", withVector)
				}
			}
		}
	})
	t.Run("EditedTextIsReembedded", func(t *testing.T) {
		m, _ := db.Memory(ctx, "u1", "piano")
		m.Content = "Grows tomato plants now instead"
		if err := db.UpdateMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
		if docs, _ := db.PendingDocs(ctx, testVocab.Model(), 10); len(docs) != 1 || !strings.Contains(docs[0].Text, "tomato") {
			t.Fatalf("pending after edit: %v", docs)
		}
		index(t, db, testVocab)
		if got := search(t, db, "u1", appliance.KindMemory, "tomato", true); len(got) == 0 || got[0] != "piano" {
			t.Fatalf("got %v", got)
		}
		if got := search(t, db, "u1", appliance.KindMemory, "piano music", false); len(got) != 0 {
			t.Fatalf("old text still indexed: %v", got)
		}
	})
}

func TestSearch_Conversations(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	c := sampleConversation("c1", "u1") // "Budget Review", completed
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got := search(t, db, "u1", appliance.KindConversation, "budget", false); len(got) != 1 {
		t.Fatalf("completed conversation not indexed: %v", got)
	}
	if got := search(t, db, "u1", appliance.KindActionItem, "report", false); len(got) != 1 {
		t.Fatalf("its action item not indexed: %v", got)
	}
	if err := db.DiscardConversation(ctx, "u1", "c1", true); err != nil {
		t.Fatal(err)
	}
	if got := search(t, db, "u1", appliance.KindConversation, "budget", false); len(got) != 0 {
		t.Fatalf("discarded conversation still indexed: %v", got)
	}
	db.DiscardConversation(ctx, "u1", "c1", false)
	if got := search(t, db, "u1", appliance.KindConversation, "budget", false); len(got) != 1 {
		t.Fatalf("restored conversation not indexed: %v", got)
	}
	since := time.Now().Add(time.Hour)
	if hits, _ := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindConversation, Text: "budget", Since: &since}); len(hits) != 0 {
		t.Fatalf("time bound ignored: %v", hits)
	}
	db.DeleteConversation(ctx, "u1", "c1")
	if got := search(t, db, "u1", appliance.KindConversation, "budget", false); len(got) != 0 {
		t.Fatalf("deleted conversation still indexed: %v", got)
	}
}

func TestUseEmbeddingModel_SwitchDropsVectors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	mustUser(t, db, "u1")
	db.CreateMemories(ctx, []*appliance.Memory{newMemory("m", "u1", "budget money", time.Now())})
	if reset, err := db.UseEmbeddingModel(ctx, testVocab.Model(), 16); err != nil || reset {
		t.Fatalf("first model: reset=%v err=%v", reset, err)
	}
	index(t, db, testVocab)
	db.Close()

	db, err = store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if reset, _ := db.UseEmbeddingModel(ctx, testVocab.Model(), 16); reset {
		t.Fatal("same model after restart reset the vectors")
	}
	if done, _, _ := db.IndexProgress(ctx, testVocab.Model()); done != 1 {
		t.Fatalf("vectors lost across restart: %d", done)
	}
	other := wordEmbedder{vocab: testVocab.vocab[:3]}
	if reset, err := db.UseEmbeddingModel(ctx, other.Model(), 24); err != nil || !reset {
		t.Fatalf("switch: reset=%v err=%v", reset, err)
	}
	if done, total, _ := db.IndexProgress(ctx, other.Model()); done != 0 || total != 1 {
		t.Fatalf("after switch %d/%d, want 0/1", done, total)
	}
	if _, err := db.UseEmbeddingModel(ctx, "x", 13); err == nil {
		t.Fatal("dims not a multiple of 8 accepted")
	}
}

// TestSearch_SameHitsAmongOtherSearches: a search running beside others
// takes its two retrievers one after the other instead of at once; what it
// finds must not depend on that.
func TestSearch_SameHitsAmongOtherSearches(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	if _, err := db.UseEmbeddingModel(ctx, testVocab.Model(), testVocab.Dims()); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	var mems []*appliance.Memory
	topics := []string{"budget money spreadsheet", "dentist teeth cleaning", "garden tomato seedlings", "piano music lesson"}
	for i := range 40 {
		mems = append(mems, newMemory(fmt.Sprintf("m%02d", i), "u1", fmt.Sprintf("Note %d about %s", i, topics[i%len(topics)]), now))
	}
	if err := db.CreateMemories(ctx, mems); err != nil {
		t.Fatal(err)
	}
	index(t, db, testVocab)
	queries := []string{"budget spreadsheet", "teeth", "tomato garden", "music"}
	alone := map[string]string{}
	for _, q := range queries {
		alone[q] = strings.Join(search(t, db, "u1", appliance.KindMemory, q, true), ",")
		if alone[q] == "" {
			t.Fatalf("%q found nothing alone", q)
		}
	}
	const rounds = 25
	errs := make(chan string, len(queries)*rounds)
	var wg sync.WaitGroup
	for _, q := range queries {
		wg.Go(func() {
			for range rounds {
				v, _ := testVocab.Embed(ctx, []string{q})
				hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: q, Limit: 5, Vector: v[0], Model: testVocab.Model()})
				if err != nil {
					errs <- err.Error()
					return
				}
				var ids []string
				for _, h := range hits {
					ids = append(ids, h.ItemID)
				}
				if got := strings.Join(ids, ","); got != alone[q] {
					errs <- fmt.Sprintf("%q among others: %s, alone: %s", q, got, alone[q])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
