package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestIndexWorkList: documents wait on the work list until their vector is
// stored; a changed text puts one back; progress counts from the list; and
// finding pending work reads the list, not the whole index.
func TestIndexWorkList(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	if _, err := db.UseEmbeddingModel(ctx, "m1", 8); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	var ms []*appliance.Memory
	for _, id := range []string{"a", "b", "c"} {
		ms = append(ms, &appliance.Memory{ID: id, UserID: user, Content: "memory " + id, Category: "system", CreatedAt: now, UpdatedAt: now})
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	pending, err := db.PendingDocs(ctx, "m1", 10)
	if err != nil || len(pending) != 3 {
		t.Fatalf("pending %v %v", pending, err)
	}
	vec := []float32{1, 0, 0, 0, 0, 0, 0, 0}
	if err := db.PutVectors(ctx, "m1", pending[:2], [][]float32{vec, vec}); err != nil {
		t.Fatal(err)
	}
	if done, total, _ := db.IndexProgress(ctx, "m1"); done != 2 || total != 3 {
		t.Fatalf("progress %d/%d, want 2/3", done, total)
	}
	// Editing an embedded memory puts it back on the list.
	ms[0].Content, ms[0].UpdatedAt = "memory a, edited", now
	if err := db.UpdateMemory(ctx, ms[0]); err != nil {
		t.Fatal(err)
	}
	if done, total, _ := db.IndexProgress(ctx, "m1"); done != 1 || total != 3 {
		t.Fatalf("progress after an edit %d/%d, want 1/3", done, total)
	}
	// A vector for a text that changed meanwhile is not stored, and the
	// document stays on the list.
	stale := pending[0]
	if err := db.PutVectors(ctx, "m1", []appliance.SearchDoc{stale}, [][]float32{vec}); err != nil {
		t.Fatal(err)
	}
	if done, _, _ := db.IndexProgress(ctx, "m1"); done != 1 {
		t.Fatalf("a stale vector counted: %d", done)
	}
	// Deleting a memory takes it off the list and out of the count.
	if err := db.DeleteMemory(ctx, user, "c"); err != nil {
		t.Fatal(err)
	}
	if done, total, _ := db.IndexProgress(ctx, "m1"); done != 1 || total != 2 {
		t.Fatalf("progress after a delete %d/%d, want 1/2", done, total)
	}
	// A new model puts everything back on the list.
	if _, err := db.UseEmbeddingModel(ctx, "m2", 8); err != nil {
		t.Fatal(err)
	}
	if done, total, _ := db.IndexProgress(ctx, "m2"); done != 0 || total != 2 {
		t.Fatalf("progress under a new model %d/%d, want 0/2", done, total)
	}
	plan, err := db.Raw(ctx, `EXPLAIN QUERY PLAN SELECT d.doc_id, d.text FROM search_pending p
		JOIN search_docs d ON d.doc_id = p.doc_id ORDER BY p.doc_id LIMIT 64`)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(plan, " | ")
	if !strings.Contains(got, "SCAN p") || !strings.Contains(got, "SEARCH d USING INTEGER PRIMARY KEY") {
		t.Fatalf("pending work plan: %s", got)
	}
}
