package authn_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth/firebasetest"
)

// TestFirebaseTokens: with a Firebase verifier, a Firebase ID token
// authenticates as an ID token of the user its account is bound to; an
// unbound account, another project's token or an expired one do not.
func TestFirebaseTokens(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	iss := firebasetest.New(t, "hearth-test-app")
	v, err := firebaseauth.New(firebaseauth.Config{ProjectID: iss.ProjectID, CertsURL: iss.URL})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	f.auth = authn.New(f.db, f.signer, slog.New(slog.NewTextHandler(&logs, nil)), nil).WithFirebase(v)
	t.Cleanup(f.auth.Close)
	if err := f.db.BindFirebase(ctx, appliance.FirebaseAccount{UID: "fb-grace", UserID: "grace", CreatedAt: f.now}); err != nil {
		t.Fatal(err)
	}
	hearthExpired, _ := f.signer.Issue("ada", -time.Minute)
	hearth, _ := f.signer.Issue("ada", time.Hour)
	other := firebasetest.New(t, "someone-elses-app")

	for _, tc := range []struct {
		name, cred string
		wantUser   string
		wantErr    error
	}{
		{name: "bound account", cred: iss.Token(t, "fb-grace"), wantUser: "grace"},
		{name: "hearth token beside firebase", cred: hearth, wantUser: "ada"},
		{name: "unbound account", cred: iss.Token(t, "fb-stranger"), wantErr: authn.ErrUnbound},
		{name: "expired", cred: iss.Sign(t, iss.Claims("fb-grace", time.Now().Add(-2*time.Hour))), wantErr: authn.ErrExpired},
		{name: "expired hearth token", cred: hearthExpired, wantErr: authn.ErrExpired},
		{name: "another project's token", cred: other.Token(t, "fb-grace"), wantErr: authn.ErrInvalid},
		{name: "garbage", cred: "eyJhbGciOiJSUzI1NiJ9.e30.x", wantErr: authn.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.auth.Authenticate(ctx, tc.cred)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || appliance.ErrorCode(err) != appliance.EUNAUTHORIZED {
					t.Fatalf("got %+v, %v; want %v", p, err, tc.wantErr)
				}
				return
			}
			if err != nil || p.UserID != tc.wantUser || p.Kind != appliance.PrincipalIDToken || !p.Can(appliance.ScopeMemoriesWrite) {
				t.Fatalf("got %+v, %v; want an ID-token principal of %s", p, err, tc.wantUser)
			}
		})
	}
	// The owner learns which uid to bind, once, and never the token.
	f.auth.Authenticate(ctx, iss.Token(t, "fb-stranger"))
	if n := strings.Count(logs.String(), "firebase_uid=fb-stranger"); n != 1 {
		t.Fatalf("the unbound uid was logged %d times, want 1:\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), "eyJ") {
		t.Fatalf("a token is in the log:\n%s", logs.String())
	}

	// Unbinding takes effect at the next request.
	tok := iss.Token(t, "fb-grace")
	if err := f.db.UnbindFirebase(ctx, "grace", "fb-grace"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.auth.Authenticate(ctx, tok); !errors.Is(err, authn.ErrUnbound) {
		t.Fatalf("after unbinding: %v", err)
	}
}

// TestFirebaseTokensOffByDefault: without a Firebase verifier a Firebase
// token is just an invalid credential, and nothing is fetched.
func TestFirebaseTokensOffByDefault(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	iss := firebasetest.New(t, "hearth-test-app")
	if err := f.db.BindFirebase(context.Background(), appliance.FirebaseAccount{UID: "fb-grace", UserID: "grace", CreatedAt: f.now}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.auth.Authenticate(context.Background(), iss.Token(t, "fb-grace")); !errors.Is(err, authn.ErrInvalid) {
		t.Fatalf("a Firebase token without a verifier: %v", err)
	}
	if n := iss.Fetches(); n != 0 {
		t.Fatalf("%d certificate fetches with Firebase off", n)
	}
}
