package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func TestDevAuth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const list = "/v1/dev/user/conversations"
	const create = "/v1/dev/user/conversations/from-segments"
	e.run(t, []apiCase{
		{Name: "NoHeader", Method: "GET", Path: list, WantStatus: 401,
			WantContains: []string{`"detail":"Missing or invalid Authorization header. Must be 'Bearer API_KEY'"`}},
		{Name: "NotBearer", Method: "GET", Path: list, Auth: "Basic " + e.devRW, WantStatus: 401,
			WantContains: []string{"Must be 'Bearer API_KEY'"}},
		{Name: "EmptyBearer", Method: "GET", Path: list, Auth: "Bearer ", WantStatus: 401,
			WantContains: []string{"Must be 'Bearer API_KEY'"}},
		{Name: "Garbage", Method: "GET", Path: list, Auth: "Bearer nonsense", WantStatus: 401,
			WantContains: []string{`"detail":"Invalid API Key"`}},
		{Name: "UnknownKey", Method: "GET", Path: list, Auth: "Bearer hearth_dev_00000000000000000000000000000000", WantStatus: 401,
			WantContains: []string{`"detail":"Invalid API Key"`}},
		{Name: "BareKeyIsNotEnough", Method: "GET", Path: list, Auth: e.devRW, WantStatus: 401,
			WantContains: []string{"Must be 'Bearer API_KEY'"}},
		{Name: "MCPKeyNamesItsEndpoints", Method: "GET", Path: list, Auth: bearer(e.mcp), WantStatus: 401,
			WantContains: []string{"MCP API keys (hearth_mcp_...) only authenticate the MCP endpoints under /v1/mcp/", "/v1/mcp/sse", "requires a Developer API key"}},
		{Name: "IDTokenIsNotAKey", Method: "GET", Path: list, Auth: bearer(e.token), WantStatus: 401,
			WantContains: []string{`"detail":"Invalid API Key"`}},
		{Name: "Revoked", Method: "GET", Path: list, Auth: bearer(e.devRevoked), WantStatus: 401,
			WantContains: []string{`"detail":"Invalid API Key"`}},
		{Name: "ReadOnlyCannotWrite", Method: "POST", Path: create, Auth: bearer(e.devRO), Body: meetingBody, WantStatus: 403,
			WantContains: []string{`"detail":"Insufficient permissions. Required scope: conversations:write"`}},
		{Name: "ReadOnlyCanRead", Method: "GET", Path: list, Auth: bearer(e.devRO), WantStatus: 200},
		{Name: "ReadOnlyCannotPatch", Method: "PATCH", Path: list + "/x", Auth: bearer(e.devRO), Body: `{"title":"x"}`, WantStatus: 403},
		{Name: "ReadOnlyCannotDelete", Method: "DELETE", Path: list + "/x", Auth: bearer(e.devRO), WantStatus: 403},
		{Name: "CaseInsensitiveScheme", Method: "GET", Path: list, Auth: "bearer " + e.devRO, WantStatus: 200},
	})
}

func TestMemoriesPathsDoNotExist(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var cases []apiCase
	for _, path := range []string{"/v1/memories", "/v2/memories", "/v1/memories/abc"} {
		for name, auth := range map[string]string{"none": "", "dev": bearer(e.devRW), "mcp": bearer(e.mcp), "token": bearer(e.token)} {
			for _, method := range []string{"GET", "POST"} {
				cases = append(cases, apiCase{Name: method + path + "/" + name, Method: method, Path: path, Auth: auth,
					Body: `{}`, WantStatus: 404, WantContains: []string{`"detail":"Not Found"`}})
			}
		}
	}
	e.run(t, cases)
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *appliance.Config) { c.RateLimitBoost = 1 })
	// dev:conversations allows 25 writes an hour per key; PATCH of a missing
	// conversation is a write that is cheap to repeat.
	path := "/v1/dev/user/conversations/missing"
	for i := range 25 {
		if rec := e.do("PATCH", path, bearer(e.devRW), `{"title":"t"}`); rec.Code != http.StatusNotFound {
			t.Fatalf("request %d: status %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := e.do("PATCH", path, bearer(e.devRW), `{"title":"t"}`)
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("26th write: status %d, want 429", rec.Code)
	}
	retry, err := strconv.Atoi(rec.Header().Get("Retry-After"))
	if err != nil || retry < 3590 || retry > 3600 {
		t.Fatalf("Retry-After = %q, want about 3600", rec.Header().Get("Retry-After"))
	}
	if got := decode(t, rec)["detail"]; got != "Rate limit exceeded. Try again in "+strconv.Itoa(retry)+"s." {
		t.Fatalf("detail = %q", got)
	}
	if rec.Header().Get("X-RateLimit-Limit") != "25" || rec.Header().Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("rate headers = %v", rec.Header())
	}
	// Limits are per key: another user's key and reads are unaffected.
	if rec := e.do("PATCH", path, bearer(e.otherRW), `{"title":"t"}`); rec.Code != http.StatusNotFound {
		t.Fatalf("other key: %d", rec.Code)
	}
	if rec := e.do("GET", "/v1/dev/user/conversations", bearer(e.devRW), ""); rec.Code != http.StatusOK {
		t.Fatalf("read after write limit: %d", rec.Code)
	}
	// The window ends an hour after it began.
	e.clock.Add(time.Hour)
	if rec := e.do("PATCH", path, bearer(e.devRW), `{"title":"t"}`); rec.Code != http.StatusNotFound {
		t.Fatalf("after the window: %d, want 404", rec.Code)
	}
}

func TestRateLimit_TranscriptReadsHaveTheirOwnBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *appliance.Config) { c.RateLimitBoost = 1 })
	for i := range 25 {
		if rec := e.do("GET", "/v1/dev/user/conversations?include_transcript=true", bearer(e.devRW), ""); rec.Code != 200 {
			t.Fatalf("read %d: %d", i, rec.Code)
		}
	}
	if rec := e.do("GET", "/v1/dev/user/conversations?include_transcript=true", bearer(e.devRW), ""); rec.Code != 429 {
		t.Fatalf("26th transcript read: %d, want 429", rec.Code)
	}
	if rec := e.do("GET", "/v1/dev/user/conversations", bearer(e.devRW), ""); rec.Code != 200 {
		t.Fatalf("plain read after transcript budget: %d, want 200", rec.Code)
	}
}

func TestIDTokenSurfaces(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	expired := func() string {
		s := *e.signer
		s.Now = func() time.Time { return time.Now().Add(-2 * time.Hour) }
		tok, _ := s.Issue(e.user, time.Hour)
		return tok
	}()
	ghost, _ := e.signer.Issue("no-such-user", time.Hour)
	e.run(t, []apiCase{
		{Name: "NoToken", Method: "POST", Path: "/v1/conversations", Body: `{}`, WantStatus: 401},
		{Name: "Expired", Method: "POST", Path: "/v1/conversations", Auth: bearer(expired), Body: `{}`, WantStatus: 401,
			WantContains: []string{"Invalid authorization token"}},
		{Name: "UnknownUser", Method: "POST", Path: "/v1/conversations", Auth: bearer(ghost), Body: `{}`, WantStatus: 401},
		{Name: "DevKeyNamesItsEndpoints", Method: "POST", Path: "/v1/conversations", Auth: bearer(e.devRW), Body: `{}`, WantStatus: 401,
			WantContains: []string{"only authenticate the Developer API under /v1/dev/", "ID token"}},
		{Name: "MCPKey", Method: "POST", Path: "/v1/conversations", Auth: bearer(e.mcp), Body: `{}`, WantStatus: 401,
			WantContains: []string{"/v1/mcp/", "ID token"}},
		{Name: "NothingInProgress", Method: "POST", Path: "/v1/conversations", Auth: bearer(e.token), Body: `{}`, WantStatus: 404,
			WantContains: []string{`"detail":"Conversation in progress not found"`}},
		{Name: "FromSegmentsTwin", Method: "POST", Path: "/v1/conversations/from-segments", Auth: bearer(e.token), Body: meetingBody,
			WantStatus: 200, WantContains: []string{`"status":"completed"`}},
	})
}

func TestMCPInfo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.run(t, []apiCase{{Name: "NoAuthNeeded", Method: "GET", Path: "/v1/mcp/sse/info", WantStatus: 200,
		WantContains: []string{`"endpoint":"/v1/mcp/sse"`, `"protocol_version":"2025-03-26"`, `"transport":"streamable-http"`,
			`"step2":"Set Server URL to: http://127.0.0.1:8080/v1/mcp/sse"`}}})
}

func TestKeyManagement(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := bearer(e.token)
	created := decode(t, e.do("POST", "/v1/dev/keys", tok, `{"name":" ci ","scopes":["conversations:read","conversations:write"]}`))
	raw, id := created["key"].(string), created["id"].(string)
	if !strings.HasPrefix(raw, "hearth_dev_") || created["name"] != "ci" || created["key_prefix"] != raw[:15]+"..."+raw[len(raw)-4:] {
		t.Fatalf("created %v", created)
	}
	if rec := e.do("GET", "/v1/dev/user/conversations", bearer(raw), ""); rec.Code != 200 {
		t.Fatalf("new key: %d", rec.Code)
	}
	mcp := decode(t, e.do("POST", "/v1/mcp/keys", tok, `{"name":"claude"}`))
	if !strings.HasPrefix(mcp["key"].(string), "hearth_mcp_") || len(mcp["scopes"].([]any)) != len(appliance.AvailableScopes) {
		t.Fatalf("mcp key %v", mcp)
	}
	e.run(t, []apiCase{
		{Name: "ListHidesTheKey", Method: "GET", Path: "/v1/dev/keys", Auth: tok, WantStatus: 200,
			WantContains: []string{`"id":"` + id + `"`, `"key_prefix":"hearth_dev_`}, WantAbsent: []string{raw, `"key":`, "hearth_mcp_"}},
		{Name: "EmptyName", Method: "POST", Path: "/v1/dev/keys", Auth: tok, Body: `{"name":"  "}`, WantStatus: 422,
			WantContains: []string{"Key name cannot be empty"}},
		{Name: "BadScopes", Method: "POST", Path: "/v1/dev/keys", Auth: tok, Body: `{"name":"x","scopes":["root"]}`, WantStatus: 400,
			WantContains: []string{"Invalid scopes. Available: ['conversations:read'"}},
		{Name: "KeysCannotManageKeys", Method: "GET", Path: "/v1/dev/keys", Auth: bearer(e.devAll), WantStatus: 401},
		{Name: "WrongFamilyDelete", Method: "DELETE", Path: "/v1/mcp/keys/" + id, Auth: tok, WantStatus: 404},
		{Name: "Delete", Method: "DELETE", Path: "/v1/dev/keys/" + id, Auth: tok, WantStatus: 204},
		{Name: "DeletedKeyRefused", Method: "GET", Path: "/v1/dev/user/conversations", Auth: bearer(raw), WantStatus: 401},
		{Name: "OtherUsersKeyNotFound", Method: "DELETE", Path: "/v1/mcp/keys/" + mcp["id"].(string), Auth: bearer(mustToken(t, e, e.other)), WantStatus: 404},
	})
}

// TestOneCredentialCheckPerRequest: every surface authenticates a request
// once, including the MCP endpoint, whose handler reuses the principal the
// router established instead of verifying the credential again.
func TestOneCredentialCheckPerRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct{ name, method, path, auth, body string }{
		{"mcp endpoint", "POST", "/v1/mcp/sse", bearer(e.mcp), init},
		{"mcp endpoint, bare key", "POST", "/v1/mcp/sse", e.mcp, init},
		{"rest twin", "GET", "/v1/mcp/memories", bearer(e.mcp), ""},
		{"developer api", "GET", "/v1/dev/user/conversations", bearer(e.devRW), ""},
		{"id token", "GET", "/v1/search?q=budget", bearer(e.token), ""},
	} {
		before := e.auth.calls.Load()
		if rec := e.do(tc.method, tc.path, tc.auth, tc.body); rec.Code != 200 {
			t.Fatalf("%s: %d %s", tc.name, rec.Code, rec.Body)
		}
		if n := e.auth.calls.Load() - before; n != 1 {
			t.Errorf("%s: %d credential checks, want 1", tc.name, n)
		}
	}
	// A credential of the wrong family is refused by its prefix, unchecked.
	before := e.auth.calls.Load()
	if rec := e.do("GET", "/v1/dev/user/conversations", bearer(e.mcp), ""); rec.Code != 401 {
		t.Fatalf("wrong family: %d", rec.Code)
	}
	if n := e.auth.calls.Load() - before; n != 0 {
		t.Errorf("wrong family: %d credential checks, want 0", n)
	}
}
