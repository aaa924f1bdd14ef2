package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// mcpSession is an initialized MCP session on the env's router.
type mcpSession struct {
	e   *env
	key string
	sid string
}

func (e *env) mcpSession(key string) *mcpSession {
	e.t.Helper()
	rec := e.mcpPost(key, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"twin-test","version":"1"}}}`)
	sid := rec.Header().Get("Mcp-Session-Id")
	if rec.Code != 200 || sid == "" {
		e.t.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	e.mcpPost(key, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return &mcpSession{e: e, key: key, sid: sid}
}

func (e *env) mcpPost(key, sid, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/v1/mcp/sse", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

// call runs a tool and returns its result's JSON text, or the JSON-RPC
// error code.
func (s *mcpSession) call(tool string, args map[string]any) (string, int) {
	s.e.t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	rec := s.e.mcpPost(s.key, s.sid, string(b))
	var reply struct {
		Result *struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
		Error *struct{ Code int } `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
		s.e.t.Fatalf("%s: %d %s", tool, rec.Code, rec.Body)
	}
	if reply.Error != nil {
		return "", reply.Error.Code
	}
	return reply.Result.Content[0].Text, 0
}

// twinData seeds a user in Auckland (UTC+13 in March) with items either
// side of local midnight, locked ones, and a locked conversation with an
// action item.
type twinData struct {
	user, key                string
	conv, lockedConv, late   string
	item, lockedItem, done   string
	memory, lockedMem, other string
}

func seedTwinData(t *testing.T, e *env) twinData {
	t.Helper()
	ctx := context.Background()
	d := twinData{user: "u-kiri", conv: "c-early", lockedConv: "c-locked", late: "c-late", item: "a-due", lockedItem: "a-in-locked",
		done: "a-done", memory: "m-plain", lockedMem: "m-locked", other: "m-other"}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.db.CreateUser(ctx, &appliance.User{ID: d.user, Name: "Kiri", TimeZone: "Pacific/Auckland", CreatedAt: time.Now()}))
	d.key = e.addKey(d.user, appliance.KeyKindMCP, appliance.AvailableScopes...)
	utc := func(s string) *time.Time { t, _ := time.Parse(time.RFC3339, s); return &t }
	conv := func(id, started string, locked bool, items ...appliance.ActionItem) {
		st := utc(started)
		fin := st.Add(10 * time.Minute)
		c := &appliance.Conversation{ID: id, UserID: d.user, CreatedAt: *st, UpdatedAt: *st, StartedAt: st, FinishedAt: &fin,
			Source: appliance.SourceOmi, Language: "en", Status: appliance.StatusCompleted, IsLocked: locked,
			Structured: appliance.Structured{Title: "Garden planning " + id, Overview: strings.Repeat("We talked about the tomatoes and the basil. ", 4),
				Emoji: "🌱", Category: appliance.Category("personal"), ActionItems: items, Events: []appliance.Event{}},
			TranscriptSegments: []appliance.TranscriptSegment{{ID: id + "-s0", Text: "We should plant the tomatoes", Speaker: "SPEAKER_00", IsUser: true, End: 2}}}
		must(e.db.SaveConversation(ctx, c))
	}
	// 11:30 UTC on the 9th is 00:30 on the 10th in Auckland.
	conv(d.conv, "2026-03-09T11:30:00Z", false)
	conv(d.lockedConv, "2026-03-09T20:00:00Z", true, appliance.ActionItem{ID: d.lockedItem, Description: "Order the compost", DueAt: utc("2026-03-09T22:00:00Z")})
	conv(d.late, "2026-03-10T12:00:00Z", false) // 01:00 on the 11th in Auckland
	now := time.Now().UTC()
	must(e.db.CreateActionItems(ctx, []*appliance.ActionItem{
		{ID: d.item, UserID: d.user, Description: "Water the seedlings", DueAt: utc("2026-03-09T11:30:00Z"), CreatedAt: &now, UpdatedAt: &now},
		{ID: d.done, UserID: d.user, Description: "Buy stakes", Completed: true, CompletedAt: &now, DueAt: utc("2026-03-10T10:59:00Z"), CreatedAt: &now, UpdatedAt: &now},
	}))
	mem := func(id, content string, locked bool, at time.Time) *appliance.Memory {
		return &appliance.Memory{ID: id, UserID: d.user, Content: content, Category: appliance.MemorySystem, CreatedAt: at, UpdatedAt: at, IsLocked: locked}
	}
	must(e.db.CreateMemories(ctx, []*appliance.Memory{
		mem(d.memory, "Kiri grows heirloom tomatoes every summer", false, now.Add(-3*time.Hour)),
		mem(d.lockedMem, "Kiri's garden gate code is 4471, and the spare key sits under the third flowerpot from the left", true, now.Add(-2*time.Hour)),
		mem(d.other, "Kiri prefers basil to parsley", false, now.Add(-time.Hour)),
	}))
	return d
}

// TestToolsAndTwinsAgree runs every read tool and its REST twin on the same
// data and compares the twin's answer with the tool's, projected to the
// twin's shape: the same items, in the same order, with the same locks.
func TestToolsAndTwinsAgree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := seedTwinData(t, e)
	s := e.mcpSession(d.key)
	twin := func(path string) string {
		t.Helper()
		rec := e.do("GET", path, bearer(d.key), "")
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	tool := func(name string, args map[string]any) string {
		t.Helper()
		out, code := s.call(name, args)
		if code != 0 {
			t.Fatalf("%s: error %d", name, code)
		}
		return out
	}
	decode := func(text string, v any) {
		t.Helper()
		if err := json.Unmarshal([]byte(text), v); err != nil {
			t.Fatalf("%v: %s", err, text)
		}
	}
	ids := func(n int, id func(int) string) []string {
		out := []string{}
		for i := range n {
			out = append(out, id(i))
		}
		return out
	}

	t.Run("memories", func(t *testing.T) {
		for _, q := range []struct {
			args  map[string]any
			query string
		}{{map[string]any{}, ""}, {map[string]any{"limit": 2}, "?limit=2"}, {map[string]any{"limit": 1, "offset": 1, "sort": "updated_desc"}, "?limit=1&offset=1&sort=updated_desc"}} {
			var fromTool struct{ Memories []view.Memory }
			decode(tool("get_memories", q.args), &fromTool)
			var fromTwin []view.MemoryBrief
			decode(twin("/v1/mcp/memories"+q.query), &fromTwin)
			want := []view.MemoryBrief{}
			for _, m := range fromTool.Memories {
				want = append(want, view.BriefOf(m))
			}
			if diff := cmp.Diff(want, fromTwin); diff != "" || len(want) == 0 {
				t.Errorf("%v (-tool +twin):\n%s", q.args, diff)
			}
			for _, m := range fromTwin {
				if m.ID == d.lockedMem && !strings.HasSuffix(m.Content, "...") {
					t.Errorf("locked memory shown whole: %q", m.Content)
				}
			}
		}
	})

	t.Run("conversations by the user's days", func(t *testing.T) {
		for _, q := range []struct {
			args  map[string]any
			query string
			want  []string
		}{
			{map[string]any{}, "", []string{d.late, d.lockedConv, d.conv}},
			// The 10th in Auckland: 11:00 UTC on the 9th to 11:00 UTC on the 10th.
			{map[string]any{"start_date": "2026-03-10", "end_date": "2026-03-10"}, "?start_date=2026-03-10&end_date=2026-03-10", []string{d.lockedConv, d.conv}},
			{map[string]any{"start_date": "2026-03-11"}, "?start_date=2026-03-11", []string{d.late}},
			{map[string]any{"limit": 1}, "?limit=1", []string{d.late}},
		} {
			var fromTool struct{ Conversations []view.ConversationSummary }
			decode(tool("get_conversations", q.args), &fromTool)
			var fromTwin []view.ConversationBrief
			decode(twin("/v1/mcp/conversations"+q.query), &fromTwin)
			want := []view.ConversationBrief{}
			for _, c := range fromTool.Conversations {
				want = append(want, view.BriefOfSummary(c))
			}
			if diff := cmp.Diff(want, fromTwin); diff != "" {
				t.Errorf("%v (-tool +twin):\n%s", q.args, diff)
			}
			if got := ids(len(fromTwin), func(i int) string { return fromTwin[i].ID }); !cmp.Equal(got, q.want) {
				t.Errorf("%v: twin listed %v, want %v", q.args, got, q.want)
			}
		}
	})

	t.Run("one conversation", func(t *testing.T) {
		var fromTool struct{ Conversation view.ConversationDetail }
		decode(tool("get_conversation_by_id", map[string]any{"conversation_id": d.conv}), &fromTool)
		var fromTwin view.ConversationBriefDetail
		decode(twin("/v1/mcp/conversations/"+d.conv), &fromTwin)
		if diff := cmp.Diff(view.BriefOfDetail(fromTool.Conversation), fromTwin); diff != "" {
			t.Errorf("(-tool +twin):\n%s", diff)
		}
		if fromTwin.TranscriptSegments[0].SpeakerName != "Kiri" {
			t.Errorf("speaker %q", fromTwin.TranscriptSegments[0].SpeakerName)
		}
		if _, code := s.call("get_conversation_by_id", map[string]any{"conversation_id": d.lockedConv}); code != -32002 {
			t.Errorf("tool on a locked conversation: %d", code)
		}
		if rec := e.do("GET", "/v1/mcp/conversations/"+d.lockedConv, bearer(d.key), ""); rec.Code != 402 {
			t.Errorf("twin on a locked conversation: %d", rec.Code)
		}
	})

	t.Run("action items", func(t *testing.T) {
		for _, q := range []struct {
			args  map[string]any
			query string
			want  []string
		}{
			// The locked conversation's item is hidden from both.
			{map[string]any{}, "", []string{d.item, d.done}},
			{map[string]any{"completed": false}, "?completed=false", []string{d.item}},
			// Due on the 10th in Auckland: both items, which UTC puts on the 9th and the 10th.
			{map[string]any{"due_start_date": "2026-03-10", "due_end_date": "2026-03-10"}, "?due_start_date=2026-03-10&due_end_date=2026-03-10", []string{d.item, d.done}},
			{map[string]any{"due_end_date": "2026-03-09"}, "?due_end_date=2026-03-09", []string{}},
		} {
			var fromTool struct {
				ActionItems []view.ActionItem `json:"action_items"`
			}
			decode(tool("get_action_items", q.args), &fromTool)
			var fromTwin []view.ActionItem
			decode(twin("/v1/mcp/action-items"+q.query), &fromTwin)
			if diff := cmp.Diff(fromTool.ActionItems, fromTwin); diff != "" {
				t.Errorf("%v (-tool +twin):\n%s", q.args, diff)
			}
			got := ids(len(fromTwin), func(i int) string { return fromTwin[i].ID })
			if !cmp.Equal(sorted(got), sorted(q.want)) {
				t.Errorf("%v: twin listed %v, want %v", q.args, got, q.want)
			}
		}
		// A locked conversation's item cannot be changed through either.
		if _, code := s.call("complete_action_item", map[string]any{"action_item_id": d.lockedItem}); code != -32002 {
			t.Errorf("tool completing a locked conversation's item: %d", code)
		}
		for _, r := range []struct{ method, path, body string }{
			{"POST", "/v1/mcp/action-items/" + d.lockedItem + "/complete", ""},
			{"PATCH", "/v1/mcp/action-items/" + d.lockedItem, `{"description":"x"}`},
			{"DELETE", "/v1/mcp/action-items/" + d.lockedItem, ""},
		} {
			if rec := e.do(r.method, r.path, bearer(d.key), r.body); rec.Code != 402 {
				t.Errorf("twin %s %s on a locked conversation's item: %d %s", r.method, r.path, rec.Code, rec.Body)
			}
		}
	})

	t.Run("searches", func(t *testing.T) {
		var fromTool struct{ Memories []view.Memory }
		decode(tool("search_memories", map[string]any{"query": "tomatoes", "limit": 5}), &fromTool)
		var fromTwin []view.MemoryBrief
		decode(twin("/v1/mcp/memories/search?query=tomatoes&limit=5"), &fromTwin)
		want := []view.MemoryBrief{}
		for _, m := range fromTool.Memories {
			want = append(want, view.BriefOf(m))
		}
		if diff := cmp.Diff(want, fromTwin); diff != "" || len(want) == 0 {
			t.Errorf("search_memories (-tool +twin):\n%s", diff)
		}
		var convTool struct{ Conversations []view.ConversationSummary }
		decode(tool("search_conversations", map[string]any{"query": "garden", "start_date": "2026-03-10", "end_date": "2026-03-10"}), &convTool)
		var convTwin []view.ConversationBrief
		decode(twin("/v1/mcp/conversations/search?query=garden&start_date=2026-03-10&end_date=2026-03-10"), &convTwin)
		wantConv := []view.ConversationBrief{}
		for _, c := range convTool.Conversations {
			wantConv = append(wantConv, view.BriefOfSummary(c))
		}
		if diff := cmp.Diff(wantConv, convTwin); diff != "" {
			t.Errorf("search_conversations (-tool +twin):\n%s", diff)
		}
		for _, c := range convTwin {
			if c.ID == d.late {
				t.Errorf("a conversation of the 11th (Auckland) found for the 10th")
			}
		}
	})

	t.Run("people", func(t *testing.T) {
		var fromTool struct{ People []view.Person }
		decode(tool("get_people", map[string]any{}), &fromTool)
		var fromTwin []view.Person
		decode(twin("/v1/mcp/people"), &fromTwin)
		if diff := cmp.Diff(fromTool.People, fromTwin); diff != "" {
			t.Errorf("(-tool +twin):\n%s", diff)
		}
	})
}

func sorted(ss []string) []string {
	out := append([]string{}, ss...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
