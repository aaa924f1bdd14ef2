package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestConsentSignsInWithThePassword: an assistant's OAuth consent page
// takes the owner's console name and password (the redirect from the
// assistant's site carries no SameSite=Strict cookie), issues a code the
// assistant exchanges for a token that reaches the MCP endpoint as that
// owner, and refuses a wrong password without a code.
func TestConsentSignsInWithThePassword(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	claimConsole(t, srv)
	verifier := "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	sum := sha256.Sum256([]byte(verifier))
	redirect := "http://127.0.0.1:53682/callback"
	params := url.Values{"response_type": {"code"}, "client_id": {"hearth-local"}, "redirect_uri": {redirect},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"state": {"s1"}, "scope": {"memories.read conversations.read"}}

	resp, err := http.Get(srv.base + "/oauth/authorize?" + params.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `name="password"`) || !strings.Contains(string(page), "/console/console.css") {
		t.Fatalf("consent page: %d %s", resp.StatusCode, page)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	decide := func(password string) *http.Response {
		t.Helper()
		v := url.Values{}
		for k, vs := range params {
			v[k] = vs
		}
		v.Set("decision", "approve")
		v.Set("name", "Ada")
		v.Set("password", password)
		resp, err := noRedirect.PostForm(srv.base+"/oauth/authorize", v)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if r := decide("not the password"); r.StatusCode != 401 || r.Header.Get("Location") != "" {
		t.Fatalf("a wrong password: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	r := decide("correct horse battery")
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.StatusCode != 302 || loc == nil || loc.Query().Get("code") == "" || loc.Query().Get("state") != "s1" {
		t.Fatalf("approve: %d %v", r.StatusCode, loc)
	}
	tok, err := http.PostForm(srv.base+"/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
		"redirect_uri": {redirect}, "client_id": {"hearth-local"}, "code_verifier": {verifier}})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(tok.Body).Decode(&out)
	tok.Body.Close()
	if tok.StatusCode != 200 || out.AccessToken == "" {
		t.Fatalf("token: %d", tok.StatusCode)
	}
	// The consent signed nobody in: no session was left behind.
	if strings.Contains(r.Header.Get("Set-Cookie"), "hearth_session") {
		t.Fatal("the consent page set a console session")
	}
	req, _ := http.NewRequest("POST", srv.base+"/v1/mcp/sse", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize",`+
		`"params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"consent-test","version":"1"}}}`))
	req.Header.Set("Authorization", "Bearer "+out.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	mcp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(mcp.Body)
	mcp.Body.Close()
	if mcp.StatusCode != 200 || !strings.Contains(string(body), "serverInfo") {
		t.Fatalf("MCP with the token: %d %.300s", mcp.StatusCode, body)
	}
}
