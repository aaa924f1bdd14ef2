package console_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
	"github.com/hearth-appliance/hearth/store"
)

// TestOwner: nobody owns an unclaimed appliance; the user who claims it
// with the setup code does, and stays owner when others get passwords; an
// appliance claimed before the owner was recorded has its oldest user.
func TestOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := &console.Service{Store: db}
	owner := func() string {
		t.Helper()
		id, err := svc.Owner(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	code, err := svc.SetupCode(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := owner(); got != "" {
		t.Fatalf("owner before the claim: %q", got)
	}
	sess, _, err := svc.Setup(ctx, code, "Ada", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if got := owner(); got != sess.UserID {
		t.Fatalf("owner %q, want the claimant %q", got, sess.UserID)
	}
	bo := &appliance.User{ID: "bo", Name: "Bo", CreatedAt: time.Now()}
	if err := db.CreateUser(ctx, bo); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetPassword(ctx, bo.ID, "bo's long password"); err != nil {
		t.Fatal(err)
	}
	if got := owner(); got != sess.UserID {
		t.Fatalf("owner after a second password: %q", got)
	}
	// As claimed by an older hearth, which kept no owner.
	if err := db.SetSetting(ctx, "console_owner", ""); err != nil {
		t.Fatal(err)
	}
	if got := owner(); got != sess.UserID {
		t.Fatalf("owner without the record: %q, want the oldest user %q", got, sess.UserID)
	}
}
