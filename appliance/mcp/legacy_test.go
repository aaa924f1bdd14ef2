package mcp

import (
	"bufio"
	"context"
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
