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
