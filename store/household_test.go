package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// TestDeleteUser: a removed member takes everything of theirs (records,
// their search index rows, sessions, codes) and leaves the others' alone;
// the audit trail keeps naming them.
func TestDeleteUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Now().UTC()
	for _, id := range []string{"ada", "bo"} {
		if err := db.CreateUser(ctx, &appliance.User{ID: id, Name: id, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateMemories(ctx, []*appliance.Memory{{ID: "m-" + id, UserID: id, Content: "the shed is green", Category: "system", CreatedAt: now, UpdatedAt: now}}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateActionItems(ctx, []*appliance.ActionItem{{ID: "a-" + id, UserID: id, Description: "paint the shed",
			CreatedAt: &now, UpdatedAt: &now}}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateSignInCode(ctx, &appliance.SignInCode{Hash: "h-" + id, UserID: id, Kind: appliance.CodeInvite, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.RecordAudit(ctx, &appliance.AuditEntry{At: now, UserID: "bo", UserName: "bo", Action: "speech key set", Target: "deepgram", Refused: true}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteUser(ctx, "bo"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteUser(ctx, "bo"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Errorf("deleting twice: %v", err)
	}
	for q, want := range map[string]string{
		`SELECT COUNT(*) FROM memories WHERE user_id = 'bo'`:             "0",
		`SELECT COUNT(*) FROM search_docs WHERE user_id = 'bo'`:          "0",
		`SELECT COUNT(*) FROM console_codes WHERE user_id = 'bo'`:        "0",
		`SELECT COUNT(*) FROM action_items WHERE user_id = 'bo'`:         "0",
		`SELECT COUNT(*) FROM action_item_changes WHERE user_id = 'bo'`:  "0",
		`SELECT COUNT(*) FROM action_item_changes WHERE user_id = 'ada'`: "1",
		`SELECT COUNT(*) FROM memories WHERE user_id = 'ada'`:            "1",
		`SELECT COUNT(*) FROM search_docs WHERE user_id = 'ada'`:         "2", // the memory and the action item
		`SELECT COUNT(*) FROM audit_log WHERE user_id = 'bo'`:            "1",
	} {
		if got, err := db.QueryString(ctx, q); err != nil || got != want {
			t.Errorf("%s: %s (%v), want %s", q, got, err, want)
		}
	}
	if _, err := db.RedeemSignInCode(ctx, "h-bo", "pw", now); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Errorf("a removed member's code: %v", err)
	}
	if id, err := db.RedeemSignInCode(ctx, "h-ada", "pw", now); err != nil || id != "ada" {
		t.Errorf("the other member's code: %q %v", id, err)
	}
	if _, err := db.RedeemSignInCode(ctx, "h-ada", "pw", now); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Errorf("a code used twice: %v", err)
	}
}

// TestAuditKept: the trail keeps its newest AuditKept lines, newest first.
func TestAuditKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// Lines up to just below the bound, by SQL (10,000 writes one by one
	// would take seconds), then three through RecordAudit.
	if err := db.WriterExec(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
		INSERT INTO audit_log (at, user_id, user_name, action, target, refused)
		SELECT '2026-01-01T00:00:00.000000Z', 'bo', 'Bo', 'speech key set', 'line ' || i, 1 FROM n`); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := db.RecordAudit(ctx, &appliance.AuditEntry{At: time.Now(), UserName: "command line", Action: "member added", Target: fmt.Sprint("new ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.QueryString(ctx, `SELECT COUNT(*) FROM audit_log`); err != nil || n != fmt.Sprint(store.AuditKept) {
		t.Errorf("%s lines (%v), want %d", n, err, store.AuditKept)
	}
	if oldest, err := db.QueryString(ctx, `SELECT target FROM audit_log ORDER BY id LIMIT 1`); err != nil || oldest != "line 3" {
		t.Errorf("the oldest line kept: %q (%v)", oldest, err)
	}
	lines, err := db.AuditLog(ctx, 2)
	if err != nil || len(lines) != 2 || lines[0].Target != "new 2" || lines[1].Target != "new 1" || lines[0].Refused {
		t.Errorf("the newest two: %+v (%v)", lines, err)
	}
}
