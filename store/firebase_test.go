package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func TestFirebaseBindings(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	now := time.Now().UTC()
	bind := func(fuid, user string) error {
		return db.BindFirebase(ctx, appliance.FirebaseAccount{UID: fuid, UserID: user, CreatedAt: now})
	}

	for _, tc := range []struct {
		name       string
		fuid, user string
		want       string // error code, "" for success
	}{
		{"first binding", "fb-ada", "u1", ""},
		{"same binding again", "fb-ada", "u1", ""},
		{"a second account of the same user", "fb-ada-2", "u1", ""},
		{"a bound uid for another user", "fb-ada", "u2", appliance.ECONFLICT},
		{"unknown user", "fb-ghost", "nobody", appliance.ENOTFOUND},
	} {
		if err := bind(tc.fuid, tc.user); appliance.ErrorCode(err) != tc.want && !(tc.want == "" && err == nil) {
			t.Errorf("%s: %v, want code %q", tc.name, err, tc.want)
		}
	}
	if u, err := db.FirebaseUser(ctx, "fb-ada"); err != nil || u != "u1" {
		t.Fatalf("FirebaseUser(fb-ada) = %q, %v", u, err)
	}
	if _, err := db.FirebaseUser(ctx, "fb-ghost"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("an unbound uid: %v", err)
	}
	all, err := db.FirebaseAccounts(ctx)
	if err != nil || len(all) != 2 || all[0].UserID != "u1" || all[1].UserID != "u1" {
		t.Fatalf("FirebaseAccounts = %+v, %v", all, err)
	}

	// Unbinding: only the named user's binding, then it is gone.
	if err := db.UnbindFirebase(ctx, "u2", "fb-ada"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("unbind through another user: %v", err)
	}
	if err := db.UnbindFirebase(ctx, "u1", "fb-ada"); err != nil {
		t.Fatal(err)
	}
	if err := db.UnbindFirebase(ctx, "", "fb-ada-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FirebaseUser(ctx, "fb-ada"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("an unbound uid still maps: %v", err)
	}
	if err := db.UnbindFirebase(ctx, "", "fb-ada"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("unbind twice: %v", err)
	}
	// Once unbound, the uid may go to another user.
	if err := bind("fb-ada", "u2"); err != nil {
		t.Fatal(err)
	}
}
