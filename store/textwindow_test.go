package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// TestSearch_TextWindow: a common word ranks among its newest matches
// only (its cost no longer grows with the index), while a rare word still
// finds a document older than all of them.
func TestSearch_TextWindow(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	old := time.Now().Add(-48 * time.Hour)
	ms := []*appliance.Memory{
		newMemory("m-old-rare", "u1", "the zebra at the old zoo", old),
		newMemory("m-old-common", "u1", "garden garden garden garden", old),
	}
	for i := range 3*store.TextWindow + 100 {
		// "garden" in a third of them: common, but not so common that BM25
		// gives up on it (a word in most documents scores next to nothing).
		word := "kitchen"
		if i%3 == 0 {
			word = "garden"
		}
		ms = append(ms, newMemory(fmt.Sprintf("m%05d", i), "u1", fmt.Sprintf("%s note %d", word, i), old.Add(time.Duration(i)*time.Second)))
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: "zebra", Limit: 5})
	if err != nil || len(hits) != 1 || hits[0].ItemID != "m-old-rare" {
		t.Fatalf("zebra: %v, %v; want the old memory", hits, err)
	}
	hits, err = db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: "garden", Limit: 5})
	if err != nil || len(hits) != 5 {
		t.Fatalf("garden: %v, %v", hits, err)
	}
	for _, h := range hits {
		// Over the whole index the old memory, "garden" four times in four
		// words, would rank first; it is outside the window.
		if h.ItemID == "m-old-common" {
			t.Errorf("garden ranked %s, outside its newest %d matches", h.ItemID, store.TextWindow)
		}
	}
}

// TestSearch_TextWindowPerKind: the window counts the kind searched only.
// Newer action items full of the word do not push a memory search past
// its own newest matches (it used to widen the window until it held the
// old memory, at the cost of scoring every match of every kind).
func TestSearch_TextWindowPerKind(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	old := time.Now().Add(-72 * time.Hour)
	ms := []*appliance.Memory{newMemory("m-old", "u1", "garden garden garden garden", old)}
	for i := range store.TextWindow + 10 {
		ms = append(ms, newMemory(fmt.Sprintf("m%05d", i), "u1", fmt.Sprintf("garden note %d", i), old.Add(time.Duration(i+1)*time.Second)))
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	var items []*appliance.ActionItem
	now := time.Now()
	for i := range 3 * store.TextWindow {
		items = append(items, &appliance.ActionItem{ID: fmt.Sprintf("a%05d", i), UserID: "u1",
			Description: fmt.Sprintf("Water the garden, round %d", i), CreatedAt: &now, UpdatedAt: &now})
	}
	if err := db.CreateActionItems(ctx, items); err != nil {
		t.Fatal(err)
	}
	hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: "garden", Limit: 5})
	if err != nil || len(hits) != 5 {
		t.Fatalf("garden: %v, %v", hits, err)
	}
	for _, h := range hits {
		if h.ItemID == "m-old" {
			t.Errorf("the memory search ranked %s, outside its kind's newest %d matches: other kinds' matches filled its window", h.ItemID, store.TextWindow)
		}
	}
	hits, err = db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindActionItem, Text: "water garden", Limit: 3})
	if err != nil || len(hits) != 3 || hits[0].ItemID[0] != 'a' {
		t.Fatalf("action items: %v, %v", hits, err)
	}
}
