package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func (e *env) form(method, path string, v url.Values) *httptest.ResponseRecorder {
	e.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

const (
	verifier    = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	redirectURI = "http://127.0.0.1:53682/callback"
)

func challenge(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func authParams() url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {"hearth-local"}, "redirect_uri": {redirectURI},
		"code_challenge": {challenge(verifier)}, "code_challenge_method": {"S256"}, "state": {"xyz"},
		"scope": {"memories.read conversations.read"}}
}

// approve runs the consent step and returns the authorization code.
func (e *env) approve(t *testing.T) string {
	t.Helper()
	v := authParams()
	v.Set("decision", "approve")
	v.Set("id_token", e.token)
	rec := e.form("POST", "/oauth/authorize", v)
	if rec.Code != http.StatusFound {
		t.Fatalf("approve: %d %s", rec.Code, rec.Body)
	}
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if !strings.HasPrefix(loc.String(), redirectURI) || loc.Query().Get("state") != "xyz" || loc.Query().Get("code") == "" {
		t.Fatalf("redirect %s", loc)
	}
	return loc.Query().Get("code")
}

func TestOAuthMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.run(t, []apiCase{
		{Name: "ProtectedResource", Method: "GET", Path: "/.well-known/oauth-protected-resource/v1/mcp/sse", WantStatus: 200,
			WantContains: []string{`"resource":"http://127.0.0.1:8080/v1/mcp/sse"`, `"authorization_servers":["http://127.0.0.1:8080"]`}},
		{Name: "ProtectedResourceRoot", Method: "GET", Path: "/.well-known/oauth-protected-resource", WantStatus: 200},
		{Name: "AuthorizationServer", Method: "GET", Path: "/.well-known/oauth-authorization-server", WantStatus: 200,
			WantContains: []string{`"code_challenge_methods_supported":["S256"]`, `"token_endpoint_auth_methods_supported":["none"]`,
				`"token_endpoint":"http://127.0.0.1:8080/oauth/token"`, `"revocation_endpoint"`}},
	})
}

func TestOAuthAuthorize(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	with := func(k, v string) string {
		p := authParams()
		if v == "" {
			p.Del(k)
		} else {
			p.Set(k, v)
		}
		return "/oauth/authorize?" + p.Encode()
	}
	e.run(t, []apiCase{
		{Name: "ConsentPage", Method: "GET", Path: with("state", "xyz"), WantStatus: 200,
			WantContains: []string{"Connect hearth-local", "memories.read", "hearth token", `name="code_challenge"`}},
		{Name: "UnknownClientNotRedirected", Method: "GET", Path: with("client_id", "evil-app"), WantStatus: 400,
			WantContains: []string{"Unknown client_id"}},
		{Name: "UnregisteredRedirect", Method: "GET", Path: with("redirect_uri", "https://evil.example/cb"), WantStatus: 400},
	})
	for name, tc := range map[string]struct{ key, value, want string }{
		"NoPKCE":        {"code_challenge", "", "invalid_request"},
		"PlainPKCE":     {"code_challenge_method", "plain", "invalid_request"},
		"TokenResponse": {"response_type", "token", "unsupported_response_type"},
		"UnknownScope":  {"scope", "admin.everything", "invalid_scope"},
	} {
		t.Run(name, func(t *testing.T) {
			rec := e.do("GET", with(tc.key, tc.value), "", "")
			loc, _ := url.Parse(rec.Header().Get("Location"))
			if rec.Code != http.StatusFound || loc.Query().Get("error") != tc.want || loc.Query().Get("state") != "xyz" {
				t.Fatalf("%d %s", rec.Code, loc)
			}
		})
	}
	t.Run("Deny", func(t *testing.T) {
		v := authParams()
		v.Set("decision", "deny")
		rec := e.form("POST", "/oauth/authorize", v)
		if loc, _ := url.Parse(rec.Header().Get("Location")); rec.Code != 302 || loc.Query().Get("error") != "access_denied" {
			t.Fatalf("%d %v", rec.Code, loc)
		}
	})
	t.Run("BadSignIn", func(t *testing.T) {
		v := authParams()
		v.Set("decision", "approve")
		v.Set("id_token", "not-a-token")
		rec := e.form("POST", "/oauth/authorize", v)
		if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "not valid") {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	})
}

func TestOAuthTokenFlow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	exchange := func(v url.Values) (int, map[string]any) {
		rec := e.form("POST", "/oauth/token", v)
		var m map[string]any
		json.Unmarshal(rec.Body.Bytes(), &m)
		return rec.Code, m
	}
	codeParams := func(code, verifier string) url.Values {
		return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI},
			"client_id": {"hearth-local"}, "code_verifier": {verifier}}
	}
	t.Run("WrongVerifier", func(t *testing.T) {
		if code, m := exchange(codeParams(e.approve(t), "wrong-verifier-wrong-verifier-wrong-verifier")); code != 400 || m["error"] != "invalid_grant" {
			t.Fatalf("%d %v", code, m)
		}
	})
	t.Run("WrongClient", func(t *testing.T) {
		v := codeParams(e.approve(t), verifier)
		v.Set("client_id", "claude")
		if code, m := exchange(v); code != 400 || m["error"] != "invalid_grant" {
			t.Fatalf("%d %v", code, m)
		}
	})
	t.Run("UnknownClient", func(t *testing.T) {
		v := codeParams("x", verifier)
		v.Set("client_id", "nobody")
		if code, m := exchange(v); code != 401 || m["error"] != "invalid_client" {
			t.Fatalf("%d %v", code, m)
		}
	})
	t.Run("UnsupportedGrant", func(t *testing.T) {
		if code, m := exchange(url.Values{"grant_type": {"password"}, "client_id": {"hearth-local"}}); code != 400 || m["error"] != "unsupported_grant_type" {
			t.Fatalf("%d %v", code, m)
		}
	})

	code := e.approve(t)
	status, tok := exchange(codeParams(code, verifier))
	if status != 200 || tok["token_type"] != "Bearer" || tok["expires_in"] != 3600.0 || tok["scope"] != "memories.read conversations.read" ||
		!strings.HasPrefix(tok["access_token"].(string), "hearth_oat_") || !strings.HasPrefix(tok["refresh_token"].(string), "hearth_ort_") {
		t.Fatalf("token response %d %v", status, tok)
	}
	if status, m := exchange(codeParams(code, verifier)); status != 400 || m["error"] != "invalid_grant" {
		t.Fatalf("code reuse: %d %v", status, m)
	}
	// Reusing the code revoked the grant: the refresh token no longer works.
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {"hearth-local"}}
	if status, _ := exchange(refresh); status != 400 {
		t.Fatalf("refresh after code replay: %d", status)
	}

	// A fresh grant: refresh rotates, and revocation ends everything.
	_, tok = exchange(codeParams(e.approve(t), verifier))
	refresh.Set("refresh_token", tok["refresh_token"].(string))
	status, tok2 := exchange(refresh)
	if status != 200 || tok2["access_token"] == tok["access_token"] {
		t.Fatalf("refresh: %d %v", status, tok2)
	}
	if status, _ := exchange(refresh); status != 400 {
		t.Fatalf("spent refresh token reused: %d", status)
	}
	// Presenting a rotated refresh token revokes the whole grant: the
	// tokens it was rotated into stop working too.
	if rec := e.do("GET", "/v1/mcp/memories", bearer(tok2["access_token"].(string)), ""); rec.Code != 401 {
		t.Fatalf("access token after refresh-token reuse: %d", rec.Code)
	}
	next := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok2["refresh_token"].(string)}, "client_id": {"hearth-local"}}
	if status, _ := exchange(next); status != 400 {
		t.Fatalf("rotated-into refresh token after reuse: %d", status)
	}

	// Another fresh grant: revocation ends everything.
	_, tok = exchange(codeParams(e.approve(t), verifier))
	refresh.Set("refresh_token", tok["refresh_token"].(string))
	status, tok2 = exchange(refresh)
	if status != 200 {
		t.Fatalf("refresh: %d %v", status, tok2)
	}
	if rec := e.form("POST", "/oauth/revoke", url.Values{"token": {tok2["refresh_token"].(string)}}); rec.Code != 200 {
		t.Fatalf("revoke: %d", rec.Code)
	}
	refresh.Set("refresh_token", tok2["refresh_token"].(string))
	if status, _ := exchange(refresh); status != 400 {
		t.Fatalf("revoked refresh token works: %d", status)
	}
}

// TestConsentRefusesCrossSitePosts: a page on another site that submits
// the consent form (with an ID token it obtained) gets no code.
func TestConsentRefusesCrossSitePosts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	v := authParams()
	v.Set("decision", "approve")
	v.Set("id_token", e.token)
	post := func(headers map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/oauth/authorize", strings.NewReader(v.Encode()))
		req.Host = "127.0.0.1:8080"
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, val := range headers {
			req.Header.Set(k, val)
		}
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		return rec
	}
	for name, h := range map[string]map[string]string{
		"foreign origin":             {"Origin": "https://evil.example"},
		"cross-site fetch":           {"Sec-Fetch-Site": "cross-site"},
		"same-site, not same-origin": {"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"},
		"null origin":                {"Origin": "null"},
	} {
		if rec := post(h); rec.Code != http.StatusForbidden || rec.Header().Get("Location") != "" {
			t.Errorf("%s: %d %s", name, rec.Code, rec.Header().Get("Location"))
		}
	}
	for name, h := range map[string]map[string]string{
		"own page":      {"Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-origin"},
		"not a browser": {},
	} {
		if rec := post(h); rec.Code != http.StatusFound || !strings.Contains(rec.Header().Get("Location"), "code=") {
			t.Errorf("%s: %d %s", name, rec.Code, rec.Body)
		}
	}
}
