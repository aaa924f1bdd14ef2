package store_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestMaintainIndex_MergesTheTextIndex: the indexer's text batches leave
// FTS5 segments behind (one per batch, automerge being off); idle upkeep
// merges them in bounded steps until there is nothing left to merge, and
// search answers the same.
func TestMaintainIndex_MergesTheTextIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	for _, table := range []string{"search_fts_memory", "search_fts_conversation", "search_fts_action_item"} {
		for k, want := range map[string]string{"automerge": "0", "usermerge": "4", "crisismerge": "16"} {
			if got, err := db.QueryString(ctx, `SELECT v FROM `+table+`_config WHERE k = '`+k+`'`); err != nil || got != want {
				t.Fatalf("FTS5 %s %s = %q (%v), want %s", table, k, got, err, want)
			}
		}
	}
	now := time.Now()
	for i := range 60 {
		if err := db.CreateMemories(ctx, []*appliance.Memory{newMemory(fmt.Sprintf("m%02d", i), "u1", fmt.Sprintf("garden tomato number%d", i), now)}); err != nil {
			t.Fatal(err)
		}
		if n, err := db.IndexText(ctx); n != 1 || err != nil {
			t.Fatalf("IndexText after one memory: %d, %v", n, err)
		}
	}
	count := func() int {
		s, err := db.QueryString(ctx, `SELECT COUNT(*) FROM search_fts_memory_data`)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	before := count()
	steps := 0
	for ; steps < 100; steps++ {
		more, err := db.MaintainIndex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
	}
	if steps == 0 || steps == 100 {
		t.Fatalf("%d merge steps for 60 one-row transactions", steps)
	}
	after := count()
	t.Logf("search_fts_memory_data rows: %d before, %d after %d steps", before, after, steps)
	if after >= before {
		t.Fatalf("merging left %d rows of %d", after, before)
	}
	for _, tc := range []struct{ match, want string }{{"tomato", "60"}, {"number42", "1"}} {
		if got, _ := db.QueryString(ctx, `SELECT COUNT(*) FROM search_fts_memory WHERE search_fts_memory MATCH '`+tc.match+`'`); got != tc.want {
			t.Fatalf("after merging, %q matches %s, want %s", tc.match, got, tc.want)
		}
	}
	// Nothing left: another step says so at once.
	if more, err := db.MaintainIndex(ctx); more || err != nil {
		t.Fatalf("a step after the merge: more %v, err %v", more, err)
	}
}
