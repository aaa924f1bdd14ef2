package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

func lifecycleConversation(id, user string, status appliance.ConversationStatus, at time.Time) *appliance.Conversation {
	return &appliance.Conversation{ID: id, UserID: user, CreatedAt: at, UpdatedAt: at, StartedAt: &at, FinishedAt: &at,
		Source: appliance.SourceOmi, Language: "en", Status: status, Structured: appliance.EmptyStructured(),
		TranscriptSegments: []appliance.TranscriptSegment{{ID: "s0", Text: "hello there", Speaker: "SPEAKER_00"}}}
}

// TestSaveProcessedIsOneTransaction: when the memories cannot be written,
// the conversation is not written either.
func TestSaveProcessedIsOneTransaction(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	taken := &appliance.Memory{ID: "m-taken", UserID: user, Content: "x", Category: appliance.MemorySystem, CreatedAt: now, UpdatedAt: now}
	if err := db.CreateMemories(ctx, []*appliance.Memory{taken}); err != nil {
		t.Fatal(err)
	}
	conv := lifecycleConversation("c1", user, appliance.StatusCompleted, now)
	conv.Structured.Title = "Hello"
	conv.Structured.ActionItems = []appliance.ActionItem{{ID: "a1", Description: "Say hello"}}
	dup := &appliance.Memory{ID: "m-taken", UserID: user, Content: "duplicate id", Category: appliance.MemorySystem, CreatedAt: now, UpdatedAt: now}
	if err := db.SaveProcessed(ctx, conv, []*appliance.Memory{dup}); err == nil {
		t.Fatal("saving a duplicate memory id succeeded")
	}
	if _, err := db.ConversationHead(ctx, user, "c1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("conversation written without its memories: %v", err)
	}
	if _, err := db.ActionItem(ctx, user, "a1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("action item written without its conversation's memories: %v", err)
	}

	ok := &appliance.Memory{ID: "m-new", UserID: user, Content: "I like hello", Category: appliance.MemorySystem, CreatedAt: now, UpdatedAt: now}
	if err := db.SaveProcessed(ctx, conv, []*appliance.Memory{ok}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Memory(ctx, user, "m-new"); err != nil {
		t.Fatal(err)
	}
}

func TestAppendSegmentsAndStatusGuards(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	if err := db.SaveConversation(ctx, lifecycleConversation("rec", user, appliance.StatusInProgress, now)); err != nil {
		t.Fatal(err)
	}
	later := now.Add(time.Minute)
	segs := []appliance.TranscriptSegment{{ID: "s1", Text: "one"}, {ID: "s2", Text: "two"}}
	if err := db.AppendSegments(ctx, user, "rec", segs, nil, later); err != nil {
		t.Fatal(err)
	}
	c, err := db.Conversation(ctx, user, "rec")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.TranscriptSegments) != 3 || c.TranscriptSegments[2].Text != "two" || !c.FinishedAt.Equal(later.Truncate(time.Microsecond)) {
		t.Fatalf("after append: %d segments, finished %v", len(c.TranscriptSegments), c.FinishedAt)
	}
	if err := db.AppendSegments(ctx, "someone-else", "rec", segs, nil, later); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("another user's append: %v", err)
	}
	inProgress := []appliance.ConversationStatus{appliance.StatusInProgress}
	if err := db.SetConversationStatus(ctx, user, "rec", inProgress, appliance.StatusProcessing); err != nil {
		t.Fatal(err)
	}
	if err := db.SetConversationStatus(ctx, user, "rec", inProgress, appliance.StatusProcessing); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("second transition: %v", err)
	}
	if err := db.AppendSegments(ctx, user, "rec", segs, nil, later); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("append to a processing conversation: %v", err)
	}
	if err := db.SetConversationStatus(ctx, user, "missing", inProgress, appliance.StatusProcessing); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("missing conversation: %v", err)
	}
}

func TestIdleInProgress(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	ada, grace := MustCreateUser(t, db, "Ada"), MustCreateUser(t, db, "Grace")
	now := time.Now().UTC()
	for _, c := range []*appliance.Conversation{
		lifecycleConversation("old-ada", ada, appliance.StatusInProgress, now.Add(-10*time.Minute)),
		lifecycleConversation("old-grace", grace, appliance.StatusInProgress, now.Add(-5*time.Minute)),
		lifecycleConversation("fresh", ada, appliance.StatusInProgress, now),
		lifecycleConversation("done", ada, appliance.StatusCompleted, now.Add(-time.Hour)),
	} {
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	long := lifecycleConversation("long-timeout", grace, appliance.StatusInProgress, now.Add(-20*time.Minute))
	if err := db.StartRecording(ctx, long, time.Hour); err != nil {
		t.Fatal(err)
	}
	short := lifecycleConversation("short-timeout", grace, appliance.StatusInProgress, now.Add(-30*time.Second))
	if err := db.StartRecording(ctx, short, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	idle, err := db.IdleInProgress(ctx, now, 2*time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range idle {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "old-ada,old-grace,short-timeout" {
		t.Fatalf("idle %v", ids)
	}
	// The sweep runs every few seconds: it must read the partial index, never
	// the whole conversations table.
	plan, err := db.Raw(ctx, `EXPLAIN QUERY PLAN SELECT id FROM conversations c
		WHERE c.status = 'in_progress' AND c.deleted = 0
			AND (c.idle_at < ? OR (c.idle_at IS NULL AND c.finished_at < ?)) ORDER BY c.finished_at LIMIT 50`, "x", "y")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(plan, " | "); !strings.Contains(got, "conversations_in_progress") {
		t.Fatalf("plan %s", got)
	}
}

func TestDiscardConversationDeletesExtractedMemories(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	conv := lifecycleConversation("c1", user, appliance.StatusCompleted, now)
	cid := conv.ID
	extracted := &appliance.Memory{ID: "m1", UserID: user, Content: "x", Category: appliance.MemorySystem, ConversationID: &cid, CreatedAt: now, UpdatedAt: now}
	manual := &appliance.Memory{ID: "m2", UserID: user, Content: "y", Category: appliance.MemoryManual, ManuallyAdded: true, ConversationID: &cid, CreatedAt: now, UpdatedAt: now}
	if err := db.SaveProcessed(ctx, conv, []*appliance.Memory{extracted, manual}); err != nil {
		t.Fatal(err)
	}
	if err := db.DiscardConversation(ctx, user, "c1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Memory(ctx, user, "m1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("extracted memory survived the discard: %v", err)
	}
	if _, err := db.Memory(ctx, user, "m2"); err != nil {
		t.Fatalf("manual memory went with the discard: %v", err)
	}
	if err := db.DiscardConversation(ctx, "other", "c1", true); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("cross-user discard: %v", err)
	}
}

// MustCreateUser adds a user and returns its id.
func MustCreateUser(tb testing.TB, db interface {
	CreateUser(context.Context, *appliance.User) error
}, name string) string {
	tb.Helper()
	u := &appliance.User{ID: "u-" + strings.ToLower(name), Name: name, CreatedAt: time.Now().UTC()}
	if err := db.CreateUser(context.Background(), u); err != nil {
		tb.Fatal(err)
	}
	return u.ID
}

// TestOutOfRangeStoredTimesDoNotBreakReads: a row whose time cannot be
// parsed (written before accepted times were bounded) is still listed,
// read and deleted, with the time clamped.
func TestOutOfRangeStoredTimesDoNotBreakReads(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	for _, id := range []string{"good", "bad"} {
		c := lifecycleConversation(id, user, appliance.StatusCompleted, now)
		c.Structured.Title = id
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.ExecRaw(ctx, `UPDATE conversations SET finished_at = '10000-01-01T00:04:59.000000Z', started_at = '-0001-12-31T00:00:00.000000Z' WHERE id = 'bad'`); err != nil {
		t.Fatal(err)
	}
	cs, err := db.Conversations(ctx, user, appliance.ConversationFilter{Limit: 10})
	if err != nil || len(cs) != 2 {
		t.Fatalf("list: %d, %v", len(cs), err)
	}
	bad, err := db.ConversationHead(ctx, user, "bad")
	if err != nil {
		t.Fatal(err)
	}
	if !appliance.TimeInRange(*bad.FinishedAt) || !bad.StartedAt.Equal(appliance.MinTime) {
		t.Fatalf("clamped times: %v – %v", bad.StartedAt, bad.FinishedAt)
	}
	if err := db.DeleteConversation(ctx, user, "bad"); err != nil {
		t.Fatal(err)
	}
}

// TestGroupCommitIsolatesFailures: concurrent processed saves share
// commits; the one whose write fails is the only one lost.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	if err := db.CreateMemories(ctx, []*appliance.Memory{{ID: "taken", UserID: user, Content: "x", Category: "system", CreatedAt: now, UpdatedAt: now}}); err != nil {
		t.Fatal(err)
	}
	const n = 24
	errs := make(chan error, n)
	for i := range n {
		go func() {
			c := lifecycleConversation(fmt.Sprintf("c%02d", i), user, appliance.StatusCompleted, now)
			c.Structured.Title = "t"
			memID := fmt.Sprintf("m%02d", i)
			if i == 7 {
				memID = "taken"
			}
			m := &appliance.Memory{ID: memID, UserID: user, Content: "y", Category: "system", CreatedAt: now, UpdatedAt: now}
			errs <- db.SaveProcessed(ctx, c, []*appliance.Memory{m})
		}()
	}
	failed := 0
	for range n {
		if err := <-errs; err != nil {
			failed++
		}
	}
	cs, err := db.Conversations(ctx, user, appliance.ConversationFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if failed != 1 || len(cs) != n-1 {
		t.Fatalf("%d saves failed and %d conversations stored; want 1 and %d", failed, len(cs), n-1)
	}
	if _, err := db.ConversationHead(ctx, user, "c07"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("the failed save left its conversation: %v", err)
	}
}

// TestDataFilesAreOwnerOnly: the database and its WAL files are readable by
// the appliance's user alone, and a new data folder too.
func TestDataFilesAreOwnerOnly(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	MustCreateUser(t, db, "Ada") // a write: the WAL and shm files exist now
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("data folder %v %v", fi.Mode(), err)
	}
	for _, name := range []string{"hearth.db", "hearth.db-wal", "hearth.db-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v, want -rw-------", name, fi.Mode().Perm())
		}
	}
}
