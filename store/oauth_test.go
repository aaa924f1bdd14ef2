package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func TestOAuthLifecycle(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	now := time.Now().UTC()
	g := &appliance.OAuthGrant{ID: "g1", UserID: "u1", ClientID: "claude", Scopes: []string{"memories.read"}, CreatedAt: now}
	code := &appliance.OAuthCode{Hash: "c1", RedirectURI: "https://x/cb", CodeChallenge: "ch", ExpiresAt: now.Add(time.Minute)}
	if err := db.CreateAuthorization(ctx, g, code); err != nil {
		t.Fatal(err)
	}
	got, grant, err := db.RedeemCode(ctx, "c1", now)
	if err != nil || got.CodeChallenge != "ch" || grant.ClientID != "claude" || grant.Scopes[0] != "memories.read" {
		t.Fatalf("redeem: %+v %+v %v", got, grant, err)
	}
	tokens := []appliance.OAuthToken{
		{Hash: "a1", GrantID: "g1", Kind: "access", ExpiresAt: now.Add(time.Hour)},
		{Hash: "r1", GrantID: "g1", Kind: "refresh", ExpiresAt: now.Add(30 * 24 * time.Hour)},
	}
	if err := db.IssueTokens(ctx, tokens, "", now); err != nil {
		t.Fatal(err)
	}
	if g, err := db.TokenGrant(ctx, "a1", "access", now); err != nil || g.UserID != "u1" {
		t.Fatalf("access token: %v %v", g, err)
	}
	if _, err := db.TokenGrant(ctx, "a1", "refresh", now); err == nil {
		t.Fatal("an access token passed as a refresh token")
	}
	if _, err := db.TokenGrant(ctx, "a1", "access", now.Add(2*time.Hour)); err == nil {
		t.Fatal("expired access token accepted")
	}
	// Rotation: the old refresh token dies with the exchange.
	if err := db.IssueTokens(ctx, []appliance.OAuthToken{{Hash: "r2", GrantID: "g1", Kind: "refresh", ExpiresAt: now.Add(time.Hour)}}, "r1", now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.TokenGrant(ctx, "r1", "refresh", now); err == nil {
		t.Fatal("rotated refresh token still live")
	}
	if err := db.IssueTokens(ctx, nil, "r1", now); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("refreshing with a spent token: %v", err)
	}
	// Revoking any token of the grant ends them all.
	if err := db.RevokeToken(ctx, "r2", now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.TokenGrant(ctx, "a1", "access", now); err == nil {
		t.Fatal("access token live after its grant was revoked")
	}
	if err := db.RevokeToken(ctx, "unknown", now); err != nil {
		t.Fatalf("revoking an unknown token: %v", err)
	}
}

func TestOAuthCode_ReplayRevokesGrant(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	now := time.Now().UTC()
	db.CreateAuthorization(ctx, &appliance.OAuthGrant{ID: "g1", UserID: "u1", ClientID: "c", CreatedAt: now},
		&appliance.OAuthCode{Hash: "c1", RedirectURI: "r", CodeChallenge: "x", ExpiresAt: now.Add(time.Minute)})
	if _, _, err := db.RedeemCode(ctx, "c1", now); err != nil {
		t.Fatal(err)
	}
	db.IssueTokens(ctx, []appliance.OAuthToken{{Hash: "a1", GrantID: "g1", Kind: "access", ExpiresAt: now.Add(time.Hour)}}, "", now)
	if _, _, err := db.RedeemCode(ctx, "c1", now); err == nil {
		t.Fatal("code redeemed twice")
	}
	if _, err := db.TokenGrant(ctx, "a1", "access", now); err == nil {
		t.Fatal("tokens of a replayed code's grant still live")
	}
	db.CreateAuthorization(ctx, &appliance.OAuthGrant{ID: "g2", UserID: "u1", ClientID: "c", CreatedAt: now},
		&appliance.OAuthCode{Hash: "c2", RedirectURI: "r", CodeChallenge: "x", ExpiresAt: now.Add(time.Minute)})
	if _, _, err := db.RedeemCode(ctx, "c2", now.Add(2*time.Minute)); err == nil {
		t.Fatal("expired code redeemed")
	}
	grants, _ := db.OAuthGrants(ctx, "u1")
	if len(grants) != 2 {
		t.Fatalf("grants %d", len(grants))
	}
	if err := db.RevokeGrant(ctx, "u2", "g2", now); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("revoking another user's grant: %v", err)
	}
}

// TestRegisteredOAuthClients: a client that registered itself is found by
// its id with its name and redirect URIs, an unknown id is ENOTFOUND and a
// second registration under the same id is a conflict.
func TestRegisteredOAuthClients(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	now := time.Now().UTC()
	c := appliance.OAuthClient{ID: "hc_1", Name: "MCP CLI Client", Redirects: []string{"http://localhost:3334/oauth/callback"}}
	if err := db.RegisterOAuthClient(ctx, c, now); err != nil {
		t.Fatal(err)
	}
	got, err := db.RegisteredOAuthClient(ctx, "hc_1")
	if err != nil || got.Name != c.Name || len(got.Redirects) != 1 || got.Redirects[0] != c.Redirects[0] {
		t.Fatalf("registered client: %+v %v", got, err)
	}
	if _, err := db.RegisteredOAuthClient(ctx, "hc_2"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("unknown client: %v", err)
	}
	if err := db.RegisterOAuthClient(ctx, c, now); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("registered twice: %v", err)
	}
}
