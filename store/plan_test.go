package store_test

import (
	"context"
	"strings"
	"testing"
)

// TestQueryPlans pins the index each conversation-scoped query uses: with
// the per-user index SQLite would scan all of a user's rows for one
// conversation, which made a GET slow down as the data grew.
func TestQueryPlans(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	for _, tc := range []struct{ query, wantIndex string }{
		{`SELECT id FROM action_items WHERE +user_id = ? AND +deleted = 0 AND conversation_id IN (?) ORDER BY created_at, id`, "action_items_conversation"},
		{`DELETE FROM action_items WHERE conversation_id = ? AND +user_id = ?`, "action_items_conversation"},
		{`UPDATE memories SET deleted = 1 WHERE +user_id = ? AND conversation_id = ? AND manually_added = 0 AND deleted = 0`, "memories_conversation"},
		// Search hits are loaded by primary key, never by scanning the
		// user's rows (the planner would pick the user index without
		// statistics: 550 ms against 8 ms at 100k memories).
		{`SELECT id FROM memories WHERE +user_id = ? AND +deleted = 0 AND id IN (?)`, "sqlite_autoindex_memories_1"},
		{`SELECT id FROM conversations WHERE +user_id = ? AND +deleted = 0 AND id IN (?)`, "sqlite_autoindex_conversations_1"},
		{`SELECT id FROM action_items WHERE +user_id = ? AND +deleted = 0 AND id IN (?)`, "sqlite_autoindex_action_items_1"},
	} {
		plan, err := db.Raw(context.Background(), "EXPLAIN QUERY PLAN "+tc.query, "u", "c")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(plan, " | "); !strings.Contains(got, tc.wantIndex) {
			t.Errorf("%s\nplan: %s\nwant index %s", tc.query, got, tc.wantIndex)
		}
	}
}
