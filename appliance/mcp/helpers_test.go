package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/store"
)

// Credentials the fixture's Verify accepts.
const (
	tokAda     = "tok-ada"     // OAuth-style, every tool scope
	tokBob     = "tok-bob"     // another user
	tokNoScope = "tok-noscope" // Ada, no scopes at all
	tokReadMem = "tok-readmem" // Ada, memories.read only
	// keyAda is an MCP API key with the colon scopes API keys carry.
	keyAda = "hearth_mcp_0123456789abcdef0123456789abcdef"
)

var allDotted = []string{ScopeMemoriesRead, ScopeMemoriesWrite, ScopeConversationsRead, ScopeActionItemsRead,
	ScopeActionItemsWrite, ScopePeopleRead}

// fixture is a real store with two users' data behind a real HTTP server.
type fixture struct {
	db  *store.DB
	srv *httptest.Server
	url string

	ada, bob string

	memID, lockedMemID, rejectedMemID, bobMemID string
	convID, lockedConvID, discardedConvID       string
	itemID, lockedItemID                        string
	personID                                    string
	lockedMemContent                            string
	lockedOverview                              string
}

var fixedNow = time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, options{pingInterval: pingInterval})
}

func newFixtureWith(t *testing.T, o options) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{db: db, ada: "u-ada", bob: "u-bob"}
	must(t, db.CreateUser(ctx, &appliance.User{ID: f.ada, Name: "Ada Lovelace", TimeZone: "UTC", CreatedAt: fixedNow.Add(-48 * time.Hour)}))
	must(t, db.CreateUser(ctx, &appliance.User{ID: f.bob, Name: "Bob", CreatedAt: fixedNow}))
	f.seed(t)

	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		switch token {
		case tokAda:
			return &auth.TokenInfo{UserID: f.ada, Scopes: allDotted, Expiration: time.Now().Add(time.Hour)}, nil
		case tokBob:
			return &auth.TokenInfo{UserID: f.bob, Scopes: allDotted, Expiration: time.Now().Add(time.Hour)}, nil
		case tokNoScope:
			return &auth.TokenInfo{UserID: f.ada, Expiration: time.Now().Add(time.Hour)}, nil
		case tokReadMem:
			return &auth.TokenInfo{UserID: f.ada, Scopes: []string{ScopeMemoriesRead}, Expiration: time.Now().Add(time.Hour)}, nil
		case keyAda:
			return &auth.TokenInfo{UserID: f.ada, Scopes: appliance.AvailableScopes}, nil // API keys do not expire
		}
		return nil, auth.ErrInvalidToken
	}
	h := newHandler(Deps{
		Records: records.New(records.Deps{Store: db, Search: db, Now: func() time.Time { return fixedNow }}),
		Verify:  verify,
		ResourceMetadataURL: func(r *http.Request) string {
			return "http://" + r.Host + "/.well-known/oauth-protected-resource/v1/mcp/sse"
		},
	}, o)
	mux := http.NewServeMux()
	mux.Handle("/v1/mcp/sse", h)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	f.url = f.srv.URL + "/v1/mcp/sse"
	return f
}

func (f *fixture) seed(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	yes, no := true, false
	mem := func(id, user, content, category string, locked bool, review *bool, at time.Time) *appliance.Memory {
		return &appliance.Memory{ID: id, UserID: user, Content: content, Category: category, CreatedAt: at, UpdatedAt: at,
			Reviewed: review != nil, UserReview: review, IsLocked: locked, Visibility: appliance.VisibilityPrivate}
	}
	f.memID, f.lockedMemID, f.rejectedMemID, f.bobMemID = "m-allergy", "m-locked", "m-rejected", "m-bob"
	f.lockedMemContent = "I keep the spare key to the garden shed under the third flowerpot from the left by the door"
	must(t, f.db.CreateMemories(ctx, []*appliance.Memory{
		mem(f.memID, f.ada, "I am allergic to penicillin", appliance.MemorySystem, false, &yes, fixedNow.Add(-3*time.Hour)),
		mem(f.lockedMemID, f.ada, f.lockedMemContent, appliance.MemorySystem, true, nil, fixedNow.Add(-2*time.Hour)),
		mem(f.rejectedMemID, f.ada, "I am allergic to peanuts", appliance.MemorySystem, false, &no, fixedNow.Add(-time.Hour)),
		mem("m-grace", f.ada, "Grace said to always measure before optimising", appliance.MemoryInteresting, false, nil, fixedNow.Add(-30*time.Minute)),
		mem(f.bobMemID, f.bob, "Bob is allergic to cats", appliance.MemorySystem, false, nil, fixedNow),
	}))

	f.personID = "p-charles"
	must(t, f.db.CreatePerson(ctx, &appliance.Person{ID: f.personID, UserID: f.ada, Name: "Charles Babbage", CreatedAt: fixedNow.Add(-24 * time.Hour)}))

	conv := func(id string, start time.Time, title, overview, task string) *appliance.Conversation {
		end := start.Add(10 * time.Minute)
		pid := f.personID
		return &appliance.Conversation{
			ID: id, UserID: f.ada, CreatedAt: start, UpdatedAt: end, StartedAt: &start, FinishedAt: &end,
			Source: appliance.SourceOmi, Language: "en", Status: appliance.StatusCompleted, Visibility: appliance.VisibilityPrivate,
			Structured: appliance.Structured{Title: title, Overview: overview, Emoji: "💼", Category: "finance",
				Events:      []appliance.Event{{Title: "Board meeting", Start: end.Add(48 * time.Hour), Duration: 60}},
				ActionItems: []appliance.ActionItem{{ID: id + "-a1", Description: task}}},
			TranscriptSegments: []appliance.TranscriptSegment{
				{ID: "s1", Text: "We need to finish the quarterly budget.", Speaker: "SPEAKER_00", IsUser: true, Start: 0, End: 3},
				{ID: "s2", Text: "I will draft the numbers.", Speaker: "SPEAKER_01", SpeakerID: 1, PersonID: &pid, Start: 3, End: 5},
				{ID: "s3", Text: "Good.", Speaker: "SPEAKER_02", SpeakerID: 2, Start: 5, End: 6},
			},
		}
	}
	f.convID, f.lockedConvID, f.discardedConvID = "c-budget", "c-locked", "c-discarded"
	f.lockedOverview = "A long private discussion about the family's finances, the mortgage and the inheritance plans."
	c1 := conv(f.convID, time.Date(2026, 1, 10, 10, 0, 0, 0, time.UTC), "Quarterly budget",
		"Planning the quarterly budget before the board meeting.", "Send the quarterly report to finance")
	c2 := conv(f.lockedConvID, time.Date(2026, 1, 12, 10, 0, 0, 0, time.UTC), "Family finances", f.lockedOverview,
		"Ask the notary about the inheritance")
	c2.IsLocked = true
	c3 := conv(f.discardedConvID, time.Date(2026, 1, 14, 10, 0, 0, 0, time.UTC), "Budget chatter", "Small talk about the budget.",
		"Water the plants")
	c3.Discarded = true
	for _, c := range []*appliance.Conversation{c1, c2, c3} {
		must(t, f.db.SaveConversation(ctx, c))
	}
	must(t, f.db.SetConversationLocked(ctx, f.ada, f.lockedConvID, true))

	f.itemID, f.lockedItemID = "a-milk", "a-locked"
	created := fixedNow.Add(-time.Hour)
	due := time.Date(2026, 2, 3, 9, 0, 0, 0, time.UTC)
	must(t, f.db.CreateActionItems(ctx, []*appliance.ActionItem{
		{ID: f.itemID, UserID: f.ada, Description: "Buy oat milk", CreatedAt: &created, UpdatedAt: &created, DueAt: &due},
		{ID: f.lockedItemID, UserID: f.ada, Description: "Call the bank about the mortgage", CreatedAt: &created, UpdatedAt: &created, IsLocked: true},
	}))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// post sends one raw JSON-RPC body and returns the response with its body.
func (f *fixture) post(t *testing.T, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokAda)
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`

// session initializes a session as the given credential and returns its id.
func (f *fixture) session(t *testing.T, token string) string {
	t.Helper()
	resp, body := f.post(t, initializeBody, map[string]string{"Authorization": "Bearer " + token})
	sid := resp.Header.Get(sessionHeader)
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %q %s", resp.StatusCode, sid, body)
	}
	resp, body = f.post(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		map[string]string{"Authorization": "Bearer " + token, sessionHeader: sid})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %s", resp.StatusCode, body)
	}
	return sid
}

// rpcReply is a decoded JSON-RPC response.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decodeReply(t *testing.T, body string) rpcReply {
	t.Helper()
	var r rpcReply
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
	return r
}

// callTool calls a tool in a session over raw HTTP and returns the reply.
func (f *fixture) callTool(t *testing.T, sid, token, name string, args any) rpcReply {
	t.Helper()
	a, _ := json.Marshal(args)
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + name + `","arguments":` + string(a) + `}}`
	resp, out := f.post(t, body, map[string]string{"Authorization": "Bearer " + token, sessionHeader: sid})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s", name, resp.StatusCode, out)
	}
	return decodeReply(t, out)
}
