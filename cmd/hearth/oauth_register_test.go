package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// jsonCall sends body (JSON when it is not url.Values) and decodes a JSON
// object answer.
func jsonCall(t *testing.T, method, u string, body any, bearer string) (int, map[string]any, http.Header) {
	t.Helper()
	var req *http.Request
	switch b := body.(type) {
	case nil:
		req, _ = http.NewRequest(method, u, nil)
	case url.Values:
		req, _ = http.NewRequest(method, u, strings.NewReader(b.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case string:
		req, _ = http.NewRequest(method, u, strings.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v map[string]any
	json.Unmarshal(raw, &v)
	return resp.StatusCode, v, resp.Header
}

// mcpInitialize calls the MCP endpoint's initialize with an access token.
func mcpInitialize(t *testing.T, base, token string) (int, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/v1/mcp/sse", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize",`+
		`"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"dcr-test","version":"1"}}}`))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == 200 && !strings.Contains(string(body), "serverInfo") {
		t.Fatalf("initialize: 200 without serverInfo: %.300s", body)
	}
	return resp.StatusCode, resp.Header
}

// TestOAuthDynamicRegistrationThroughTheBinary walks the flow an MCP client
// with no client id of its own follows (mcp-remote, Claude's and ChatGPT's
// connectors): a 401 from the MCP endpoint names the protected-resource
// metadata, which names the authorization server, whose metadata names the
// registration endpoint; the client registers, sends the owner to consent
// with PKCE, trades the code for tokens, calls MCP, refreshes; the owner
// sees it in the console and revokes it, and its tokens are refused.
func TestOAuthDynamicRegistrationThroughTheBinary(t *testing.T) {
	t.Parallel()
	srv := startServe(t, t.TempDir(), "HEARTH_MDNS=false")
	ada, _ := claimConsole(t, srv)

	// Discovery, from the 401 on.
	st, hdr := mcpInitialize(t, srv.base, "")
	m := regexp.MustCompile(`resource_metadata="([^"]+)"`).FindStringSubmatch(hdr.Get("WWW-Authenticate"))
	if st != 401 || m == nil || !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer ") {
		t.Fatalf("MCP without a token: %d, WWW-Authenticate %q", st, hdr.Get("WWW-Authenticate"))
	}
	st, prm, _ := jsonCall(t, "GET", m[1], nil, "")
	servers, _ := prm["authorization_servers"].([]any)
	if st != 200 || prm["resource"] != srv.base+"/v1/mcp/sse" || len(servers) != 1 || servers[0] != srv.base {
		t.Fatalf("protected-resource metadata: %d %v", st, prm)
	}
	st, asm, _ := jsonCall(t, "GET", srv.base+"/.well-known/oauth-authorization-server", nil, "")
	if st != 200 || asm["registration_endpoint"] != srv.base+"/oauth/register" {
		t.Fatalf("authorization-server metadata: %d %v", st, asm)
	}

	// Registration, as mcp-remote sends it.
	redirect := "http://localhost:53682/oauth/callback"
	st, reg, _ := jsonCall(t, "POST", srv.base+"/oauth/register", `{"redirect_uris":["`+redirect+`"],`+
		`"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"],`+
		`"client_name":"Test Assistant","client_uri":"https://example.com/assistant"}`, "")
	clientID, _ := reg["client_id"].(string)
	if st != 201 || clientID == "" || reg["client_secret"] != nil || reg["token_endpoint_auth_method"] != "none" {
		t.Fatalf("register: %d %v", st, reg)
	}

	verifier := "a-verifier-long-enough-for-rfc-7636-section-4-1-xyz"
	sum := sha256.Sum256([]byte(verifier))
	params := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"state": {"s1"}, "resource": {srv.base + "/v1/mcp/sse"}}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	// Without PKCE the request goes back to the client with an error;
	// with it the consent page names the client by the name it gave.
	noPKCE := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect}, "state": {"s0"}}
	resp, err := noRedirect.Get(srv.base + "/oauth/authorize?" + noPKCE.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc, _ := url.Parse(resp.Header.Get("Location")); resp.StatusCode != 302 || loc.Query().Get("error") != "invalid_request" {
		t.Fatalf("authorize without PKCE: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	other := url.Values{}
	for k, v := range params {
		other[k] = v
	}
	other.Set("redirect_uri", "http://localhost:53682/elsewhere")
	if resp, err = http.Get(srv.base + "/oauth/authorize?" + other.Encode()); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("authorize with an unregistered redirect: %d", resp.StatusCode)
	}
	if resp, err = http.Get(srv.base + "/oauth/authorize?" + params.Encode()); err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "Connect Test Assistant") || !strings.Contains(string(page), "registered itself") {
		t.Fatalf("consent page: %d %s", resp.StatusCode, page)
	}

	// Consent with the owner's password.
	form := url.Values{}
	for k, v := range params {
		form[k] = v
	}
	form.Set("decision", "approve")
	form.Set("name", "Ada")
	form.Set("password", "correct horse battery")
	if resp, err = noRedirect.PostForm(srv.base+"/oauth/authorize", form); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != 302 || loc == nil || !strings.HasPrefix(loc.String(), redirect+"?") || loc.Query().Get("code") == "" || loc.Query().Get("state") != "s1" {
		t.Fatalf("consent: %d %v", resp.StatusCode, loc)
	}

	// Code → tokens → MCP.
	st, tok, _ := jsonCall(t, "POST", srv.base+"/oauth/token", url.Values{"grant_type": {"authorization_code"},
		"code": {loc.Query().Get("code")}, "redirect_uri": {redirect}, "client_id": {clientID}, "code_verifier": {verifier}}, "")
	access, _ := tok["access_token"].(string)
	refresh, _ := tok["refresh_token"].(string)
	if st != 200 || access == "" || refresh == "" {
		t.Fatalf("token: %d %v", st, tok)
	}
	if st, _ := mcpInitialize(t, srv.base, access); st != 200 {
		t.Fatalf("MCP with the access token: %d", st)
	}

	// Refresh rotates the refresh token.
	st, tok, _ = jsonCall(t, "POST", srv.base+"/oauth/token", url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {refresh}, "client_id": {clientID}}, "")
	access2, _ := tok["access_token"].(string)
	refresh2, _ := tok["refresh_token"].(string)
	if st != 200 || access2 == "" || refresh2 == "" || refresh2 == refresh {
		t.Fatalf("refresh: %d %v", st, tok)
	}
	if st, _ := mcpInitialize(t, srv.base, access2); st != 200 {
		t.Fatalf("MCP with the refreshed access token: %d", st)
	}

	// The console lists it by name, and revokes it.
	grants := ada.list("/console/api/oauth/grants")
	if len(grants) != 1 || grants[0]["client_name"] != "Test Assistant" || grants[0]["client_id"] != clientID {
		t.Fatalf("console grants: %v", grants)
	}
	if st, v := ada.change("DELETE", "/console/api/oauth/grants/"+grants[0]["id"].(string), ""); st != 204 {
		t.Fatalf("console revoke: %d %v", st, v)
	}
	if grants := ada.list("/console/api/oauth/grants"); len(grants) != 0 {
		t.Fatalf("console grants after the revoke: %v", grants)
	}
	st, tok, _ = jsonCall(t, "POST", srv.base+"/oauth/token", url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {refresh2}, "client_id": {clientID}}, "")
	if st != 400 || tok["error"] != "invalid_grant" {
		t.Fatalf("refresh after the revoke: %d %v", st, tok)
	}
	if st, _ := mcpInitialize(t, srv.base, access2); st != 401 {
		t.Fatalf("MCP with a revoked grant's access token: %d", st)
	}
}

// TestOAuthRegistrationRefusesWhatItMustThroughTheBinary: a registration
// that names a plain-HTTP redirect off this machine, names none, or asks
// for a client secret, another grant, or more than the limits allow is
// refused with RFC 7591's error codes, and one
// address gets 10 registrations an hour.
func TestOAuthRegistrationRefusesWhatItMustThroughTheBinary(t *testing.T) {
	t.Parallel()
	srv := startServe(t, t.TempDir(), "HEARTH_MDNS=false")
	const limit = 10 // api.PolicyOAuthRegister, per address and hour
	refused := []struct{ name, body, code string }{
		{"LAN http redirect", `{"redirect_uris":["http://192.168.1.20:8080/cb"]}`, "invalid_redirect_uri"},
		{"userinfo in a loopback redirect", `{"redirect_uris":["http://evil.example@127.0.0.1:8080/cb"]}`, "invalid_redirect_uri"},
		{"custom scheme", `{"redirect_uris":["myapp://cb"]}`, "invalid_redirect_uri"},
		{"no redirect_uris", `{"client_name":"x","token_endpoint_auth_method":"none"}`, "invalid_client_metadata"},
		{"confidential client", `{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`, "invalid_client_metadata"},
		{"client credentials grant", `{"redirect_uris":["https://app.example/cb"],"grant_types":["client_credentials"]}`, "invalid_client_metadata"},
		{"not JSON", `redirect_uris=https://app.example/cb`, "invalid_client_metadata"},
		{"eleven redirect_uris", `{"redirect_uris":["https://a.example/cb"` + strings.Repeat(`,"https://a.example/cb"`, 10) + `]}`, "invalid_client_metadata"},
		{"a 101-character client_name", `{"redirect_uris":["https://app.example/cb"],"client_name":"` + strings.Repeat("n", 101) + `"}`, "invalid_client_metadata"},
	}
	for _, tc := range refused {
		st, v, _ := jsonCall(t, "POST", srv.base+"/oauth/register", tc.body, "")
		if st != 400 || v["error"] != tc.code || v["client_id"] != nil {
			t.Errorf("%s: %d %v, want 400 %s", tc.name, st, v, tc.code)
		}
	}
	// Refusals count too: the budget is for calls, not for clients made.
	good := `{"redirect_uris":["https://app.example/cb"],"client_name":"ok"}`
	for i := len(refused); i < limit; i++ {
		if st, v, _ := jsonCall(t, "POST", srv.base+"/oauth/register", good, ""); st != 201 {
			t.Fatalf("registration %d: %d %v", i+1, st, v)
		}
	}
	st, v, hdr := jsonCall(t, "POST", srv.base+"/oauth/register", good, "")
	if st != 429 || hdr.Get("Retry-After") == "" || v["client_id"] != nil {
		t.Fatalf("registration %d: %d %v, want 429 with Retry-After", limit+1, st, v)
	}
	// An id nobody registered is refused at the token endpoint.
	st, v, _ = jsonCall(t, "POST", srv.base+"/oauth/token", url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {"x"}, "client_id": {"hc_nobody"}}, "")
	if st != 401 || v["error"] != "invalid_client" {
		t.Fatalf("token for an unknown registered id: %d %v", st, v)
	}
}

// TestMCPRemoteOAuthThroughTheBinary: mcp-remote (testdata/mcp-remote,
// pinned in its package-lock.json; make mcp-remote installs it) with no
// flag but the URL registers itself, gets the owner's consent through a
// scripted browser that posts the console password, and serves the
// appliance's tools over stdio to the official TypeScript client.
func TestMCPRemoteOAuthThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs("testdata/mcp-remote")
	node, err := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "mcp-remote", "dist", "proxy.js"))
	if err != nil || modErr != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("mcp-remote is not installed (node: %v, modules: %v); run make mcp-remote", err, modErr)
		}
		t.Skip("mcp-remote not installed; make test installs it")
	}
	srv := startServe(t, t.TempDir(), "HEARTH_MDNS=false")
	ada, _ := claimConsole(t, srv)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	consentLog := filepath.Join(t.TempDir(), "consent.log")
	cmd := exec.CommandContext(ctx, node, "remote.mjs", srv.base+"/v1/mcp/sse", t.TempDir())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HEARTH_CONSENT_NAME=Ada", "HEARTH_CONSENT_PASSWORD=correct horse battery",
		"HEARTH_CONSENT_LOG="+consentLog)
	// remote.mjs starts mcp-remote's proxy, which holds the output pipe: on
	// the deadline the whole group goes, and Wait returns even so (a
	// consent page that never answered hung the package for its 30 minutes).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	consent, _ := os.ReadFile(consentLog)
	if err != nil || !strings.Contains(string(out), "PASS mcp-remote oauth") {
		t.Fatalf("mcp-remote: %v\n%s\nconsent: %s\nserver log:\n%s", err, out, consent, srv.logs)
	}
	// The client it registered is the one the owner now sees connected.
	grants := ada.list("/console/api/oauth/grants")
	if len(grants) != 1 || !strings.HasPrefix(grants[0]["client_id"].(string), "hc_") {
		t.Fatalf("console grants after mcp-remote: %v", grants)
	}
}
