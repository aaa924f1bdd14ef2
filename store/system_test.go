package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestCountUserItems counts what the user's lists show: their own items,
// without deleted ones or discarded conversations.
func TestCountUserItems(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	now := time.Now().UTC()
	for _, c := range []struct {
		id, user           string
		discarded, deleted bool
	}{{"c1", "u1", false, false}, {"c2", "u1", false, false}, {"c3", "u1", true, false}, {"c4", "u1", false, true}, {"c5", "u2", false, false}} {
		conv := sampleConversation(c.id, c.user)
		conv.Discarded, conv.Deleted = c.discarded, c.deleted
		if err := db.SaveConversation(ctx, conv); err != nil {
			t.Fatal(err)
		}
	}
	var ms []*appliance.Memory
	for _, m := range []struct{ id, user string }{{"m1", "u1"}, {"m2", "u1"}, {"m3", "u1"}, {"m4", "u2"}} {
		ms = append(ms, &appliance.Memory{ID: m.id, UserID: m.user, Content: "likes tea", Category: "interesting", Visibility: appliance.VisibilityPrivate,
			CreatedAt: now, UpdatedAt: now, ManuallyAdded: true})
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteMemory(ctx, "u1", "m3"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		user                    string
		conversations, memories int
	}{{"u1", 2, 2}, {"u2", 1, 1}, {"nobody", 0, 0}}
	for _, tt := range tests {
		c, m, err := db.CountUserItems(ctx, tt.user)
		if err != nil {
			t.Fatal(err)
		}
		if c != tt.conversations || m != tt.memories {
			t.Errorf("%s: %d conversations, %d memories; want %d, %d", tt.user, c, m, tt.conversations, tt.memories)
		}
	}
	n, err := db.DatabaseBytes()
	if err != nil || n <= 0 {
		t.Fatalf("database bytes: %d, %v", n, err)
	}
}
