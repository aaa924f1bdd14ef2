package store_test

import (
	"context"
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
		`SELECT COUNT(*) FROM memories WHERE user_id = 'bo'`:      "0",
		`SELECT COUNT(*) FROM search_docs WHERE user_id = 'bo'`:   "0",
		`SELECT COUNT(*) FROM console_codes WHERE user_id = 'bo'`: "0",
		`SELECT COUNT(*) FROM memories WHERE user_id = 'ada'`:     "1",
		`SELECT COUNT(*) FROM search_docs WHERE user_id = 'ada'`:  "1",
		`SELECT COUNT(*) FROM audit_log WHERE user_id = 'bo'`:     "1",
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
