package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hearth-appliance/hearth/appliance"
)

// bearer adds a credential to every request of the SDK's client.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// connect opens a session with the go-sdk's own client.
func (f *fixture) connect(t *testing.T, token string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := sdk.NewClient(&sdk.Implementation{Name: "hearth-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:   f.url,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
		MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if v := cs.InitializeResult().ProtocolVersion; v != ProtocolVersion {
		t.Errorf("negotiated %q", v)
	}
	return cs
}

// callJSON calls a tool and decodes its text into out.
func callJSON(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("%s: result %+v", name, res)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !strings.HasPrefix(text, "{\n  \"") {
		t.Errorf("%s: text is not 2-space indented JSON: %.40q", name, text)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		t.Fatalf("%s: %v in %s", name, err, text)
	}
}

// callErr calls a tool that must fail and returns the JSON-RPC error.
func callErr(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *jsonrpc.Error {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		t.Fatalf("%s(%v): want a JSON-RPC error, got %v / %+v", name, args, err, res)
	}
	return je
}

func TestClient_ListAndReadTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(t, tokAda)

	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	want := []string{"complete_action_item", "create_action_item", "create_memory", "delete_action_item", "delete_memory",
		"edit_memory", "get_action_items", "get_conversation_by_id", "get_conversations", "get_memories", "get_people",
		"get_user_profile", "search_action_items", "search_conversations", "search_memories", "update_action_item"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("tools %v", names)
	}

	var mems struct{ Memories []Memory }
	callJSON(t, cs, "get_memories", nil, &mems)
	if len(mems.Memories) != 4 {
		t.Fatalf("get_memories: %d memories", len(mems.Memories))
	}
	for _, m := range mems.Memories {
		if m.ID == f.lockedMemID {
			if !m.IsLocked || m.Content != f.lockedMemContent[:70]+"..." {
				t.Errorf("locked memory shown as %q", m.Content)
			}
		}
		if m.ID == f.bobMemID {
			t.Error("Bob's memory listed for Ada")
		}
	}
	callJSON(t, cs, "get_memories", map[string]any{"categories": []string{"interesting"}, "limit": 5}, &mems)
	if len(mems.Memories) != 1 || mems.Memories[0].ID != "m-grace" {
		t.Errorf("interesting memories: %+v", mems.Memories)
	}

	var convs struct{ Conversations []ConversationSummary }
	callJSON(t, cs, "get_conversations", nil, &convs)
	if len(convs.Conversations) != 2 { // the discarded one is left out
		t.Fatalf("get_conversations: %+v", convs)
	}
	for _, c := range convs.Conversations {
		switch c.ID {
		case f.lockedConvID:
			if len(c.Structured.ActionItems) != 0 || len(c.Structured.Events) != 0 || c.Structured.Overview != f.lockedOverview[:70]+"..." {
				t.Errorf("locked conversation shown as %+v", c.Structured)
			}
		case f.convID:
			if len(c.Structured.ActionItems) != 1 || len(c.Structured.Events) != 1 || c.Language != "en" {
				t.Errorf("conversation %+v", c)
			}
		}
	}
	callJSON(t, cs, "get_conversations", map[string]any{"start_date": "2026-01-11", "end_date": "2026-01-12",
		"categories": []string{"finance", "not-a-category"}}, &convs)
	if len(convs.Conversations) != 1 || convs.Conversations[0].ID != f.lockedConvID {
		t.Errorf("date-filtered conversations: %+v", convs.Conversations)
	}
	callJSON(t, cs, "get_conversations", map[string]any{"end_date": "2026-01-10"}, &convs)
	if len(convs.Conversations) != 1 || convs.Conversations[0].ID != f.convID {
		t.Errorf("end_date includes its day: %+v", convs.Conversations)
	}

	var conv struct{ Conversation ConversationDetail }
	callJSON(t, cs, "get_conversation_by_id", map[string]any{"conversation_id": f.convID}, &conv)
	segs := conv.Conversation.TranscriptSegments
	if conv.Conversation.ID != f.convID || len(segs) != 3 {
		t.Fatalf("get_conversation_by_id: %+v", conv)
	}
	if segs[0].SpeakerName != "Ada Lovelace" || segs[1].SpeakerName != "Charles Babbage" || segs[2].SpeakerName != "Speaker 2" {
		t.Errorf("speaker names %q %q %q", segs[0].SpeakerName, segs[1].SpeakerName, segs[2].SpeakerName)
	}

	var items struct {
		ActionItems []ActionItem `json:"action_items"`
	}
	callJSON(t, cs, "get_action_items", nil, &items)
	var descs []string
	for _, it := range items.ActionItems {
		descs = append(descs, it.Description)
	}
	// Left out: the locked item, and the item of the locked conversation.
	if got := strings.Join(descs, "|"); got != "Buy oat milk|Water the plants|Send the quarterly report to finance" {
		t.Errorf("get_action_items: %s", got)
	}
	callJSON(t, cs, "get_action_items", map[string]any{"due_start_date": "2026-02-03", "due_end_date": "2026-02-03"}, &items)
	if len(items.ActionItems) != 1 || items.ActionItems[0].ID != f.itemID {
		t.Errorf("due-filtered action items: %+v", items)
	}

	var people struct{ People []Person }
	callJSON(t, cs, "get_people", nil, &people)
	if len(people.People) != 1 || people.People[0].Name != "Charles Babbage" || people.People[0].SpeechSampleTranscripts == nil {
		t.Errorf("get_people: %+v", people)
	}

	var profile Profile
	callJSON(t, cs, "get_user_profile", nil, &profile)
	if !strings.Contains(profile.ProfileText, "Name: Ada Lovelace") || !strings.Contains(profile.ProfileText, "penicillin") ||
		strings.Contains(profile.ProfileText, "peanuts") || strings.Contains(profile.ProfileText, "flowerpot") {
		t.Errorf("profile %q", profile.ProfileText)
	}

	var found struct{ Memories []Memory }
	callJSON(t, cs, "search_memories", map[string]any{"query": "allergic"}, &found)
	// The rejected memory (user_review=false) and Bob's are not found.
	if len(found.Memories) != 1 || found.Memories[0].ID != f.memID || found.Memories[0].RelevanceScore == nil {
		t.Errorf("search_memories: %+v", found)
	}
	callJSON(t, cs, "search_memories", map[string]any{"query": "garden shed key"}, &found)
	if len(found.Memories) != 0 {
		t.Errorf("locked memory found by search: %+v", found)
	}

	// Every fixture conversation says "the quarterly budget" aloud: the
	// titled one first, the locked one listed too (truncated).
	callJSON(t, cs, "search_conversations", map[string]any{"query": "budget"}, &convs)
	if len(convs.Conversations) != 2 || convs.Conversations[0].ID != f.convID || convs.Conversations[0].RelevanceScore == nil ||
		convs.Conversations[1].ID != f.lockedConvID {
		t.Errorf("search_conversations: %+v", convs)
	}
	callJSON(t, cs, "search_conversations", map[string]any{"query": "mortgage inheritance"}, &convs)
	if len(convs.Conversations) != 1 || convs.Conversations[0].ID != f.lockedConvID || len(convs.Conversations[0].Structured.ActionItems) != 0 {
		t.Errorf("locked conversation in search: %+v", convs)
	}
	callJSON(t, cs, "search_conversations", map[string]any{"query": "budget", "start_date": "2026-01-11"}, &convs)
	if len(convs.Conversations) != 1 || convs.Conversations[0].ID != f.lockedConvID {
		t.Errorf("date-bounded search: %+v", convs)
	}

	callJSON(t, cs, "search_action_items", map[string]any{"query": "report"}, &items)
	if len(items.ActionItems) != 1 || items.ActionItems[0].Description != "Send the quarterly report to finance" {
		t.Errorf("search_action_items: %+v", items)
	}
	for _, q := range []string{"mortgage", "notary inheritance"} {
		callJSON(t, cs, "search_action_items", map[string]any{"query": q}, &items)
		if len(items.ActionItems) != 0 {
			t.Errorf("locked action item found for %q: %+v", q, items)
		}
	}
	if je := callErr(t, cs, "complete_action_item", map[string]any{"action_item_id": f.lockedConvID + "-a1"}); je.Code != CodeLocked {
		t.Errorf("item of a locked conversation: %d %s", je.Code, je.Message)
	}
}

func TestClient_MemoryLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(t, tokAda)

	var created struct {
		Success bool
		Memory  Memory
	}
	callJSON(t, cs, "create_memory", map[string]any{"content": "  I keep my spare house key with the neighbour Margaret ", "category": "interesting"}, &created)
	m := created.Memory
	if !created.Success || m.ID == "" || m.Content != "I keep my spare house key with the neighbour Margaret" {
		t.Fatalf("create_memory: %+v", created)
	}
	if m.Category != "system" || !m.ManuallyAdded || !m.Reviewed || m.UserReview == nil || !*m.UserReview || !m.CreatedAt.Equal(fixedNow) {
		t.Errorf("created memory %+v", m)
	}
	var ok struct{ Success bool }
	callJSON(t, cs, "edit_memory", map[string]any{"memory_id": m.ID, "content": "I keep my spare house key with Margaret next door"}, &ok)
	if !ok.Success {
		t.Error("edit_memory")
	}
	var found struct{ Memories []Memory }
	callJSON(t, cs, "search_memories", map[string]any{"query": "spare house key Margaret", "limit": 3}, &found)
	if len(found.Memories) == 0 || found.Memories[0].ID != m.ID || !found.Memories[0].Edited ||
		found.Memories[0].Content != "I keep my spare house key with Margaret next door" {
		t.Errorf("search after edit: %+v", found)
	}
	callJSON(t, cs, "delete_memory", map[string]any{"memory_id": m.ID}, &ok)
	if je := callErr(t, cs, "delete_memory", map[string]any{"memory_id": m.ID}); je.Code != CodeNotFound || je.Message != "Memory not found" {
		t.Errorf("second delete: %d %s", je.Code, je.Message)
	}
	callJSON(t, cs, "create_memory", map[string]any{"content": "Grace Hopper said ships are safe in harbour"}, &created)
	if created.Memory.Category != "interesting" {
		t.Errorf("category of a statement about others: %s", created.Memory.Category)
	}
}

func TestClient_ActionItemLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(t, tokAda)
	var res struct {
		Success    bool
		ActionItem ActionItem `json:"action_item"`
	}
	callJSON(t, cs, "create_action_item", map[string]any{"description": "Book the dentist", "due_at": "2026-03-01"}, &res)
	id := res.ActionItem.ID
	if !res.Success || id == "" || res.ActionItem.DueAt == nil || !res.ActionItem.DueAt.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("create_action_item: %+v", res)
	}
	callJSON(t, cs, "create_action_item", map[string]any{"description": "Book the dentist"}, &res)
	if res.ActionItem.ID != id {
		t.Errorf("identical description created a second item %s", res.ActionItem.ID)
	}
	callJSON(t, cs, "update_action_item", map[string]any{"action_item_id": id, "description": "Book the dentist for Friday", "due_at": "2026-03-06T09:30:00Z"}, &res)
	if res.ActionItem.Description != "Book the dentist for Friday" || !res.ActionItem.DueAt.Equal(time.Date(2026, 3, 6, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("update_action_item: %+v", res.ActionItem)
	}
	callJSON(t, cs, "complete_action_item", map[string]any{"action_item_id": id}, &res)
	if !res.ActionItem.Completed || res.ActionItem.CompletedAt == nil {
		t.Errorf("complete_action_item: %+v", res.ActionItem)
	}
	callJSON(t, cs, "complete_action_item", map[string]any{"action_item_id": id, "completed": false}, &res)
	if res.ActionItem.Completed || res.ActionItem.CompletedAt != nil {
		t.Errorf("reopen: %+v", res.ActionItem)
	}
	var ok struct{ Success bool }
	callJSON(t, cs, "delete_action_item", map[string]any{"action_item_id": id}, &ok)
	if je := callErr(t, cs, "complete_action_item", map[string]any{"action_item_id": id}); je.Code != CodeNotFound || je.Message != "Action item not found" {
		t.Errorf("after delete: %d %s", je.Code, je.Message)
	}
	for _, tool := range []string{"complete_action_item", "delete_action_item"} {
		if je := callErr(t, cs, tool, map[string]any{"action_item_id": f.lockedItemID}); je.Code != CodeLocked || !strings.HasPrefix(je.Message, "This action item is locked") {
			t.Errorf("%s locked: %d %s", tool, je.Code, je.Message)
		}
	}
	if je := callErr(t, cs, "update_action_item", map[string]any{"action_item_id": f.itemID}); je.Code != CodeInvalidParams {
		t.Errorf("update without fields: %d %s", je.Code, je.Message)
	}
}

func TestClient_ErrorCodes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(t, tokAda)
	cases := []struct {
		tool string
		args map[string]any
		code int64
		msg  string
	}{
		{"get_conversation_by_id", map[string]any{"conversation_id": "nope"}, CodeNotFound, "Conversation not found"},
		{"get_conversation_by_id", map[string]any{"conversation_id": f.lockedConvID}, CodeLocked, appliance.ErrorMessage(appliance.LockedError("conversation"))},
		{"get_conversation_by_id", map[string]any{}, CodeGeneric, "conversation_id is required"},
		{"edit_memory", map[string]any{"memory_id": "nope", "content": "x"}, CodeNotFound, "Memory not found"},
		{"edit_memory", map[string]any{"memory_id": f.lockedMemID, "content": "x"}, CodeLocked, appliance.ErrorMessage(appliance.LockedError("memory"))},
		{"delete_memory", map[string]any{"memory_id": f.lockedMemID}, CodeLocked, appliance.ErrorMessage(appliance.LockedError("memory"))},
		{"delete_memory", map[string]any{"memory_id": f.bobMemID}, CodeNotFound, "Memory not found"},
		{"edit_memory", map[string]any{"memory_id": f.memID, "content": "  "}, CodeGeneric, "Content is required"},
		{"create_memory", map[string]any{"content": ""}, CodeGeneric, "Content is required"},
		{"create_memory", map[string]any{"content": "x", "category": "bogus"}, CodeInvalidParams, "Invalid memory category: 'bogus'"},
		{"create_memory", map[string]any{"content": strings.Repeat("a", 501)}, CodeInvalidParams, "content must be at most 500 characters"},
		{"search_memories", map[string]any{"query": " "}, CodeGeneric, "query is required"},
		{"search_memories", map[string]any{"query": "x", "limit": 21}, CodeInvalidParams, "limit must be between 1 and 20"},
		{"get_conversations", map[string]any{"start_date": "x"}, CodeInvalidParams, "Invalid start_date format: 'x'. Expected YYYY-MM-DD."},
		{"get_conversations", map[string]any{"end_date": "2026-13-01"}, CodeInvalidParams, "Invalid end_date format: '2026-13-01'. Expected YYYY-MM-DD."},
		{"get_conversations", map[string]any{"limit": 0}, CodeInvalidParams, "limit must be between 1 and 1000"},
		{"search_conversations", map[string]any{"query": "budget", "start_date": "yesterday"}, CodeInvalidParams, "Invalid start_date format: 'yesterday'. Expected YYYY-MM-DD."},
		{"get_memories", map[string]any{"categories": []string{"x"}}, CodeInvalidParams, "Invalid memory category: 'x'"},
		{"get_memories", map[string]any{"sort": "random"}, CodeInvalidParams, "Invalid sort. Expected one of: scoring_desc, created_desc, updated_desc, manual_first."},
		{"get_memories", map[string]any{"limit": 501}, CodeInvalidParams, "limit must be between 1 and 500"},
		{"get_memories", map[string]any{"offset": 100001}, CodeInvalidParams, "offset must be between 0 and 100000"},
		{"get_memories", map[string]any{"limit": "ten"}, CodeInvalidParams, "Invalid value for limit: expected an integer"},
		{"get_action_items", map[string]any{"due_start_date": "soon"}, CodeInvalidParams, "Invalid due_start_date format: 'soon'. Expected YYYY-MM-DD."},
		{"create_action_item", map[string]any{"description": "x", "due_at": "someday"}, CodeInvalidParams, "Invalid due_at format: 'someday'. Expected ISO 8601 (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)."},
	}
	for _, c := range cases {
		je := callErr(t, cs, c.tool, c.args)
		if je.Code != c.code || je.Message != c.msg {
			t.Errorf("%s(%v): %d %q, want %d %q", c.tool, c.args, je.Code, je.Message, c.code, c.msg)
		}
	}
	// The Omi MCP server's date form (RFC 3339 without a zone) is taken by
	// every date argument.
	var convs struct{ Conversations []map[string]any }
	callJSON(t, cs, "get_conversations", map[string]any{"start_date": "2000-01-01T00:00:00", "end_date": "2999-12-31T23:59:59"}, &convs)
	if len(convs.Conversations) == 0 {
		t.Error("get_conversations with the Omi MCP server's dates found none")
	}
	callJSON(t, cs, "search_conversations", map[string]any{"query": "budget", "start_date": "2000-01-01T00:00:00", "end_date": "2999-12-31T23:59:59"}, &convs)
	var items struct {
		ActionItems []map[string]any `json:"action_items"`
	}
	callJSON(t, cs, "get_action_items", map[string]any{"due_start_date": "2000-01-01T00:00:00", "due_end_date": "2999-12-31T23:59:59"}, &items)
	// Nulls count as absent: defaults apply.
	var mems struct{ Memories []Memory }
	callJSON(t, cs, "get_memories", map[string]any{"limit": nil, "sort": nil, "extra": "ignored"}, &mems)
	if len(mems.Memories) != 4 {
		t.Errorf("nulls: %d memories", len(mems.Memories))
	}
}

func TestInsufficientScope(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sid := f.session(t, tokNoScope)
	for tool, scope := range map[string]string{
		"get_memories": ScopeMemoriesRead, "create_memory": ScopeMemoriesWrite, "get_conversations": ScopeConversationsRead,
		"get_action_items": ScopeActionItemsRead, "delete_action_item": ScopeActionItemsWrite, "get_people": ScopePeopleRead,
		"get_user_profile": ScopeMemoriesRead,
	} {
		r := f.callTool(t, sid, tokNoScope, tool, map[string]any{})
		if r.Error == nil || r.Error.Code != CodeInsufficientScope || r.Error.Message != "Insufficient scope: "+scope {
			t.Errorf("%s: %+v", tool, r.Error)
			continue
		}
		var data struct {
			Meta map[string]string `json:"_meta"`
		}
		json.Unmarshal(r.Error.Data, &data)
		if ch := data.Meta["mcp/www_authenticate"]; !strings.HasPrefix(ch, `Bearer error="insufficient_scope", scope="`+scope+`", resource_metadata="http://`) {
			t.Errorf("%s: challenge %q", tool, ch)
		}
	}
}

func TestClient_InsufficientScope(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(t, tokNoScope)
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(lt.Tools) != 0 {
		t.Errorf("tools for a token without scopes: %v %d", err, len(lt.Tools))
	}
	// The go-sdk client reads code -32003 as its own "client is closing"
	// and reports it as sdk.ErrConnectionClosed with the server's message
	// (its quirk: the wire carries -32003, TestInsufficientScope). The
	// session stays usable.
	_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_memories"})
	if err == nil || !strings.Contains(err.Error(), "Insufficient scope: memories.read") {
		t.Errorf("get_memories without scope: %v", err)
	}
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Errorf("session after a scope error: %v", err)
	}
	// memories.read alone: reading works, writing does not.
	ro := f.connect(t, tokReadMem)
	var mems struct{ Memories []Memory }
	callJSON(t, ro, "get_memories", nil, &mems)
	if _, err := ro.CallTool(context.Background(), &sdk.CallToolParams{Name: "create_memory", Arguments: map[string]any{"content": "I like tea"}}); err == nil ||
		!strings.Contains(err.Error(), "Insufficient scope: memories.write") {
		t.Errorf("create_memory with memories.read: %v", err)
	}
}

func TestClient_OtherUsersDataInvisible(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(t, tokBob)
	var mems struct{ Memories []Memory }
	callJSON(t, cs, "get_memories", nil, &mems)
	if len(mems.Memories) != 1 || mems.Memories[0].ID != f.bobMemID {
		t.Errorf("Bob's memories: %+v", mems)
	}
	if je := callErr(t, cs, "get_conversation_by_id", map[string]any{"conversation_id": f.convID}); je.Code != CodeNotFound {
		t.Errorf("Ada's conversation for Bob: %d", je.Code)
	}
	if je := callErr(t, cs, "edit_memory", map[string]any{"memory_id": f.memID, "content": "hacked"}); je.Code != CodeNotFound {
		t.Errorf("Ada's memory for Bob: %d", je.Code)
	}
	var profile NoProfile
	callJSON(t, cs, "get_user_profile", nil, &profile)
	// Bob has a name, so he has a profile; a nameless user without facts gets NoProfile.
}
