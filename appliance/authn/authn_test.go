package authn_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/store"
)

type fixture struct {
	db     *store.DB
	signer *idtoken.Signer
	auth   *authn.Authenticator
	now    time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	signer, err := idtoken.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, signer: signer, now: time.Now().UTC()}
	f.auth = authn.New(db, signer, nil, func() time.Time { return f.now })
	t.Cleanup(f.auth.Close)
	for _, id := range []string{"ada", "grace"} {
		if err := db.CreateUser(ctx, &appliance.User{ID: id, Name: id, CreatedAt: f.now}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) key(t *testing.T, user string, kind appliance.KeyKind, scopes ...string) (raw, id string) {
	t.Helper()
	raw, hash, display := appliance.NewKeySecret(kind)
	k := &appliance.Key{ID: "k-" + raw[len(raw)-8:], UserID: user, Kind: kind, Hash: hash, Display: display, Scopes: scopes, CreatedAt: f.now}
	if err := f.db.CreateKey(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	return raw, k.ID
}

func TestAuthenticateEveryFamily(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	dev, devID := f.key(t, "ada", appliance.KeyKindDev, appliance.ScopeConversationsRead)
	mcp, _ := f.key(t, "grace", appliance.KeyKindMCP, appliance.ScopeMemoriesRead)
	revoked, revokedID := f.key(t, "ada", appliance.KeyKindDev)
	if err := f.db.RevokeKey(ctx, "ada", revokedID, f.now); err != nil {
		t.Fatal(err)
	}
	token, _ := f.signer.Issue("grace", time.Hour)
	ghost, _ := f.signer.Issue("nobody", time.Hour)
	grant := &appliance.OAuthGrant{ID: "g1", UserID: "ada", ClientID: "claude", Scopes: []string{"memories.read"}, CreatedAt: f.now}
	if err := f.db.CreateAuthorization(ctx, grant, &appliance.OAuthCode{Hash: appliance.HashToken("code"), GrantID: "g1", ExpiresAt: f.now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	access := appliance.OAuthAccessTokenPrefix + strings.Repeat("ab", 32)
	if err := f.db.IssueTokens(ctx, []appliance.OAuthToken{{Hash: appliance.HashToken(access), GrantID: "g1", Kind: "access", ExpiresAt: f.now.Add(time.Hour)}}, "", f.now); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, cred string
		want       appliance.Principal
		wantErr    bool
	}{
		{name: "dev key", cred: dev, want: appliance.Principal{UserID: "ada", Kind: appliance.PrincipalDev, Scopes: []string{appliance.ScopeConversationsRead}, CredentialID: devID}},
		{name: "mcp key", cred: mcp, want: appliance.Principal{UserID: "grace", Kind: appliance.PrincipalMCP}},
		{name: "oauth access token", cred: access, want: appliance.Principal{UserID: "ada", Kind: appliance.PrincipalOAuth, CredentialID: "g1"}},
		{name: "id token", cred: token, want: appliance.Principal{UserID: "grace", Kind: appliance.PrincipalIDToken}},
		{name: "revoked key", cred: revoked, wantErr: true},
		{name: "malformed key", cred: appliance.DevKeyPrefix + "xyz", wantErr: true},
		{name: "unknown key", cred: appliance.MCPKeyPrefix + strings.Repeat("0", 32), wantErr: true},
		{name: "unknown access token", cred: appliance.OAuthAccessTokenPrefix + "nope", wantErr: true},
		{name: "token of a deleted user", cred: ghost, wantErr: true},
		{name: "garbage", cred: "not-a-credential", wantErr: true},
		{name: "empty", cred: "", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.auth.Authenticate(ctx, tc.cred)
			if tc.wantErr {
				if appliance.ErrorCode(err) != appliance.EUNAUTHORIZED {
					t.Fatalf("got %+v, %v; want EUNAUTHORIZED", p, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.UserID != tc.want.UserID || p.Kind != tc.want.Kind || (tc.want.CredentialID != "" && p.CredentialID != tc.want.CredentialID) {
				t.Fatalf("got %+v, want %+v", p, tc.want)
			}
			if tc.want.Scopes != nil && !p.Can(tc.want.Scopes[0]) {
				t.Fatalf("%+v lacks its scope", p)
			}
		})
	}

	// An access token is refused at once when its grant is revoked.
	if err := f.db.RevokeGrant(ctx, "ada", "g1", f.now); err != nil {
		t.Fatal(err)
	}
	if _, err := f.auth.Authenticate(ctx, access); appliance.ErrorCode(err) != appliance.EUNAUTHORIZED {
		t.Fatalf("revoked grant: %v", err)
	}
}

func TestKeyUseIsRecordedAtMostOnceAMinute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	raw, _ := f.key(t, "ada", appliance.KeyKindDev)
	lastUsed := func() *time.Time {
		t.Helper()
		f.auth.Close() // wait for the background write
		ks, err := f.db.Keys(ctx, "ada")
		if err != nil || len(ks) != 1 {
			t.Fatalf("keys %v %v", ks, err)
		}
		return ks[0].LastUsedAt
	}
	first := f.now
	if _, err := f.auth.Authenticate(ctx, raw); err != nil {
		t.Fatal(err)
	}
	if got := lastUsed(); got == nil || !got.Equal(first.Truncate(time.Microsecond)) {
		t.Fatalf("last used %v, want %v", got, first)
	}
	f.auth = authn.New(f.db, f.signer, nil, func() time.Time { return f.now })
	f.now = first.Add(30 * time.Second)
	f.auth.Authenticate(ctx, raw)
	f.now = first.Add(40 * time.Second)
	f.auth.Authenticate(ctx, raw)
	if got := lastUsed(); !got.Equal(first.Add(30 * time.Second).Truncate(time.Microsecond)) {
		t.Fatalf("last used %v after two uses 10 s apart", got)
	}
}

func TestPrincipalScopes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p     appliance.Principal
		scope string
		want  bool
	}{
		{appliance.Principal{Kind: appliance.PrincipalDev, Scopes: []string{"memories:read"}}, "memories:read", true},
		{appliance.Principal{Kind: appliance.PrincipalOAuth, Scopes: []string{"memories.read"}}, "memories:read", true},
		{appliance.Principal{Kind: appliance.PrincipalMCP, Scopes: []string{"memories:read"}}, "memories.write", false},
		{appliance.Principal{Kind: appliance.PrincipalIDToken}, "memories:write", true},
		{appliance.Principal{Kind: appliance.PrincipalDev}, "", true},
	} {
		if got := tc.p.Can(tc.scope); got != tc.want {
			t.Errorf("%+v.Can(%q) = %v", tc.p, tc.scope, got)
		}
	}
}

func TestParseAuthorization(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header string
		bare   bool
		want   string
		ok     bool
	}{
		{"Bearer abc", false, "abc", true},
		{"bearer   abc  ", false, "abc", true},
		{"Bearer ", false, "", false},
		{"Basic abc", false, "", false},
		{"hearth_mcp_0123", true, "hearth_mcp_0123", true},
		{"hearth_oat_0123", true, "hearth_oat_0123", true},
		{"hearth_mcp_0123", false, "", false},
		{"hearth_dev_0123", true, "", false}, // dev keys always travel as Bearer
		{"two words", true, "", false},
		{"", true, "", false},
	} {
		got, ok := appliance.ParseAuthorization(tc.header, tc.bare)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseAuthorization(%q, %v) = %q, %v", tc.header, tc.bare, got, ok)
		}
	}
}

// The store answers a key it read a moment ago from memory; a revoke or
// the owner's removal must still refuse the key on its very next request.
func TestKeyRefusedAtOnceAfterRevokeOrRemoval(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		refuse func(f *fixture, keyID string) error
	}{
		{name: "revoked", refuse: func(f *fixture, keyID string) error { return f.db.RevokeKey(ctx, "ada", keyID, f.now) }},
		{name: "owner removed", refuse: func(f *fixture, _ string) error { return f.db.DeleteUser(ctx, "ada") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			raw, id := f.key(t, "ada", appliance.KeyKindDev, appliance.ScopeConversationsRead)
			for range 3 { // warm: the key is now held in memory
				if _, err := f.auth.Authenticate(ctx, raw); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.refuse(f, id); err != nil {
				t.Fatal(err)
			}
			if p, err := f.auth.Authenticate(ctx, raw); appliance.ErrorCode(err) != appliance.EUNAUTHORIZED {
				t.Fatalf("after %s: got %+v, %v; want EUNAUTHORIZED", tc.name, p, err)
			}
		})
	}
}
