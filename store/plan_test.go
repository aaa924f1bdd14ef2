package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// hotPlans pins the plan of every query on a hot path: the index it must
// use and, where a wrong plan would sort or scan, what must not appear.
// A query that reads all of a user's rows to return a few is fast on a
// test database and slow on a household's, so these plans, not timings,
// are what the tests assert (the benchmarks show what they cost).
var hotPlans = []struct {
	name, query string
	want        string   // must appear in the plan
	not         []string // must not appear
}{
	// Loading a conversation's action items; comparing them on save.
	{"action items of conversations", `SELECT id FROM action_items WHERE +user_id = ? AND +deleted = 0 AND conversation_id IN (?) ORDER BY created_at, id`,
		"action_items_conversation", nil},
	{"stored action items", `SELECT id, description, completed, created_at, updated_at, due_at, completed_at,
		is_locked, deleted FROM action_items INDEXED BY action_items_conversation
		WHERE conversation_id = ? AND +user_id = ?`, "action_items_conversation", nil},
	// A create's read of the user's open items (OpenActionItemTexts): the
	// index holds every column, no table lookup per item.
	{"open action items", `SELECT conversation_id, description, created_at, id FROM action_items INDEXED BY action_items_open
		WHERE user_id = ? AND deleted = 0 AND completed = 0 AND is_locked = 0
		ORDER BY created_at DESC, id DESC LIMIT ?`, "USING COVERING INDEX action_items_open", []string{"TEMP B-TREE"}},
	{"stored segments", `SELECT idx, id FROM transcript_segments WHERE conversation_id = ?`, "USING INDEX sqlite_autoindex_transcript_segments_1 (conversation_id=?)", nil},
	{"discard conversation memories", `UPDATE memories INDEXED BY memories_conversation SET deleted = 1, updated_at = ?
		WHERE +user_id = ? AND conversation_id = ? AND manually_added = 0 AND deleted = 0`,
		"memories_conversation", nil},
	// A user's recording in progress, among the few in progress.
	{"recording in progress", `SELECT id FROM conversations INDEXED BY conversations_in_progress
		WHERE status = 'in_progress' AND deleted = 0 AND user_id = ? ORDER BY created_at DESC LIMIT 1`,
		"conversations_in_progress", []string{"conversations_user"}},
	// An item's search document, as the triggers find it: the key leads
	// with the time-ordered item id, so a create's documents share a leaf.
	{"search doc of an item", `DELETE FROM search_docs WHERE kind = 'memory' AND item_id = ?`,
		"sqlite_autoindex_search_docs_1 (item_id=? AND kind=?)", nil},
	// Search hits are loaded by primary key, never by scanning the user's
	// rows (the planner would pick the user index without statistics: 550
	// ms against 8 ms at 100k memories).
	{"memories by id", `SELECT id FROM memories WHERE +user_id = ? AND +deleted = 0 AND id IN (?,?,?,?,?,?,?,?,?,?)`,
		"sqlite_autoindex_memories_1 (id=?)", []string{"memories_user"}},
	{"conversations by id", `SELECT id FROM conversations WHERE +user_id = ? AND +deleted = 0 AND id IN (?,?,?)`,
		"sqlite_autoindex_conversations_1 (id=?)", []string{"conversations_user"}},
	{"action items by id", `SELECT id FROM action_items WHERE +user_id = ? AND +deleted = 0 AND id IN (?,?,?)`,
		"sqlite_autoindex_action_items_1 (id=?)", []string{"action_items_user"}},
	// Lists: a page in index order, never a sort of all the user's rows.
	{"list conversations", `SELECT id FROM conversations WHERE user_id = ? AND deleted = 0 AND discarded = 0 AND is_locked = 0
		ORDER BY started_at DESC, created_at DESC, id DESC LIMIT ? OFFSET ?`, "conversations_user_started", []string{"TEMP B-TREE", "SCAN"}},
	// The MCP list: completed conversations only. Without covering
	// indexes the planner took conversations_user_status and sorted them
	// all.
	{"list completed conversations", `SELECT id FROM conversations WHERE user_id = ? AND deleted = 0 AND status IN (?)
		AND discarded = 0 ORDER BY started_at DESC, created_at DESC, id DESC LIMIT ? OFFSET ?`,
		"conversations_user_started", []string{"TEMP B-TREE", "SCAN"}},
	{"list memories", `SELECT id FROM memories WHERE user_id = ? AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
		"memories_user", []string{"TEMP B-TREE", "SCAN"}},
	{"list action items", `SELECT id FROM action_items WHERE user_id = ? AND deleted = 0 AND is_locked = 0 ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
		"action_items_user", []string{"TEMP B-TREE", "SCAN"}},
	// The console's System page counts a user's memories on the list
	// index alone. (Its conversation count reads the rows for discarded:
	// the planner walks the user's index when users share the box, and
	// scans when one user owns every row, which reads the same rows.)
	{"count memories", `SELECT COUNT(*) FROM memories WHERE user_id = ? AND deleted = 0`,
		"memories_user", []string{"SCAN"}},
	// The People page counts each person's segments through the partial
	// index; merging and deleting a person rewrite them the same way.
	{"person segments", `SELECT COUNT(*) FROM transcript_segments s WHERE s.person_id = ? AND s.person_id IS NOT NULL`,
		"transcript_segments_person", []string{"SCAN"}},
	{"rewrite person segments", `UPDATE transcript_segments INDEXED BY transcript_segments_person SET person_id = ? WHERE person_id = ?
		AND conversation_id IN (SELECT id FROM conversations WHERE user_id = ?)`, "transcript_segments_person", []string{"SCAN transcript_segments"}},
	// The indexer's work list and search.
	{"pending docs", `SELECT d.doc_id, d.text FROM search_pending p CROSS JOIN search_docs d ON d.doc_id = p.doc_id ORDER BY p.doc_id LIMIT ?`,
		"SEARCH d USING INTEGER PRIMARY KEY", []string{"TEMP B-TREE", "search_vectors"}},
	{"text candidates", `SELECT d.doc_id FROM search_fts_memory f JOIN search_docs d ON d.doc_id = f.rowid
		WHERE search_fts_memory MATCH ? AND f.rowid >= ? AND d.user_id = ? ORDER BY f.rank LIMIT ?`,
		"SEARCH d USING INTEGER PRIMARY KEY", nil},
	{"rescore", `SELECT v.doc_id, v.embedding FROM search_vectors v
		WHERE v.doc_id IN (SELECT value FROM json_each(?)) AND v.model = ?`, "SEARCH v USING INTEGER PRIMARY KEY", []string{"SCAN v"}},
	{"rescore in a time window", `SELECT v.doc_id, v.embedding FROM search_vectors v JOIN search_docs d ON d.doc_id = v.doc_id
		WHERE v.doc_id IN (SELECT value FROM json_each(?)) AND v.model = ? AND d.at >= ?`, "SEARCH v USING INTEGER PRIMARY KEY", []string{"SCAN v", "SCAN d"}},
	{"name search documents", `SELECT doc_id, item_id FROM search_docs WHERE doc_id IN (SELECT value FROM json_each(?))`,
		"SEARCH search_docs USING INTEGER PRIMARY KEY", []string{"SCAN search_docs"}},
	{"text batch", `SELECT doc_id, text FROM search_docs
		WHERE +kind = ? AND doc_id IN (SELECT doc_id FROM search_fts_pending ORDER BY doc_id LIMIT ?)`,
		"SEARCH search_docs USING INTEGER PRIMARY KEY", []string{"SCAN search_docs", "USING INDEX"}},
	// Documents and segments past the text index's mark (migration 0034).
	{"text batch past the mark", `SELECT doc_id, text FROM search_docs WHERE +kind = ? AND doc_id > ? AND doc_id <= ?`,
		"SEARCH search_docs USING INTEGER PRIMARY KEY", []string{"SCAN search_docs", "USING INDEX"}},
	{"segments past the mark", `SELECT doc_id, text FROM segment_docs WHERE doc_id > ? AND doc_id <= ?`,
		"SEARCH s USING INTEGER PRIMARY KEY", []string{"SCAN s", "SCAN c"}},
	// segment_docs is a view over segments and their conversations (0036):
	// every read through it starts from the segments, never from all the
	// conversations (every search asks whether segments wait).
	{"segments waiting", `SELECT EXISTS (SELECT 1 FROM segment_docs WHERE doc_id > (SELECT indexed FROM segment_fts_mark WHERE id = 1))`,
		"SEARCH s USING INTEGER PRIMARY KEY", []string{"SCAN s", "SCAN c"}},
	{"segment hits", `SELECT s.doc_id, s.conversation_id FROM segment_fts f JOIN segment_docs s ON s.doc_id = f.rowid
		WHERE segment_fts MATCH ? AND f.rowid >= ? AND s.user_id = ? ORDER BY f.rank LIMIT ?`,
		"SEARCH s USING INTEGER PRIMARY KEY", []string{"SCAN s", "SCAN c"}},
	{"segments by doc", `SELECT s.doc_id, s.start_s FROM json_each(?) j CROSS JOIN segment_docs s ON s.doc_id = j.value`,
		"SEARCH s USING INTEGER PRIMARY KEY", []string{"SCAN s", "SCAN c"}},
	{"text window", `SELECT rowid FROM search_fts_memory WHERE search_fts_memory MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
		"VIRTUAL TABLE INDEX", []string{"TEMP B-TREE"}},
	// The Go KNN (knn.go) reads only the query's partition's vectors.
	{"knn chunks", `SELECT (SELECT n FROM vector_epoch WHERE id = 1), c.validity, c.rowids, v.vectors FROM search_bq_32_chunks c
		CROSS JOIN search_bq_32_vector_chunks00 v ON v.rowid = +c.chunk_id WHERE c.partition00 = ?`, "SEARCH v USING INDEX", []string{"SCAN v"}},
}

// analyzedDB is a database as a household's looks after a while: one user
// with thousands of rows, and the statistics Open gathers (PRAGMA optimize).
func analyzedDB(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	mustUser(t, db, "u1")
	now := time.Now()
	for i := range 200 {
		if err := db.SaveConversation(ctx, sampleConversation(fmt.Sprintf("c%03d", i), "u1")); err != nil {
			t.Fatal(err)
		}
	}
	// Most memories and action items added by hand, with no conversation:
	// the statistics then say a conversation_id value matches thousands of
	// rows (ANALYZE counts the NULLs as one value), the skew that made the
	// planner scan all memories to delete one conversation's.
	var ms []*appliance.Memory
	var items []*appliance.ActionItem
	for i := range 3000 {
		m := newMemory(fmt.Sprintf("m%04d", i), "u1", fmt.Sprintf("memory number %d", i), now)
		if i%3 == 0 {
			cid := fmt.Sprintf("c%03d", i%200)
			m.ConversationID = &cid
		}
		ms = append(ms, m)
		if i%5 == 0 {
			items = append(items, &appliance.ActionItem{ID: fmt.Sprintf("a%04d", i), UserID: "u1", Description: "call back",
				CreatedAt: &now, UpdatedAt: &now})
		}
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateActionItems(ctx, items); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// spokenDB is a database of conversations of twelve segments each, as
// hearth-bench's scale folders are, with the statistics Open gathers: with
// them the planner read segment_docs (a view of segments joined to their
// conversations, migration 0036) from every conversation of the user
// rather than from the few segments asked for.
func spokenDB(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	mustUser(t, db, "u1")
	for i := range 300 {
		c := sampleConversation(fmt.Sprintf("c%03d", i), "u1")
		c.TranscriptSegments = nil
		for k := range 12 {
			c.TranscriptSegments = append(c.TranscriptSegments, appliance.TranscriptSegment{ID: fmt.Sprintf("s%d", k),
				Text: fmt.Sprintf("we talked about item %d of %d", k, i), Speaker: "SPEAKER_00", Start: float64(k), End: float64(k + 1)})
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.IndexText(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// caughtUpDB is analyzedDB after its search index caught up, then
// reopened: the statistics then say the work list is empty and the index
// large, the shape in which the planner scanned every search document to
// find the few pending ones (what an appliance looks like after a restart).
func caughtUpDB(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	db := analyzedDB(t)
	if _, err := db.UseEmbeddingModel(ctx, "m", 32); err != nil {
		t.Fatal(err)
	}
	for {
		docs, err := db.PendingDocs(ctx, "m", 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) == 0 {
			break
		}
		vecs := make([][]float32, len(docs))
		for i := range vecs {
			vecs[i] = make([]float32, 32)
			vecs[i][i%32] = 1
		}
		if err := db.PutVectors(ctx, "m", docs, vecs); err != nil {
			t.Fatal(err)
		}
	}
	path := db.Path()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestQueryPlans checks the hot queries' plans twice: on a new database,
// where the planner has no statistics and guesses, and on one with a
// household's statistics, where it no longer needs to guess and may choose
// differently (it chose to scan and sort every conversation for a page).
func TestQueryPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, state := range []struct {
		name string
		db   func(*testing.T) *store.DB
	}{{"no statistics", func(t *testing.T) *store.DB { return MustOpenDB(t) }}, {"analyzed", analyzedDB},
		{"analyzed, index caught up", caughtUpDB}, {"analyzed, twelve segments a conversation", spokenDB}} {
		t.Run(state.name, func(t *testing.T) {
			t.Parallel()
			db := state.db(t)
			if _, err := db.UseEmbeddingModel(ctx, "m", 32); err != nil {
				t.Fatal(err)
			}
			for _, tc := range hotPlans {
				args := make([]any, strings.Count(tc.query, "?"))
				for i := range args {
					args[i] = "x"
				}
				plan, err := db.Raw(ctx, "EXPLAIN QUERY PLAN "+tc.query, args...)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				got := strings.Join(plan, " | ")
				if !strings.Contains(got, tc.want) {
					t.Errorf("%s: plan %s\nwant %s", tc.name, got, tc.want)
				}
				for _, bad := range tc.not {
					if strings.Contains(got, bad) {
						t.Errorf("%s: plan %s\nmust not contain %s", tc.name, got, bad)
					}
				}
			}
		})
	}
}

// TestOpen_GathersStatistics: Open refreshes planner statistics (PRAGMA
// optimize), so that a database filled since the last start is planned
// with its real shape.
func TestOpen_GathersStatistics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := analyzedDB(t)
	stat, err := db.QueryString(ctx, `SELECT stat FROM sqlite_stat1 WHERE idx = 'memories_user'`)
	if err != nil {
		t.Fatalf("no statistics for memories_user after reopening: %v", err)
	}
	if !strings.HasPrefix(stat, "3000 ") {
		t.Errorf("memories_user statistics %q, want 3000 rows", stat)
	}
}
