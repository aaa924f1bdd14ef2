package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestSaveRetranscribed: a new revision replaces the transcript, action
// items and extracted memories (not the owner's own) in the transaction
// that moves the job on, once: a cancelled job, or one already past the
// conversation, saves nothing; another user's job is not found.
func TestSaveRetranscribed(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	ada, bo := MustCreateUser(t, db, "Ada"), MustCreateUser(t, db, "Bo")
	now := time.Now().UTC()
	conv := lifecycleConversation("c1", ada, appliance.StatusCompleted, now)
	conv.Structured.Title = "Hello"
	conv.Structured.ActionItems = []appliance.ActionItem{{ID: "a-old", Description: "Say hello"}}
	cid := "c1"
	extracted := &appliance.Memory{ID: "m-old", UserID: ada, ConversationID: &cid, Content: "User says hello", Category: appliance.MemorySystem, CreatedAt: now, UpdatedAt: now}
	if err := db.SaveProcessed(ctx, conv, []*appliance.Memory{extracted}); err != nil {
		t.Fatal(err)
	}
	own := &appliance.Memory{ID: "m-own", UserID: ada, ConversationID: &cid, Content: "Mine", Category: appliance.MemorySystem,
		ManuallyAdded: true, CreatedAt: now, UpdatedAt: now}
	if err := db.CreateMemories(ctx, []*appliance.Memory{own}); err != nil {
		t.Fatal(err)
	}
	newJob := func(id string, status appliance.RetranscribeStatus) {
		j := &appliance.RetranscribeJob{ID: id, UserID: ada, ConversationIDs: []string{"c1"}, Status: status, CreatedAt: now, UpdatedAt: now}
		if err := db.CreateRetranscribeJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	revision := func() *appliance.Conversation {
		c := lifecycleConversation("c1", ada, appliance.StatusCompleted, now)
		c.TranscriptSegments = []appliance.TranscriptSegment{{ID: "s-new", Text: "good morning", Speaker: "SPEAKER_00", IsUser: true}}
		c.Structured.Title = "Morning"
		c.Structured.ActionItems = []appliance.ActionItem{{ID: "a-new", Description: "Say good morning"}}
		return c
	}
	fresh := func(id string) []*appliance.Memory {
		return []*appliance.Memory{{ID: id, UserID: ada, ConversationID: &cid, Content: "User says good morning", Category: appliance.MemorySystem, CreatedAt: now, UpdatedAt: now}}
	}
	live := func() string {
		s, err := db.QueryString(ctx, `SELECT group_concat(id) FROM (SELECT id FROM memories WHERE deleted = 0 UNION ALL
			SELECT id FROM action_items WHERE deleted = 0 UNION ALL SELECT id FROM transcript_segments ORDER BY 1)`)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := live()

	newJob("j-cancelled", appliance.RetranscribeCancelled)
	if err := db.SaveRetranscribed(ctx, "j-cancelled", 0, revision(), fresh("m-x")); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("a cancelled job saved: %v", err)
	}
	if got := live(); got != before {
		t.Fatalf("a refused save changed %s to %s", before, got)
	}

	newJob("j1", appliance.RetranscribeRunning)
	if err := db.SaveRetranscribed(ctx, "j1", 0, revision(), fresh("m-new")); err != nil {
		t.Fatal(err)
	}
	if got, want := live(), "a-new,m-new,m-own,s-new"; got != want {
		t.Fatalf("after the new revision: %s, want %s", got, want)
	}
	if err := db.SaveRetranscribed(ctx, "j1", 0, revision(), fresh("m-again")); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("the same step saved twice: %v", err)
	}
	j, err := db.RetranscribeJob(ctx, ada, "j1")
	if err != nil || j.Done != 1 || j.Status != appliance.RetranscribeRunning || j.ConversationIDs[0] != "c1" {
		t.Fatalf("job: %+v %v", j, err)
	}
	if _, err := db.RetranscribeJob(ctx, bo, "j1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("Bo reads Ada's job: %v", err)
	}
	if err := db.SetRetranscribeStatus(ctx, bo, "j1", []appliance.RetranscribeStatus{appliance.RetranscribeRunning}, appliance.RetranscribeCancelled, ""); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("Bo cancels Ada's job: %v", err)
	}
	open, err := db.OpenRetranscribeJobs(ctx)
	if err != nil || len(open) != 1 || open[0].ID != "j1" {
		t.Fatalf("open jobs: %v %v", open, err)
	}
}
