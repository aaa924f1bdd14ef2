package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// BenchmarkHotQueries100k runs each hot read of the API and MCP paths on a
// generated household of a year or more: 100k conversations (12 segments
// and 2 action items each) and 200k memories, with the statistics Open
// gathers. A plan change that makes one of them read all of a user's rows
// shows here as a jump of 10× or more, not as a slow drift. Building the
// database takes a few minutes; HEARTH_BENCH_ROWS sets another size.
//
//	go test -tags sqlite_fts5 -run XXX -bench HotQueries100k -benchtime 2000x ./store
func BenchmarkHotQueries100k(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("HEARTH_BENCH_ROWS")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	dir := b.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "Ada", CreatedAt: time.Now()}); err != nil {
		b.Fatal(err)
	}
	// A neighbour with rows of their own: isolation must cost nothing.
	if err := db.CreateUser(ctx, &appliance.User{ID: "u2", Name: "Bo", CreatedAt: time.Now()}); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	start := time.Now().Add(-time.Duration(n) * 5 * time.Minute)
	var ms []*appliance.Memory
	for i := range n {
		user := "u1"
		if i%10 == 9 {
			user = "u2"
		}
		c, cms := benchConversation(r, i, user, start.Add(time.Duration(i)*5*time.Minute))
		if err := db.SaveConversation(ctx, c); err != nil {
			b.Fatal(err)
		}
		ms = append(ms, cms...)
		if len(ms) >= 1000 {
			if err := db.CreateMemories(ctx, ms); err != nil {
				b.Fatal(err)
			}
			ms = ms[:0]
		}
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		b.Fatal(err)
	}
	// Reopen: statistics as the appliance has them after a restart.
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	if db, err = store.Open(ctx, dir); err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	id := func(r *rand.Rand) string {
		for {
			if i := r.IntN(n); i%10 != 9 {
				return fmt.Sprintf("c%07d", i)
			}
		}
	}
	// ids draws k different conversation ids of u1.
	ids := func(r *rand.Rand, k int, suffix string) []string {
		seen := map[string]bool{}
		var out []string
		for len(out) < k {
			if v := id(r) + suffix; !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		return out
	}
	completed := []appliance.ConversationStatus{appliance.StatusCompleted}
	for _, q := range []struct {
		name string
		run  func(r *rand.Rand) (int, error)
		want int
	}{
		{"conversation", func(r *rand.Rand) (int, error) {
			_, err := db.Conversation(ctx, "u1", id(r))
			return 1, err
		}, 1},
		{"list-conversations", func(r *rand.Rand) (int, error) {
			cs, err := db.Conversations(ctx, "u1", appliance.ConversationFilter{Limit: 20, Statuses: completed, IncludeLocked: true})
			return len(cs), err
		}, 20},
		{"list-conversations-page-50", func(r *rand.Rand) (int, error) {
			cs, err := db.Conversations(ctx, "u1", appliance.ConversationFilter{Limit: 20, Offset: 1000, Statuses: completed})
			return len(cs), err
		}, 20},
		// The console's list paged to its very end: offset paging walks
		// the index, so the last page of a year costs the most.
		{"console-list-last-page", func(r *rand.Rand) (int, error) {
			cs, err := db.Conversations(ctx, "u1", appliance.ConversationFilter{Limit: 25, Offset: n*9/10 - 25, IncludeLocked: true,
				Statuses: []appliance.ConversationStatus{appliance.StatusCompleted, appliance.StatusProcessing, appliance.StatusFailed}})
			return len(cs), err
		}, 25},
		{"conversations-by-id", func(r *rand.Rand) (int, error) {
			cs, err := db.ConversationsByID(ctx, "u1", ids(r, 10, ""))
			return len(cs), err
		}, 10},
		{"list-memories", func(r *rand.Rand) (int, error) {
			got, err := db.Memories(ctx, "u1", appliance.MemoryFilter{Limit: 25})
			return len(got), err
		}, 25},
		{"memories-by-id", func(r *rand.Rand) (int, error) {
			got, err := db.MemoriesByID(ctx, "u1", ids(r, 30, "-m1"))
			return len(got), err
		}, 30},
		{"list-action-items", func(r *rand.Rand) (int, error) {
			got, err := db.ActionItems(ctx, "u1", appliance.ActionItemFilter{Limit: 25})
			return len(got), err
		}, 25},
		{"action-items-of-conversation", func(r *rand.Rand) (int, error) {
			cid := id(r)
			got, err := db.ActionItems(ctx, "u1", appliance.ActionItemFilter{Limit: 25, ConversationID: &cid})
			return len(got), err
		}, 2},
	} {
		b.Run(q.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				got, err := q.run(r)
				if err != nil || got != q.want {
					b.Fatalf("%d rows, want %d: %v", got, q.want, err)
				}
			}
		})
	}
}
