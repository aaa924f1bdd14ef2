package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// answer is what a surface's reply means, whatever its wire shape: the
// outcome (ok, invalid, locked, not found), the action item's completed_at
// when one came back, and the events the write published.
type answer struct {
	Outcome     string
	CompletedAt string
	Events      []appliance.EventType
}

// surface speaks one of the four ways to write a record, over a real HTTP
// server on loopback: the developer API, the console, the MCP REST twins
// and the MCP JSON-RPC endpoint.
type surface struct {
	name string
	// send makes one request and returns its status (JSON-RPC's error code
	// for MCP, 200 for a result) and the JSON of the record it answered.
	createMemory, editMemory, deleteMemory, completeItem func(t *testing.T, arg ...string) (int, []byte)
}

// surfaceFixture is one surface's own records, so that the surfaces do
// not see each other's writes.
type surfaceFixture struct {
	memory, lockedMemory, otherUsersMemory     string
	doneItem, itemOfLockedConv, otherUsersItem string
	doneAt                                     time.Time
}

func seedSurface(t *testing.T, e *env, name string) surfaceFixture {
	t.Helper()
	ctx := context.Background()
	f := surfaceFixture{memory: "m-" + name, lockedMemory: "m-locked-" + name, otherUsersMemory: "m-other-" + name,
		doneItem: "a-done-" + name, itemOfLockedConv: "a-hidden-" + name, otherUsersItem: "a-other-" + name,
		doneAt: e.clock.Now().Add(-24 * time.Hour).Truncate(time.Second)}
	at := e.clock.Now().Add(-time.Hour)
	mem := func(id, uid string, locked bool) *appliance.Memory {
		return &appliance.Memory{ID: id, UserID: uid, Content: "Ada keeps bees on the roof", Category: appliance.MemorySystem,
			CreatedAt: at, UpdatedAt: at, IsLocked: locked}
	}
	if err := e.db.CreateMemories(ctx, []*appliance.Memory{mem(f.memory, e.user, false), mem(f.lockedMemory, e.user, true),
		mem(f.otherUsersMemory, e.other, false)}); err != nil {
		t.Fatal(err)
	}
	fin := at.Add(10 * time.Minute)
	conv := &appliance.Conversation{ID: "c-locked-" + name, UserID: e.user, CreatedAt: at, UpdatedAt: at, StartedAt: &at,
		FinishedAt: &fin, Source: appliance.SourceOmi, Language: "en", Status: appliance.StatusCompleted, IsLocked: true,
		Structured: appliance.Structured{Title: "Hives", Overview: "The hives need a new roof.", Category: appliance.Category("personal"),
			ActionItems: []appliance.ActionItem{{ID: f.itemOfLockedConv, Description: "Order hive roofs"}}, Events: []appliance.Event{}},
		TranscriptSegments: []appliance.TranscriptSegment{{ID: "s0", Text: "The hives need a new roof", Speaker: "SPEAKER_00", IsUser: true, End: 2}}}
	if err := e.db.SaveConversation(ctx, conv); err != nil {
		t.Fatal(err)
	}
	item := func(id, uid string) *appliance.ActionItem {
		return &appliance.ActionItem{ID: id, UserID: uid, Description: "Paint the hives", Completed: true, CompletedAt: &f.doneAt,
			CreatedAt: &at, UpdatedAt: &at}
	}
	if err := e.db.CreateActionItems(ctx, []*appliance.ActionItem{item(f.doneItem, e.user), item(f.otherUsersItem, e.other)}); err != nil {
		t.Fatal(err)
	}
	return f
}

// httpSurface is a REST surface: paths under base, auth set by decorate.
func httpSurface(name, base string, client *http.Client, decorate func(*http.Request), twin bool) surface {
	send := func(t *testing.T, method, path, body string) (int, []byte) {
		t.Helper()
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, base+path, r)
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		decorate(req)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	content := func(c string) string { b, _ := json.Marshal(map[string]string{"content": c}); return string(b) }
	s := surface{name: name,
		createMemory: func(t *testing.T, a ...string) (int, []byte) { return send(t, "POST", "/memories", content(a[0])) },
		editMemory: func(t *testing.T, a ...string) (int, []byte) {
			return send(t, "PATCH", "/memories/"+a[0], content(a[1]))
		},
		deleteMemory: func(t *testing.T, a ...string) (int, []byte) { return send(t, "DELETE", "/memories/"+a[0], "") },
		completeItem: func(t *testing.T, a ...string) (int, []byte) {
			return send(t, "PATCH", "/action-items/"+a[0], `{"completed":true}`)
		},
	}
	if twin {
		s.completeItem = func(t *testing.T, a ...string) (int, []byte) {
			return send(t, "POST", "/action-items/"+a[0]+"/complete", "")
		}
	}
	return s
}

// mcpSurface calls the tools through the JSON-RPC endpoint.
func mcpSurface(t *testing.T, url, key string) surface {
	post := func(t *testing.T, sid, body string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/v1/mcp/sse", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, b := post(t, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"surfaces","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, b)
	}
	post(t, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call := func(t *testing.T, tool string, args map[string]any) (int, []byte) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
		_, b := post(t, sid, string(body))
		var reply struct {
			Result *struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
			Error *struct{ Code int } `json:"error"`
		}
		if err := json.Unmarshal(b, &reply); err != nil || (reply.Result == nil && reply.Error == nil) {
			t.Fatalf("%s: %s", tool, b)
		}
		if reply.Error != nil {
			return reply.Error.Code, nil
		}
		// The tools answer {success, action_item} or {success, memory}.
		var wrapped struct {
			ActionItem json.RawMessage `json:"action_item"`
		}
		text := []byte(reply.Result.Content[0].Text)
		if json.Unmarshal(text, &wrapped) == nil && wrapped.ActionItem != nil {
			text = wrapped.ActionItem
		}
		return 200, text
	}
	return surface{name: "mcp",
		createMemory: func(t *testing.T, a ...string) (int, []byte) {
			return call(t, "create_memory", map[string]any{"content": a[0]})
		},
		editMemory: func(t *testing.T, a ...string) (int, []byte) {
			return call(t, "edit_memory", map[string]any{"memory_id": a[0], "content": a[1]})
		},
		deleteMemory: func(t *testing.T, a ...string) (int, []byte) {
			return call(t, "delete_memory", map[string]any{"memory_id": a[0]})
		},
		completeItem: func(t *testing.T, a ...string) (int, []byte) {
			return call(t, "complete_action_item", map[string]any{"action_item_id": a[0], "completed": true})
		},
	}
}

// outcomeOf names a status: HTTP's, or JSON-RPC's error code.
func outcomeOf(code int) string {
	switch code {
	case 200:
		return "ok"
	case 400, 422, -32602:
		return "invalid"
	case 402, -32002:
		return "locked"
	case 404, -32001:
		return "not found"
	}
	return "status " + strconv.Itoa(code)
}

// consoleSignIn signs env.user in to the console with a password and
// returns a client holding the session cookie and the CSRF token.
func consoleSignIn(t *testing.T, e *env, url string) (*http.Client, string) {
	t.Helper()
	if err := (&console.Service{Store: e.db}).SetPassword(context.Background(), e.user, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.Post(url+"/console/api/login", "application/json",
		bytes.NewReader([]byte(`{"name":"`+e.user+`","password":"correct horse battery"}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		CSRF string `json:"csrf_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || out.CSRF == "" {
		t.Fatalf("console login: %d %v", resp.StatusCode, err)
	}
	return client, out.CSRF
}

// TestRecordRulesAgreeOnEverySurface runs each rule of records (the length
// bound, the item's own lock, its conversation's lock, completed_at set only
// when the state flips, another user's records not found, one event per
// write) through the developer API, the console, the MCP REST twins and the
// MCP tools, and expects the same answer from all four.
func TestRecordRulesAgreeOnEverySurface(t *testing.T) {
	e := newEnv(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	mcpKey := e.addKey(e.user, appliance.KeyKindMCP, appliance.AvailableScopes...)
	consoleClient, csrf := consoleSignIn(t, e, ts.URL)
	withKey := func(key string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+key) }
	}
	surfaces := []surface{
		httpSurface("dev", ts.URL+"/v1/dev/user", http.DefaultClient, withKey(e.devAll), false),
		httpSurface("console", ts.URL+"/console/api", consoleClient, func(r *http.Request) { r.Header.Set("X-CSRF-Token", csrf) }, false),
		httpSurface("twin", ts.URL+"/v1/mcp", http.DefaultClient, withKey(mcpKey), true),
		mcpSurface(t, ts.URL, mcpKey),
	}
	fixtures := map[string]surfaceFixture{}
	for _, s := range surfaces {
		fixtures[s.name] = seedSurface(t, e, s.name)
	}
	// Later than every seeded time: a completed_at reset would show.
	e.clock.Add(time.Hour)

	changed, created, itemChanged := appliance.EventMemoryChanged, appliance.EventMemoryCreated, appliance.EventActionItemChanged
	cases := []struct {
		name string
		run  func(t *testing.T, s surface, f surfaceFixture) (int, []byte)
		want answer
	}{
		{"a memory of 500 characters is kept",
			func(t *testing.T, s surface, _ surfaceFixture) (int, []byte) {
				return s.createMemory(t, strings.Repeat("b", records.MaxText))
			},
			answer{Outcome: "ok", Events: []appliance.EventType{created}}},
		{"a memory of 501 characters is refused",
			func(t *testing.T, s surface, _ surfaceFixture) (int, []byte) {
				return s.createMemory(t, strings.Repeat("b", records.MaxText+1))
			},
			answer{Outcome: "invalid"}},
		{"an edit of 501 characters is refused",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.editMemory(t, f.memory, strings.Repeat("b", records.MaxText+1))
			},
			answer{Outcome: "invalid"}},
		{"an edit is kept and published once",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.editMemory(t, f.memory, "Ada keeps three hives on the roof")
			},
			answer{Outcome: "ok", Events: []appliance.EventType{changed}}},
		{"a locked memory is not edited",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.editMemory(t, f.lockedMemory, "x")
			},
			answer{Outcome: "locked"}},
		{"a locked memory is not deleted",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.deleteMemory(t, f.lockedMemory)
			},
			answer{Outcome: "locked"}},
		{"an item of a locked conversation is not completed",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.completeItem(t, f.itemOfLockedConv)
			},
			answer{Outcome: "locked"}},
		{"completing a completed item keeps its completed_at",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) { return s.completeItem(t, f.doneItem) },
			answer{Outcome: "ok", CompletedAt: "doneAt", Events: []appliance.EventType{itemChanged}}},
		{"another user's memory is not found",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.editMemory(t, f.otherUsersMemory, "mine now")
			},
			answer{Outcome: "not found"}},
		{"another user's memory is not deleted",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.deleteMemory(t, f.otherUsersMemory)
			},
			answer{Outcome: "not found"}},
		{"another user's item is not found",
			func(t *testing.T, s surface, f surfaceFixture) (int, []byte) {
				return s.completeItem(t, f.otherUsersItem)
			},
			answer{Outcome: "not found"}},
	}
	sub := e.events.Subscribe("")
	t.Cleanup(sub.Close)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range surfaces {
				f := fixtures[s.name]
				code, body := tc.run(t, s, f)
				got := answer{Outcome: outcomeOf(code)}
				var item struct {
					CompletedAt *time.Time `json:"completed_at"`
				}
				if got.Outcome == "ok" && json.Unmarshal(body, &item) == nil && item.CompletedAt != nil {
					got.CompletedAt = item.CompletedAt.UTC().Format(time.RFC3339)
					if item.CompletedAt.Equal(f.doneAt) {
						got.CompletedAt = "doneAt"
					}
				}
			drain:
				for {
					select {
					case ev := <-sub.C():
						if ev.UserID == e.user {
							got.Events = append(got.Events, ev.Type)
						}
					default:
						break drain
					}
				}
				if !equalAnswers(got, tc.want) {
					t.Errorf("%s: %+v, want %+v (reply %s)", s.name, got, tc.want, body)
				}
			}
		})
	}
}

func equalAnswers(a, b answer) bool {
	if a.Outcome != b.Outcome || a.CompletedAt != b.CompletedAt || len(a.Events) != len(b.Events) {
		return false
	}
	for i := range a.Events {
		if a.Events[i] != b.Events[i] {
			return false
		}
	}
	return true
}
