package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestInsertSegmentsByTime: segments transcribed late go where they were
// said, around a transcript with a gap in its keys (a merge removed a
// segment), in a recording in progress and in one already processed; the
// segments already there keep their order.
func TestInsertSegmentsByTime(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	conv := lifecycleConversation("rec", user, appliance.StatusInProgress, now)
	conv.TranscriptSegments = []appliance.TranscriptSegment{{ID: "a", Text: "a", Start: 1, End: 2}}
	if err := db.SaveConversation(ctx, conv); err != nil {
		t.Fatal(err)
	}
	live := []appliance.TranscriptSegment{{ID: "gone", Text: "gone", Start: 3, End: 4}, {ID: "e", Text: "e", Start: 9, End: 10},
		{ID: "g", Text: "g", Start: 14, End: 15}}
	if err := db.AppendSegments(ctx, user, "rec", live, nil, now); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendSegments(ctx, user, "rec", nil, []string{"gone"}, now); err != nil {
		t.Fatal(err)
	}
	late := []appliance.TranscriptSegment{{ID: "f", Text: "f", Start: 11, End: 12}, {ID: "b", Text: "b", Start: 3, End: 4},
		{ID: "c", Text: "c", Start: 5, End: 6}, {ID: "z", Text: "z", Start: 20, End: 21}, {ID: "0", Text: "0", Start: 0, End: 0.5}}
	if status, err := db.InsertSegments(ctx, user, "rec", late, now); err != nil || status != appliance.StatusInProgress {
		t.Fatal(status, err)
	}
	if got := texts(t, db, user, "rec"); got != "0 a b c e f g z" {
		t.Fatalf("in progress: %q", got)
	}
	if err := db.SetConversationStatus(ctx, user, "rec", []appliance.ConversationStatus{appliance.StatusInProgress}, appliance.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	if status, err := db.InsertSegments(ctx, user, "rec", []appliance.TranscriptSegment{{ID: "d", Text: "d", Start: 7, End: 8}}, now); err != nil || status != appliance.StatusCompleted {
		t.Fatal(status, err)
	}
	if got := texts(t, db, user, "rec"); got != "0 a b c d e f g z" {
		t.Fatalf("completed: %q", got)
	}
	if _, err := db.InsertSegments(ctx, "someone-else", "rec", late, now); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("another user's insert: %v", err)
	}
}

func texts(t *testing.T, db interface {
	Conversation(context.Context, string, string) (*appliance.Conversation, error)
}, user, id string) string {
	t.Helper()
	c, err := db.Conversation(context.Background(), user, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range c.TranscriptSegments {
		out = append(out, s.Text)
	}
	return strings.Join(out, " ")
}
