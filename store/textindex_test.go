package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestIndexText: writes leave documents waiting for the text index, a
// search finds them anyway (it catches up first), IndexText moves them in
// batches, and edits and deletes of documents in either state keep FTS5
// consistent with its content table.
func TestIndexText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	now := time.Now()
	waiting := func() string {
		t.Helper()
		s, err := db.QueryString(ctx, `SELECT (SELECT COUNT(*) FROM search_fts_pending) +
			(SELECT COUNT(*) FROM search_docs WHERE doc_id > (SELECT indexed FROM search_fts_mark))`)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	search := func(text string) []string {
		t.Helper()
		hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: "memory", Text: text, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range hits {
			ids = append(ids, h.ItemID)
		}
		return ids
	}
	integrity := func(when string) {
		t.Helper()
		// rank 1: also compare the index with the content table.
		for _, table := range []string{"search_fts_memory", "search_fts_conversation", "search_fts_action_item"} {
			if err := db.WriterExec(ctx, `INSERT INTO `+table+` (`+table+`, rank) VALUES ('integrity-check', 1)`); err != nil {
				t.Fatalf("%s: FTS5 integrity check of %s: %v", when, table, err)
			}
		}
	}

	// More than one batch, written without the indexer.
	var ms []*appliance.Memory
	for i := range 600 {
		ms = append(ms, newMemory(fmt.Sprintf("m%03d", i), "u1", fmt.Sprintf("walnut harvest note%d", i), now))
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if got := waiting(); got != "600" {
		t.Fatalf("%s documents waiting for the text index after 600 writes, want 600", got)
	}
	if got := search("note599"); len(got) != 1 || got[0] != "m599" {
		t.Fatalf("search right after the write: %v, want [m599]", got)
	}
	if got := waiting(); got != "0" {
		t.Fatalf("%s documents still waiting after a search", got)
	}
	integrity("after catching up")

	// Edit and delete documents the index holds, and ones it does not yet.
	if err := db.CreateMemories(ctx, []*appliance.Memory{
		newMemory("fresh1", "u1", "pumpkin seeds", now), newMemory("fresh2", "u1", "pumpkin soup", now)}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []*appliance.Memory{ms[0], newMemory("fresh1", "u1", "", now)} {
		m.Content = "cranberry sauce for " + m.ID
		m.UpdatedAt = now
		if err := db.UpdateMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"m001", "fresh2"} {
		if err := db.DeleteMemory(ctx, "u1", id); err != nil {
			t.Fatal(err)
		}
	}
	// Only the edited doc waits now (the deleted fresh one left the list).
	if got := waiting(); got != "2" {
		t.Fatalf("%s documents waiting after two edits and two deletes, want 2", got)
	}
	if n, err := db.IndexText(ctx); n != 2 || err != nil {
		t.Fatalf("IndexText: %d, %v; want 2", n, err)
	}
	if n, err := db.IndexText(ctx); n != 0 || err != nil {
		t.Fatalf("IndexText with nothing waiting: %d, %v", n, err)
	}
	integrity("after edits and deletes")
	for _, tc := range []struct {
		text string
		want int
	}{{"cranberry", 2}, {"pumpkin", 0}, {"note0", 0}, {"note1", 0}, {"walnut", 20}} {
		if got := search(tc.text); len(got) != tc.want {
			t.Errorf("search %q: %d hits %v, want %d", tc.text, len(got), got, tc.want)
		}
	}

	// The newest indexed document deleted: SQLite gives its doc_id to the
	// next one, which must wait like any new one (migration 0034).
	if err := db.CreateMemories(ctx, []*appliance.Memory{newMemory("z1", "u1", "quince jelly", now)}); err != nil {
		t.Fatal(err)
	}
	if got := search("quince"); len(got) != 1 {
		t.Fatalf("quince: %v", got)
	}
	freed, err := db.QueryString(ctx, `SELECT max(doc_id) FROM search_docs`)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteMemory(ctx, "u1", "z1"); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateMemories(ctx, []*appliance.Memory{newMemory("z2", "u1", "medlar jam", now)}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.QueryString(ctx, `SELECT doc_id FROM search_docs WHERE item_id = 'z2'`); err != nil || got != freed {
		t.Fatalf("the new document took doc_id %s (%v), not the freed %s: this test no longer covers reuse", got, err, freed)
	}
	if got := search("medlar"); len(got) != 1 || got[0] != "z2" {
		t.Errorf("medlar, in the reused doc_id: %v", got)
	}
	if got := search("quince"); len(got) != 0 {
		t.Errorf("quince, deleted: %v", got)
	}
	integrity("after a doc_id was reused")
}

// TestIndexSegmentsPastTheMark: a segment waits for the text index by
// being past segment_fts_mark or in segment_fts_pending (migration 0034).
// Whatever a segment goes through (indexed, edited after, deleted before
// or after, its doc_id given again to a new segment), search finds exactly
// the words stored and FTS5 agrees with its content table.
func TestIndexSegmentsPastTheMark(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	value := func(q string) string {
		t.Helper()
		s, err := db.QueryString(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	save := func(id string, texts ...string) {
		t.Helper()
		c := lifecycleConversation(id, user, appliance.StatusCompleted, now)
		c.Structured.Title = "Walk " + id
		c.TranscriptSegments = nil
		for i, text := range texts {
			c.TranscriptSegments = append(c.TranscriptSegments,
				appliance.TranscriptSegment{ID: fmt.Sprintf("%s-%d", id, i), Text: text, Speaker: "SPEAKER_00"})
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	catchUp := func() {
		t.Helper()
		for {
			n, err := db.IndexText(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return
			}
		}
	}
	check := func(when string, want map[string][]string) {
		t.Helper()
		for word, ids := range want { // a search first catches the index up
			hits, err := db.Search(ctx, user, appliance.SearchQuery{Kind: appliance.KindConversation, Text: word, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.ItemID)
			}
			if fmt.Sprint(got) != fmt.Sprint(ids) {
				t.Errorf("%s: %q found %v, want %v", when, word, got, ids)
			}
		}
		if err := db.WriterExec(ctx, `INSERT INTO segment_fts (segment_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Fatalf("%s: FTS5 integrity check: %v", when, err)
		}
	}

	save("a", "the heron stood still", "a kestrel overhead")
	if got := value(`SELECT indexed FROM segment_fts_mark`); got != "0" {
		t.Fatalf("mark before indexing: %s", got)
	}
	if got := value(`SELECT COUNT(*) FROM segment_fts_pending`); got != "0" {
		t.Fatalf("a new segment was queued as a row: %s", got)
	}
	catchUp()
	if got, want := value(`SELECT indexed FROM segment_fts_mark`), value(`SELECT max(doc_id) FROM segment_docs`); got != want {
		t.Fatalf("mark after indexing: %s, want %s", got, want)
	}
	check("indexed", map[string][]string{"heron": {"a"}, "kestrel": {"a"}})

	// Edited after it was indexed: queued at or below the mark.
	save("a", "the egret stood still", "a kestrel overhead")
	if got := value(`SELECT COUNT(*) FROM segment_fts_pending`); got != "1" {
		t.Fatalf("an edited indexed segment is not queued: %s rows", got)
	}
	check("edited", map[string][]string{"heron": nil, "egret": {"a"}, "kestrel": {"a"}})

	// The newest indexed segment deleted: SQLite gives its doc_id to the
	// next segment written, which must wait like any other new one.
	catchUp()
	freed := value(`SELECT max(doc_id) FROM segment_docs`)
	save("a", "the egret stood still")
	save("b", "an osprey dived")
	if got := value(`SELECT doc_id FROM segment_docs WHERE conversation_id = 'b'`); got != freed {
		t.Fatalf("the new segment took doc_id %s, not the freed %s: this test no longer covers reuse", got, freed)
	}
	check("doc_id reused", map[string][]string{"kestrel": nil, "osprey": {"b"}, "egret": {"a"}})

	// Past the mark and deleted before it was indexed.
	save("c", "a curlew called", "then a plover")
	save("c", "a curlew called")
	check("deleted while waiting", map[string][]string{"plover": nil, "curlew": {"c"}})
	if err := db.DeleteConversation(ctx, user, "c"); err != nil {
		t.Fatal(err)
	}
	catchUp()
	check("conversation deleted", map[string][]string{"curlew": nil, "osprey": {"b"}})

	// Saved again by its client: undeleted, its segments (at or below the
	// mark, kept in place since migration 0036) back in the index.
	save("c", "a curlew called", "and a snipe")
	check("conversation undeleted", map[string][]string{"curlew": {"c"}, "snipe": {"c"}})

	// Deleted for good: after a soft delete (out of the index already) and
	// while indexed (its segments leave the index with their rows).
	if err := db.DeleteConversation(ctx, user, "c"); err != nil {
		t.Fatal(err)
	}
	if err := db.WriterExec(ctx, `DELETE FROM conversations WHERE id = 'c'`); err != nil {
		t.Fatal(err)
	}
	check("soft-deleted conversation removed", map[string][]string{"curlew": nil, "osprey": {"b"}})
	if err := db.WriterExec(ctx, `DELETE FROM conversations WHERE id = 'b'`); err != nil {
		t.Fatal(err)
	}
	check("indexed conversation removed", map[string][]string{"osprey": nil, "egret": {"a"}})
}
