package mcp

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectLegacy opens a session over the HTTP+SSE transport (revision
// 2024-11-05) with the go-sdk's own client.
func (f *fixture) connectLegacy(t *testing.T, token string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := sdk.NewClient(&sdk.Implementation{Name: "legacy-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.SSEClientTransport{
		Endpoint:   f.url,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestLegacySSETransport: a client of the older HTTP+SSE transport reaches
// the same tools, as the user who opened the session, under the same
// credentials.
func TestLegacySSETransport(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connectLegacy(t, tokAda)
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) != 16 {
		t.Fatalf("%d tools over the legacy transport", len(lt.Tools))
	}
	var mems struct{ Memories []Memory }
	callJSON(t, cs, "get_memories", map[string]any{}, &mems)
	if len(mems.Memories) == 0 {
		t.Fatal("no memories over the legacy transport")
	}
	for _, m := range mems.Memories {
		if m.ID == f.bobMemID {
			t.Fatalf("another user's memory %s", m.ID)
		}
	}
	if je := callErr(t, cs, "delete_memory", map[string]any{"memory_id": f.bobMemID}); je.Code != CodeNotFound {
		t.Fatalf("another user's memory: %d", je.Code)
	}
}

// TestLegacySessionsBelongToTheirUser: a valid key of another user cannot
// post into a legacy session (its calls would run as the session's owner),
// and no credential opens none.
func TestLegacySessionsBelongToTheirUser(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	req, _ := http.NewRequest("GET", f.url, nil)
	req.Header.Set("Authorization", "Bearer "+tokAda)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	endpoint := ""
	for endpoint == "" {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok && strings.Contains(v, "sessionid=") {
			endpoint = v
		}
	}
	post := func(token string) int {
		r, _ := http.NewRequest("POST", strings.TrimSuffix(f.url, "/v1/mcp/sse")+endpoint,
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		r.Header.Set("Content-Type", "application/json")
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(tokBob); code != http.StatusNotFound {
		t.Fatalf("another user's post into the session: %d", code)
	}
	if code := post(""); code != http.StatusUnauthorized {
		t.Fatalf("a post without a credential: %d", code)
	}
	if code := post(tokAda); code != http.StatusAccepted {
		t.Fatalf("the owner's post: %d", code)
	}
	req2, _ := http.NewRequest("GET", f.url, nil)
	resp2, err := http.DefaultClient.Do(req2)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a stream without a credential: %d", resp2.StatusCode)
	}
}

// TestErrorsAlikeOnBothTransports: an unknown method and an unknown tool
// get the same JSON-RPC error on the legacy transport, delivered on its
// stream, as on streamable HTTP; and tools/list carries no field of a later
// protocol draft (ttlMs, cacheScope) on either.
func TestErrorsAlikeOnBothTransports(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	calls := []string{
		`{"jsonrpc":"2.0","id":7,"method":"nope/nothing"}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`,
	}
	sid := f.session(t, tokAda)
	var streamable []string
	for _, c := range calls {
		_, body := f.post(t, c, map[string]string{sessionHeader: sid})
		streamable = append(streamable, body)
	}

	req, _ := http.NewRequest("GET", f.url, nil)
	req.Header.Set("Authorization", "Bearer "+tokAda)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	// next returns the data of the stream's next message event.
	next := func() string {
		t.Helper()
		event := ""
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			line = strings.TrimSpace(line)
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				event = v
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok && (event == "message" || event == "endpoint") {
				return v
			}
		}
	}
	endpoint := strings.TrimSuffix(f.url, "/v1/mcp/sse") + next()
	post := func(body string) {
		t.Helper()
		r, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+tokAda)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("post %s: %d %s", body, resp.StatusCode, b)
		}
	}
	post(strings.Replace(initializeBody, "2025-03-26", legacyVersion, 1))
	next()
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, c := range calls {
		post(c)
		legacy := next()
		if i < 2 {
			if legacy != streamable[i] {
				t.Errorf("%s:\n legacy     %s\n streamable %s", c, legacy, streamable[i])
			}
			if r := decodeReply(t, legacy); r.Error == nil || r.Error.Code != CodeMethodNotFound {
				t.Errorf("%s: %s, want -32601", c, legacy)
			}
			continue
		}
		for _, body := range []string{legacy, streamable[i]} {
			if strings.Contains(body, "ttlMs") || strings.Contains(body, "cacheScope") || !strings.Contains(body, `"name":"get_memories"`) {
				t.Errorf("tools/list: %.300s", body)
			}
		}
	}
	if !strings.Contains(streamable[0], `"message":"Method not found: nope/nothing"`) || !strings.Contains(streamable[1], `"message":"Unknown tool: nope"`) {
		t.Errorf("streamable HTTP: %v", streamable[:2])
	}
}
