package api_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

func TestMCPRest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all, mcp := bearer(e.devAll), bearer(e.mcp)
	// e.mcp was created with the read-only default scopes; a full one writes.
	full := bearer(e.addKey(e.user, "mcp", "memories:read", "memories:write", "conversations:read", "action_items:read", "action_items:write"))
	conv := e.create(meetingBody)["id"].(string)
	keep := decode(t, e.do("POST", "/v1/dev/user/memories", all, `{"content":"I keep the spare key with Margaret next door"}`))["id"].(string)
	secret := decode(t, e.do("POST", "/v1/dev/user/memories", all, `{"content":"`+strings.Repeat("private thought ", 10)+`"}`))["id"].(string)
	e.do("PUT", "/v1/dev/user/memories/"+secret+"/locked", all, `{"locked":true}`)
	locked := e.create(meetingBody)["id"].(string)
	e.do("PUT", "/v1/dev/user/conversations/"+locked+"/locked", all, `{"locked":true}`)

	e.run(t, []apiCase{
		{Name: "NoCredential", Method: "GET", Path: "/v1/mcp/memories", WantStatus: 401, WantContains: []string{"Must be 'Bearer API_KEY'"}},
		{Name: "DevKeyNamesItsEndpoints", Method: "GET", Path: "/v1/mcp/memories", Auth: all, WantStatus: 401,
			WantContains: []string{"Developer API keys (hearth_dev_...) only authenticate the Developer API under /v1/dev/", "requires an MCP API key"}},
		{Name: "BareKey", Method: "GET", Path: "/v1/mcp/memories", Auth: e.mcp, WantStatus: 200},
		{Name: "BareDevKeyStillRefused", Method: "GET", Path: "/v1/dev/user/conversations", Auth: e.devRW, WantStatus: 401},
		{Name: "ListMemories", Method: "GET", Path: "/v1/mcp/memories", Auth: mcp, WantStatus: 200,
			WantContains: []string{`"content":"I keep the spare key with Margaret next door"`, `"category":"system"`, strings.Repeat("private thought ", 5)[:70] + "..."},
			WantAbsent:   []string{`"tags"`}},
		{Name: "BadSort", Method: "GET", Path: "/v1/mcp/memories?sort=random", Auth: mcp, WantStatus: 400,
			WantContains: []string{"Invalid sort. Expected one of: scoring_desc, created_desc, updated_desc, manual_first."}},
		{Name: "BadCategory", Method: "GET", Path: "/v1/mcp/memories?categories=dreams", Auth: mcp, WantStatus: 400},
		{Name: "Search", Method: "GET", Path: "/v1/mcp/memories/search?query=spare+key+Margaret", Auth: mcp, WantStatus: 200,
			WantContains: []string{`"id":"` + keep + `"`, `"relevance_score":`}},
		{Name: "SearchNeedsQuery", Method: "GET", Path: "/v1/mcp/memories/search", Auth: mcp, WantStatus: 422},
		{Name: "ReadOnlyKeyCannotWrite", Method: "POST", Path: "/v1/mcp/memories", Auth: mcp, Body: `{"content":"x"}`, WantStatus: 403},
		{Name: "EditLocked", Method: "PATCH", Path: "/v1/mcp/memories/" + secret + "?value=x", Auth: full, WantStatus: 402,
			WantContains: []string{"This memory is locked: its owner has hidden it from assistants"}},
		{Name: "EditMissing", Method: "PATCH", Path: "/v1/mcp/memories/nope?value=x", Auth: full, WantStatus: 404, WantContains: []string{"Memory not found"}},
		{Name: "EditByQuery", Method: "PATCH", Path: "/v1/mcp/memories/" + keep + "?value=" + url.QueryEscape("The spare key is with Margaret"), Auth: full,
			WantStatus: 200, WantContains: []string{`{"status":"ok"}`}},
		{Name: "EditByBody", Method: "PATCH", Path: "/v1/mcp/memories/" + keep, Auth: full, Body: `{"content":"Spare key: Margaret"}`, WantStatus: 200},
		{Name: "Conversations", Method: "GET", Path: "/v1/mcp/conversations", Auth: mcp, WantStatus: 200,
			WantContains: []string{`"id":"` + conv + `"`, `"id":"` + locked + `"`, `"structured":{"title":`, `"category":"business"`}},
		{Name: "ConversationWithTranscript", Method: "GET", Path: "/v1/mcp/conversations/" + conv, Auth: mcp, WantStatus: 200,
			WantContains: []string{`"transcript_segments":[{"id":`, `"speaker_name":"Ada Lovelace"`}},
		{Name: "LockedConversation", Method: "GET", Path: "/v1/mcp/conversations/" + locked, Auth: mcp, WantStatus: 402,
			WantContains: []string{"This conversation is locked: its owner has hidden it from assistants"}},
		{Name: "ConversationSearch", Method: "GET", Path: "/v1/mcp/conversations/search?query=budget", Auth: mcp, WantStatus: 200,
			WantContains: []string{`"id":"` + conv + `"`}},
		{Name: "ConversationSearchBadDate", Method: "GET", Path: "/v1/mcp/conversations/search?query=budget&start_date=03/01/2026", Auth: mcp,
			WantStatus: 400, WantContains: []string{"Invalid start_date format: '03/01/2026'. Expected YYYY-MM-DD."}},
		{Name: "ConversationSearchFuture", Method: "GET", Path: "/v1/mcp/conversations/search?query=budget&start_date=2099-01-01", Auth: mcp,
			WantStatus: 200, WantContains: []string{`[]`}},
		{Name: "People", Method: "GET", Path: "/v1/mcp/people", Auth: mcp, WantStatus: 200, WantContains: []string{`[]`}},
		{Name: "DeleteMemory", Method: "DELETE", Path: "/v1/mcp/memories/" + keep, Auth: full, WantStatus: 200, WantContains: []string{`{"status":"ok"}`}},
	})

	t.Run("ActionItems", func(t *testing.T) {
		a := decode(t, e.do("POST", "/v1/mcp/action-items", full, `{"description":"Water the tomatoes"}`))
		id := a["id"].(string)
		if got := decode(t, e.do("POST", "/v1/mcp/action-items/"+id+"/complete", full, "")); got["completed"] != true || got["completed_at"] == nil {
			t.Fatalf("complete: %v", got)
		}
		if l := decodeList(t, e.do("GET", "/v1/mcp/action-items?completed=true", mcp, "")); len(l) != 1 {
			t.Fatalf("completed items: %v", l)
		}
		if l := decodeList(t, e.do("GET", "/v1/mcp/action-items/search?query=tomatoes", mcp, "")); len(l) != 1 {
			t.Fatalf("search: %v", l)
		}
		if rec := e.do("DELETE", "/v1/mcp/action-items/"+id, full, ""); rec.Code != 200 {
			t.Fatalf("delete: %d", rec.Code)
		}
	})

	t.Run("CreatedMemoryIsCategorisedByTheServer", func(t *testing.T) {
		m := decode(t, e.do("POST", "/v1/mcp/memories", full, `{"content":"Always let bread dough rest overnight","category":"system"}`))
		if m["category"] != "interesting" || m["manually_added"] != true {
			t.Fatalf("created %v", m)
		}
	})
}

func TestMCPRest_OAuthTokenAndRevocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	code := e.approve(t)
	rec := e.form("POST", "/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI},
		"client_id": {"hearth-local"}, "code_verifier": {verifier}})
	var tok map[string]any
	json.Unmarshal(rec.Body.Bytes(), &tok)
	access := bearer(tok["access_token"].(string))
	if rec := e.do("GET", "/v1/mcp/memories", access, ""); rec.Code != 200 {
		t.Fatalf("OAuth token on the twins: %d %s", rec.Code, rec.Body)
	}
	// The grant has memories.read and conversations.read only.
	if rec := e.do("GET", "/v1/mcp/action-items", access, ""); rec.Code != 403 {
		t.Fatalf("ungranted scope: %d", rec.Code)
	}
	if rec := e.form("POST", "/oauth/revoke", url.Values{"token": {tok["access_token"].(string)}}); rec.Code != 200 {
		t.Fatal("revoke failed")
	}
	if rec := e.do("GET", "/v1/mcp/memories", access, ""); rec.Code != 401 {
		t.Fatalf("revoked token: %d, want 401 at once", rec.Code)
	}
	if grants, _ := e.db.OAuthGrants(context.Background(), e.user); len(grants) != 1 || grants[0].RevokedAt == nil {
		t.Fatalf("grants %v", grants)
	}
}

func TestMCPRateLimit(t *testing.T) {
	t.Parallel()
	// mcp:sse allows 2000 requests an hour per user; a boost of 0.001 makes that 2.
	e := newEnv(t, func(c *appliance.Config) { c.RateLimitBoost = 0.001 })
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for i := range 2 {
		if rec := e.do("POST", "/v1/mcp/sse", bearer(e.mcp), init); rec.Code != 200 {
			t.Fatalf("request %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := e.do("POST", "/v1/mcp/sse", e.mcp, init) // a bare key counts for the same user
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "Rate limit exceeded") {
		t.Fatalf("third request: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	// Bad credentials are not charged to anyone: they get the MCP 401.
	if rec := e.do("POST", "/v1/mcp/sse", "Bearer hearth_mcp_00000000000000000000000000000000", init); rec.Code != 401 ||
		!strings.Contains(rec.Header().Get("WWW-Authenticate"), "resource_metadata=") {
		t.Fatalf("bad key: %d %v", rec.Code, rec.Header())
	}
}

// TestMCPEndpointAliases: /v1/mcp and /mcp answer as /v1/mcp/sse does, under
// the same credential check, for clients that assume the usual path.
func TestMCPEndpointAliases(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, path := range []string{"/v1/mcp/sse", "/v1/mcp", "/mcp"} {
		if rec := e.do("POST", path, bearer(e.mcp), init); rec.Code != 200 || rec.Header().Get("Mcp-Session-Id") == "" ||
			!strings.Contains(rec.Body.String(), `"serverInfo":{"name":"hearth-mcp-server"`) {
			t.Errorf("%s: %d %v %s", path, rec.Code, rec.Header(), rec.Body)
		}
		for _, auth := range []string{"", bearer(e.devAll)} {
			if rec := e.do("POST", path, auth, init); rec.Code != 401 || !strings.Contains(rec.Header().Get("WWW-Authenticate"), "resource_metadata=") {
				t.Errorf("%s with %q: %d %v", path, auth, rec.Code, rec.Header())
			}
		}
		// An OAuth client follows the challenge and checks that the
		// metadata's resource is the URL it was given.
		rec := e.do("POST", path, "", init)
		_, meta, _ := strings.Cut(rec.Header().Get("WWW-Authenticate"), `resource_metadata="`)
		meta, _, _ = strings.Cut(meta, `"`)
		u, err := url.Parse(meta)
		if err != nil || u.Path != "/.well-known/oauth-protected-resource"+path {
			t.Errorf("%s: the challenge names the metadata at %q", path, meta)
			continue
		}
		got := e.do("GET", u.Path, "", "")
		var md struct {
			Resource string `json:"resource"`
		}
		if got.Code != 200 || json.Unmarshal(got.Body.Bytes(), &md) != nil || !strings.HasSuffix(md.Resource, path) ||
			strings.HasSuffix(md.Resource, "/sse") != strings.HasSuffix(path, "/sse") {
			t.Errorf("%s: metadata %d %s: want the resource %s", path, got.Code, got.Body, path)
		}
	}
}
