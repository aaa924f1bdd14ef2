package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// seedOpenItems gives u1 two conversations with an item each and n more
// items, every third completed and every seventh locked.
func seedOpenItems(tb testing.TB, db *store.DB, n int) {
	tb.Helper()
	ctx := context.Background()
	mustUser(tb, db, "u1")
	mustUser(tb, db, "u2")
	for _, id := range []string{"c1", "c2"} {
		if err := db.SaveConversation(ctx, sampleConversation(id, "u1")); err != nil {
			tb.Fatal(err)
		}
	}
	base := time.Now().UTC().Add(-time.Hour)
	var items []*appliance.ActionItem
	for i := range n {
		at := base.Add(time.Duration(i%50) * time.Second) // ties: id breaks them
		user := "u1"
		if i%11 == 0 {
			user = "u2"
		}
		items = append(items, &appliance.ActionItem{ID: fmt.Sprintf("a%04d", i), UserID: user,
			Description: fmt.Sprintf("renew the passport number %d", i), CreatedAt: &at, UpdatedAt: &at,
			Completed: i%3 == 0, IsLocked: i%7 == 0})
	}
	if err := db.CreateActionItems(ctx, items); err != nil {
		tb.Fatal(err)
	}
}

// OpenActionItemTexts answers what ActionItems does for the create path's
// question (open, unlocked, the newest, limited, other conversations), in
// any order.
func TestOpenActionItemTexts(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	seedOpenItems(t, db, 400)
	if err := db.DeleteActionItem(ctx, "u1", "a0001"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		except string
		limit  int
	}{{"c1", 200}, {"", 200}, {"c2", 5}, {"nope", 1000}} {
		t.Run(fmt.Sprintf("%s/%d", tc.except, tc.limit), func(t *testing.T) {
			open := false
			items, err := db.ActionItems(ctx, "u1", appliance.ActionItemFilter{Limit: tc.limit, Completed: &open})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, it := range items {
				if it.ConversationID != nil && *it.ConversationID == tc.except {
					continue
				}
				want = append(want, it.Description)
			}
			got, err := db.OpenActionItemTexts(ctx, "u1", tc.except, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatal("the seed has no open items")
			}
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("texts differ from ActionItems' (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOpenActionItemTextsFollowChanges: the list is kept between reads
// (store/openitems.go) and every change to the user's items shows in the
// next read, whatever it is and whichever process makes it; another
// user's changes leave it as it was.
func TestOpenActionItemTextsFollowChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	seedOpenItems(t, db, 40)
	other, err := store.Open(ctx, dir) // another process on the same file
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	item := func(id string) *appliance.ActionItem {
		t.Helper()
		a, err := db.ActionItem(ctx, "u1", id)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	at := time.Now().UTC()
	for _, tc := range []struct {
		name   string
		change func() error
	}{
		{"added", func() error {
			return db.CreateActionItems(ctx, []*appliance.ActionItem{{ID: "new1", UserID: "u1", Description: "book the ferry",
				CreatedAt: &at, UpdatedAt: &at}})
		}},
		{"completed", func() error { a := item("new1"); a.Completed = true; return db.UpdateActionItem(ctx, a) }},
		{"reworded", func() error { a := item("a0002"); a.Description = "renew the visa"; return db.UpdateActionItem(ctx, a) }},
		{"locked", func() error { a := item("a0004"); a.IsLocked = true; return db.UpdateActionItem(ctx, a) }},
		{"deleted", func() error { return db.DeleteActionItem(ctx, "u1", "a0005") }},
		{"another user's added", func() error {
			return db.CreateActionItems(ctx, []*appliance.ActionItem{{ID: "theirs", UserID: "u2", Description: "water the ferns",
				CreatedAt: &at, UpdatedAt: &at}})
		}},
		{"added by another process", func() error {
			return other.CreateActionItems(ctx, []*appliance.ActionItem{{ID: "new2", UserID: "u1", Description: "call the plumber",
				CreatedAt: &at, UpdatedAt: &at}})
		}},
		{"deleted by another process", func() error { return other.DeleteActionItem(ctx, "u1", "a0002") }},
	} {
		// Read once so that the list is kept, then change.
		if _, err := db.OpenActionItemTexts(ctx, "u1", "", 200); err != nil {
			t.Fatal(err)
		}
		if err := tc.change(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		open := false
		items, err := db.ActionItems(ctx, "u1", appliance.ActionItemFilter{Limit: 200, Completed: &open})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, it := range items {
			want = append(want, it.Description)
		}
		got, err := db.OpenActionItemTexts(ctx, "u1", "", 200)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: texts differ from ActionItems' (-want +got):\n%s", tc.name, diff)
		}
	}
}

// BenchmarkOpenActionItems compares the create path's read of 200 open
// items through ActionItems and through OpenActionItemTexts.
func BenchmarkOpenActionItems(b *testing.B) {
	db, err := store.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	seedOpenItems(b, db, 1000)
	ctx := context.Background()
	b.Run("ActionItems", func(b *testing.B) {
		open := false
		for b.Loop() {
			if _, err := db.ActionItems(ctx, "u1", appliance.ActionItemFilter{Limit: 200, Completed: &open}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("OpenActionItemTexts", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.OpenActionItemTexts(ctx, "u1", "c1", 200); err != nil {
				b.Fatal(err)
			}
		}
	})
}
