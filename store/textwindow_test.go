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
