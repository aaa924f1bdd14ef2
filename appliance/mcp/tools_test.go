package mcp

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

func TestSchema_TagsApplied(t *testing.T) {
	t.Parallel()
	tools := map[string]serverTool{}
	for _, st := range allTools(&Deps{}) {
		tools[st.tool.Name] = st
	}
	s := tools["get_memories"].tool.InputSchema.(*jsonschema.Schema)
	limit := s.Properties["limit"]
	if string(limit.Default) != "100" || *limit.Minimum != 1 || *limit.Maximum != 500 || limit.Description == "" {
		t.Errorf("get_memories.limit %+v", limit)
	}
	if got := s.Properties["sort"].Enum; len(got) != 4 || string(s.Properties["sort"].Default) != `"created_desc"` {
		t.Errorf("sort %+v", s.Properties["sort"])
	}
	if s.Properties["reviewed"].Type != "boolean" || s.AdditionalProperties != nil || len(s.Required) != 0 {
		t.Errorf("reviewed/required/additionalProperties: %+v %v", s.Properties["reviewed"], s.Required)
	}
	if req := tools["create_memory"].tool.InputSchema.(*jsonschema.Schema).Required; !reflect.DeepEqual(req, []string{"content"}) {
		t.Errorf("create_memory required %v", req)
	}
	// The conversation category enum is exactly the domain's.
	cats := tools["get_conversations"].tool.InputSchema.(*jsonschema.Schema).Properties["categories"].Items.Enum
	if len(cats) != len(appliance.Categories) {
		t.Fatalf("%d categories, want %d", len(cats), len(appliance.Categories))
	}
	for i, c := range appliance.Categories {
		if cats[i] != string(c) {
			t.Errorf("category %d: %v, want %s", i, cats[i], c)
		}
	}
	mcats := tools["get_memories"].tool.InputSchema.(*jsonschema.Schema).Properties["categories"].Items.Enum
	if len(mcats) != len(appliance.MemoryCategoriesIn) {
		t.Errorf("memory categories %v", mcats)
	}
	for _, st := range tools {
		if st.tool.Annotations.Title == "" || st.tool.Description == "" || st.scope == "" {
			t.Errorf("%s: title, description and scope are needed", st.tool.Name)
		}
	}
}

func TestHasScope(t *testing.T) {
	t.Parallel()
	cases := []struct {
		granted []string
		scope   string
		want    bool
	}{
		{[]string{"memories.read"}, ScopeMemoriesRead, true},
		{[]string{"memories:read"}, ScopeMemoriesRead, true},
		{[]string{"memories:read"}, ScopeMemoriesWrite, false},
		{[]string{"action_items:write"}, ScopeActionItemsWrite, true},
		{[]string{"conversations:read"}, ScopePeopleRead, true},
		{[]string{"conversations.read"}, ScopePeopleRead, false},
		{[]string{"people.read"}, ScopePeopleRead, true},
		{nil, ScopeMemoriesRead, false},
	}
	for _, c := range cases {
		if got := HasScope(c.granted, c.scope); got != c.want {
			t.Errorf("HasScope(%v, %s) = %v", c.granted, c.scope, got)
		}
	}
}

func TestSSEResponses(t *testing.T) {
	t.Parallel()
	body := ": ok\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n" +
		"event: ping\ndata: {}\n\n" +
		"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601,\"message\":\"x\"}}\r\n\r\n"
	got := sseResponses([]byte(body))
	if len(got) != 2 || !strings.Contains(string(got[0]), `"id":1`) || !strings.Contains(string(got[1]), `"id":2`) {
		t.Errorf("%q", got)
	}
}

func TestOriginAllowed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		host, origin, fwd string
		want              bool
	}{
		{"hearth.local", "", "", true},
		{"hearth.local", "http://hearth.local", "", true},
		{"hearth.local:8080", "https://HEARTH.local:8080", "", true},
		// A client's own X-Forwarded-Host is not believed.
		{"127.0.0.1:8080", "https://hearth.example.org", "hearth.example.org", false},
		{"127.0.0.1:8080", "https://evil.example", "evil.example", false},
		{"hearth.local", "http://hearth.local.evil.com", "", false},
		{"hearth.local", "null", "", false},
		{"hearth.local", "chrome-extension://abc", "", false},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/", nil)
		r.Host = c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if c.fwd != "" {
			r.Header.Set("X-Forwarded-Host", c.fwd)
		}
		if got := originAllowed(r, nil); got != c.want {
			t.Errorf("host %s origin %s fwd %s: %v", c.host, c.origin, c.fwd, got)
		}
	}
}

func TestResultShapes(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := view.MemoryOf(&appliance.Memory{ID: "m", Content: strings.Repeat("é", 80), Category: "system", CreatedAt: at, UpdatedAt: at, IsLocked: true, ManuallyAdded: true})
	if m.Content != strings.Repeat("é", 70)+"..." || m.Scoring != "01_999_1767323045" || m.Tags == nil || m.Visibility != "private" {
		t.Errorf("memory %+v", m)
	}
	b, _ := json.Marshal(m)
	if strings.Contains(string(b), "relevance_score") {
		t.Errorf("relevance_score outside search: %s", b)
	}
	res, err := textResult(map[string]any{"a": 1})
	if b, _ := json.Marshal(res); err != nil || string(b) != `{"content":[{"type":"text","text":"{\n  \"a\": 1\n}"}]}` {
		t.Errorf("tool result %s (%v), want the reference's: one text block, nothing else", b, err)
	}
	text, _ := prettyJSON(map[string]any{"a": []int{1}, "b": "<x>"})
	if text != "{\n  \"a\": [\n    1\n  ],\n  \"b\": \"<x>\"\n}" {
		t.Errorf("pretty %q", text)
	}
	if got := *view.Relevance(appliance.SearchHit{Score: 0.0163934, Similarity: 0}); got != 0.0164 {
		t.Errorf("relevance from score %v", got)
	}
	if got := *view.Relevance(appliance.SearchHit{Score: 0.01, Similarity: 0.812345}); got != 0.8123 {
		t.Errorf("relevance from similarity %v", got)
	}
}

func TestUserProfile_None(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	must(t, f.db.CreateUser(ctx, &appliance.User{ID: "u-anon", CreatedAt: fixedNow}))
	got, err := records.New(records.Deps{Store: f.db}).UserProfile(ctx, "u-anon")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"profile":null,"message":"No profile has been generated for this user yet."}` {
		t.Errorf("%s", b)
	}
}
