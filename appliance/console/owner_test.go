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

// TestSetupClaimsTheNameTyped: the claim makes the user of the name typed
// the owner (made now when nobody has that name), never silently another;
// only without a name does the oldest user get it.
func TestSetupClaimsTheNameTyped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, typed string
		existing    []string
		want        string // the owner's name
		wantUsers   int
	}{
		{name: "NobodyYet", typed: "Ada", want: "Ada", wantUsers: 1},
		{name: "AnotherUserExists", typed: "Ada Owner", existing: []string{"Ada Lovelace"}, want: "Ada Owner", wantUsers: 2},
		{name: "ThatUserExists", typed: "  ada lovelace ", existing: []string{"Bo", "Ada Lovelace"}, want: "Ada Lovelace", wantUsers: 2},
		{name: "NoNameOldest", typed: "", existing: []string{"Bo", "Ada"}, want: "Bo", wantUsers: 2},
		{name: "NoNameNobody", typed: "", want: "Owner", wantUsers: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, err := store.Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			for i, n := range tc.existing {
				u := &appliance.User{ID: n, Name: n, CreatedAt: time.Now().Add(time.Duration(i) * time.Second)}
				if err := db.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			svc := &console.Service{Store: db}
			code, err := svc.SetupCode(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sess, _, err := svc.Setup(ctx, code, tc.typed, "correct horse battery")
			if err != nil {
				t.Fatal(err)
			}
			owner, err := db.User(ctx, sess.UserID)
			if err != nil {
				t.Fatal(err)
			}
			users, _ := db.Users(ctx)
			if owner.Name != tc.want || len(users) != tc.wantUsers {
				t.Fatalf("owner %q with %d users, want %q with %d", owner.Name, len(users), tc.want, tc.wantUsers)
			}
			if _, _, err := svc.Login(ctx, tc.want, "correct horse battery"); err != nil {
				t.Fatalf("sign in as %q: %v", tc.want, err)
			}
		})
	}
}
