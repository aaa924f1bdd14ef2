package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestInitialize_JSONReply(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, body := f.post(t, initializeBody, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want JSON", ct)
	}
	if resp.Header.Get(sessionHeader) == "" {
		t.Error("no Mcp-Session-Id")
	}
	var res struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      struct{ Name, Version string }
		Instructions    string `json:"instructions"`
	}
	if err := json.Unmarshal(decodeReply(t, body).Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.ProtocolVersion != "2025-03-26" || res.ServerInfo.Name != "hearth-mcp-server" || res.ServerInfo.Version != "1.0.0" {
		t.Errorf("initialize result %s", body)
	}
	if string(res.Capabilities) != `{"tools":{}}` {
		t.Errorf("capabilities %s, want {\"tools\":{}}", res.Capabilities)
	}
	if !strings.Contains(res.Instructions, "search_memories") {
		t.Errorf("instructions %q", res.Instructions)
	}
}

func TestInitialize_SSEReply(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, body := f.post(t, initializeBody, map[string]string{"Accept": "application/json, text/event-stream"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	if resp.Header.Get(sessionHeader) == "" {
		t.Error("no Mcp-Session-Id")
	}
	if !strings.HasPrefix(body, "event: message\ndata: {") || !strings.Contains(body, `"protocolVersion":"2025-03-26"`) {
		t.Errorf("body %q", body)
	}
}

func TestInitialize_EmptyParamsAndOtherVersion(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize"}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
	} {
		resp, out := f.post(t, body, map[string]string{versionHeader: "2025-06-18"})
		if resp.StatusCode != http.StatusOK || !strings.Contains(out, `"protocolVersion":"2025-03-26"`) {
			t.Errorf("%s: %d %s", body, resp.StatusCode, out)
		}
	}
}

func TestToolsList_OnlyAfterInitialize(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	resp, body := f.post(t, list, nil)
	if r := decodeReply(t, body); resp.StatusCode != http.StatusOK || r.Error == nil || r.Error.Code != -32600 ||
		!strings.Contains(r.Error.Message, "initialize") {
		t.Fatalf("tools/list without initialize answered %d %s", resp.StatusCode, body)
	}
	if resp, body := f.post(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, nil); resp.StatusCode != 200 || decodeReply(t, body).Error != nil {
		t.Errorf("ping without a session: %d %s", resp.StatusCode, body)
	}
	sid := f.session(t, tokAda)
	resp, body = f.post(t, list, map[string]string{sessionHeader: sid})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	var res struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
			Annotations map[string]any `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(decodeReply(t, body).Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 16 {
		t.Fatalf("%d tools, want 16", len(res.Tools))
	}
	for _, tool := range res.Tools {
		ro, _ := tool.Annotations["readOnlyHint"].(bool)
		destructive, hasDestructive := tool.Annotations["destructiveHint"].(bool)
		isRead := strings.HasPrefix(tool.Name, "get_") || strings.HasPrefix(tool.Name, "search_")
		switch {
		case isRead && !ro:
			t.Errorf("%s: readOnlyHint missing", tool.Name)
		case !isRead && (ro || !hasDestructive || destructive != strings.HasPrefix(tool.Name, "delete_")):
			t.Errorf("%s: annotations %v", tool.Name, tool.Annotations)
		}
		if ow, ok := tool.Annotations["openWorldHint"].(bool); !ok || ow {
			t.Errorf("%s: openWorldHint %v", tool.Name, tool.Annotations["openWorldHint"])
		}
	}
}

func TestToolsList_FilteredByScope(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sid := f.session(t, tokReadMem)
	_, body := f.post(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		map[string]string{"Authorization": "Bearer " + tokReadMem, sessionHeader: sid})
	var res struct{ Tools []struct{ Name string } }
	json.Unmarshal(decodeReply(t, body).Result, &res)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "get_memories,get_user_profile,search_memories" {
		t.Errorf("tools for memories.read: %s", got)
	}
}

func TestSession_UnknownIDAndDelete(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	resp, body := f.post(t, ping, map[string]string{sessionHeader: "no-such-session"})
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session: %d %s", resp.StatusCode, body)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, `"detail"`) {
		t.Errorf("unknown session body %q (%s)", body, resp.Header.Get("Content-Type"))
	}
	sid := f.session(t, tokAda)
	if resp, body := f.post(t, ping, map[string]string{sessionHeader: sid}); resp.StatusCode != 200 || decodeReply(t, body).Error != nil {
		t.Fatalf("ping: %d %s", resp.StatusCode, body)
	}
	del := func() int {
		req, _ := http.NewRequest(http.MethodDelete, f.url, nil)
		req.Header.Set("Authorization", "Bearer "+tokAda)
		req.Header.Set(sessionHeader, sid)
		resp, _ := do(t, req)
		return resp.StatusCode
	}
	if code := del(); code != http.StatusNoContent {
		t.Errorf("DELETE: %d, want 204", code)
	}
	if resp, _ := f.post(t, ping, map[string]string{sessionHeader: sid}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("after DELETE: %d, want 404", resp.StatusCode)
	}
	if code := del(); code != http.StatusNotFound {
		t.Errorf("second DELETE: %d, want 404", code)
	}
}

func TestNotificationsOnly_202(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sid := f.session(t, tokAda)
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}},{"jsonrpc":"2.0","method":"notifications/whatever"}]`,
	} {
		resp, out := f.post(t, body, map[string]string{sessionHeader: sid})
		if resp.StatusCode != http.StatusAccepted || out != "" {
			t.Errorf("%s: %d %q", body, resp.StatusCode, out)
		}
	}
}

func TestBatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sid := f.session(t, tokAda)
	batch := `[{"jsonrpc":"2.0","id":10,"method":"ping"},
		{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"get_people","arguments":{}}},
		{"jsonrpc":"2.0","method":"notifications/initialized"}]`
	resp, body := f.post(t, batch, map[string]string{sessionHeader: sid})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	var replies []rpcReply
	if err := json.Unmarshal([]byte(body), &replies); err != nil || len(replies) != 2 {
		t.Fatalf("batch reply %s (%v)", body, err)
	}
	ids := map[string]bool{}
	for _, r := range replies {
		ids[string(r.ID)] = true
		if r.Error != nil {
			t.Errorf("error in batch: %+v", r.Error)
		}
	}
	if !ids["10"] || !ids["11"] {
		t.Errorf("ids %v", ids)
	}
	// The same batch with SSE: one frame per response.
	resp, body = f.post(t, batch, map[string]string{sessionHeader: sid, "Accept": "text/event-stream, application/json"})
	if resp.StatusCode != 200 || strings.Count(body, "event: message\n") != 2 {
		t.Errorf("SSE batch: %d %q", resp.StatusCode, body)
	}
}

func TestUnknownMethodAndTool(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sid := f.session(t, tokAda)
	_, body := f.post(t, `{"jsonrpc":"2.0","id":4,"method":"resources/list"}`, map[string]string{sessionHeader: sid})
	if r := decodeReply(t, body); r.Error == nil || r.Error.Code != -32601 || r.Error.Message != "Method not found: resources/list" {
		t.Errorf("unknown method: %s", body)
	}
	if r := f.callTool(t, sid, tokAda, "get_x_posts", map[string]any{}); r.Error == nil || r.Error.Code != -32601 || r.Error.Message != "Unknown tool: get_x_posts" {
		t.Errorf("unknown tool: %+v", r.Error)
	}
	_, body = f.post(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":{}}}`, map[string]string{sessionHeader: sid})
	if r := decodeReply(t, body); r.Error == nil || r.Error.Code != -32602 || r.Error.Message != "Tool name is required" {
		t.Errorf("no tool name: %s", body)
	}
	// In a batch, the local answers join the SDK's, in either framing.
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"foo/bar"},
		{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}]`
	_, body = f.post(t, batch, map[string]string{sessionHeader: sid})
	var replies []rpcReply
	if err := json.Unmarshal([]byte(body), &replies); err != nil || len(replies) != 3 {
		t.Fatalf("batch: %s", body)
	}
	codes := map[string]int{}
	for _, r := range replies {
		if r.Error != nil {
			codes[string(r.ID)] = r.Error.Code
		}
	}
	if len(codes) != 2 || codes["2"] != -32601 || codes["3"] != -32601 {
		t.Errorf("batch errors %v in %s", codes, body)
	}
	resp, body := f.post(t, batch, map[string]string{sessionHeader: sid, "Accept": "text/event-stream"})
	if resp.Header.Get("Content-Type") != "text/event-stream" || strings.Count(body, "event: message\ndata: ") != 3 {
		t.Errorf("SSE batch: %q", body)
	}
}

func TestInvalidJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, body := f.post(t, `{"jsonrpc":`, nil)
	if resp.StatusCode != http.StatusBadRequest || strings.TrimSpace(body) != `{"detail":"Invalid JSON body"}` {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

func TestAuth_BareKeyWorks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, body := f.post(t, initializeBody, map[string]string{"Authorization": keyAda})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("bare key: %d %s", resp.StatusCode, body)
	}
	sid := resp.Header.Get(sessionHeader)
	// Colon-style key scopes are honoured (memories:write → create_memory),
	// and conversations:read stands in for people.read.
	for _, tool := range []string{"get_people", "get_memories"} {
		r := f.callTool(t, sid, keyAda, tool, map[string]any{})
		if r.Error != nil {
			t.Errorf("%s with API key: %+v", tool, r.Error)
		}
	}
}

func TestAuth_Failures401(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	wantChallenge := `Bearer resource_metadata="http://` + f.srv.Listener.Addr().String() +
		`/.well-known/oauth-protected-resource/v1/mcp/sse", error="invalid_token", error_description="Valid Hearth MCP OAuth bearer token required"`
	for name, authz := range map[string]string{
		"missing":      "",
		"invalid":      "Bearer tok-wrong",
		"invalid bare": "hearth_mcp_ffffffffffffffffffffffffffffffff",
		"wrong scheme": "Basic dXNlcjpwYXNz",
		"bearer alone": "Bearer",
	} {
		for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			req, _ := http.NewRequest(method, f.url, strings.NewReader(initializeBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			if authz != "" {
				req.Header.Set("Authorization", authz)
			}
			resp, body := do(t, req)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s: status %d", name, method, resp.StatusCode)
			}
			if strings.TrimSpace(body) != `{"detail":"Invalid or missing API key. Provide via Authorization header."}` {
				t.Errorf("%s %s: body %q", name, method, body)
			}
			if got := resp.Header.Values("WWW-Authenticate"); len(got) != 1 || got[0] != wantChallenge {
				t.Errorf("%s %s: WWW-Authenticate %q\nwant %q", name, method, got, wantChallenge)
			}
		}
	}
}

func TestAuth_OtherUsersSession403(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sid := f.session(t, tokAda)
	resp, body := f.post(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_memories","arguments":{}}}`,
		map[string]string{"Authorization": "Bearer " + tokBob, sessionHeader: sid})
	if resp.StatusCode != http.StatusForbidden || strings.Contains(body, "penicillin") {
		t.Errorf("Bob with Ada's session: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, f.url, nil)
	req.Header.Set("Authorization", "Bearer "+tokBob)
	req.Header.Set(sessionHeader, sid)
	if resp, _ := do(t, req); resp.StatusCode != http.StatusForbidden {
		t.Errorf("Bob deleting Ada's session: %d", resp.StatusCode)
	}
}

func TestHostHeaderNotLoopback(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// The listener is on 127.0.0.1; a LAN client names the appliance.
	req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(initializeBody))
	req.Host = "hearth.local:8080"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokAda)
	if resp, body := do(t, req); resp.StatusCode != http.StatusOK {
		t.Errorf("LAN Host: %d %s", resp.StatusCode, body)
	}
	// A page of the appliance itself may call.
	req, _ = http.NewRequest(http.MethodPost, f.url, strings.NewReader(initializeBody))
	req.Host = "hearth.local:8080"
	req.Header.Set("Origin", "http://hearth.local:8080")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokAda)
	if resp, body := do(t, req); resp.StatusCode != http.StatusOK {
		t.Errorf("own Origin: %d %s", resp.StatusCode, body)
	}
}

func TestForeignOriginRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, origin := range []string{"https://evil.example", "null", "http://127.0.0.1:1"} {
		req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(initializeBody))
		req.Header.Set("Origin", origin)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokAda)
		if resp, body := do(t, req); resp.StatusCode != http.StatusForbidden || strings.TrimSpace(body) != `{"detail":"Origin not allowed"}` {
			t.Errorf("Origin %s: %d %s", origin, resp.StatusCode, body)
		}
	}
}

func TestHEAD(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	req, _ := http.NewRequest(http.MethodHead, f.url, nil)
	req.Header.Set("Authorization", tokAda)
	if resp, _ := do(t, req); resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD: %d", resp.StatusCode)
	}
}

// readEvents reads SSE lines from a GET stream until n ping frames arrived.
func waitPings(t *testing.T, resp *http.Response, n int) {
	t.Helper()
	sc := bufio.NewScanner(resp.Body)
	pings := 0
	for sc.Scan() {
		if sc.Text() == "event: ping" {
			if !sc.Scan() || sc.Text() != "data: {}" {
				t.Fatalf("ping frame data %q", sc.Text())
			}
			if pings++; pings == n {
				return
			}
		}
	}
	t.Fatalf("stream ended after %d pings: %v", pings, sc.Err())
}

func TestGETStream_Pings(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, options{pingInterval: 20 * time.Millisecond})
	sid := f.session(t, tokAda)
	for name, hdr := range map[string]string{"with session": sid, "without session": ""} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
		req.Header.Set("Authorization", "Bearer "+tokAda)
		if hdr != "" {
			req.Header.Set(sessionHeader, hdr)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("%s: %d %s", name, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		waitPings(t, resp, 2)
		resp.Body.Close()
		cancel()
	}
}

func TestDNSRebindingGuardOff(t *testing.T) {
	t.Parallel()
	// The SDK's guard looks at the local address; make sure a request that
	// reached a loopback listener under a public name is served.
	f := newFixture(t)
	conn, err := net.Dial("tcp", f.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "POST /v1/mcp/sse HTTP/1.1\r\nHost: 192.168.1.20\r\nAuthorization: " + tokAda +
		"\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: " +
		itoa(len(initializeBody)) + "\r\nConnection: close\r\n\r\n" + initializeBody
	conn.Write([]byte(req))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d", resp.StatusCode)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
