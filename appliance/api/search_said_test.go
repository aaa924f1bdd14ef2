package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// saidWords are said in the transcripts only; the test finds each
// conversation by the word said in it.
var saidWords = []string{"dentist", "Farid", "Lagos", "goose", "Easter"}

// loopback is the env's router behind a real HTTP server on loopback.
type loopback struct {
	t   *testing.T
	url string
}

func (l loopback) do(method, path, auth, body string) (int, []byte) {
	l.t.Helper()
	req, err := http.NewRequest(method, l.url+path, strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		l.t.Fatal(err)
	}
	return res.StatusCode, b
}

func (l loopback) get(path, auth string, into any) {
	l.t.Helper()
	code, b := l.do("GET", path, auth, "")
	if code != 200 {
		l.t.Fatalf("GET %s: %d %s", path, code, b)
	}
	if err := json.Unmarshal(b, into); err != nil {
		l.t.Fatalf("GET %s: %v in %s", path, err, b)
	}
}

// mcpSearch calls search_conversations over JSON-RPC (initialize first).
func (l loopback) mcpSearch(key string, args map[string]any) []view.ConversationSummary {
	l.t.Helper()
	req, _ := http.NewRequest("POST", l.url+"/v1/mcp/sse", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"search-test","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", bearer(key))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	post := func(body string) []byte {
		req, _ := http.NewRequest("POST", l.url+"/v1/mcp/sse", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Authorization", bearer(key))
		req.Header.Set("Mcp-Session-Id", sid)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			l.t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return b
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": "search_conversations", "arguments": args}})
	raw := post(string(b))
	var reply struct {
		Result *struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil || reply.Result == nil || len(reply.Result.Content) == 0 {
		l.t.Fatalf("search_conversations %v: %v %s", args, err, raw)
	}
	var out struct{ Conversations []view.ConversationSummary }
	if err := json.Unmarshal([]byte(reply.Result.Content[0].Text), &out); err != nil {
		l.t.Fatal(err)
	}
	return out.Conversations
}

type consoleHit struct {
	Kind, ID, Text, Category, Snippet string
	Date                              *string
	Start                             *float64
	Locked                            bool
}

// TestSearch_WhatWasSaid makes 24 conversations through from-segments,
// each naming one of saidWords aloud, and finds each by the word said
// through the console's search, the MCP tool and its REST twin.
func TestSearch_WhatWasSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := httptest.NewServer(e.srv)
	t.Cleanup(srv.Close)
	l := loopback{t: t, url: srv.URL}

	create := func(key, started string, lines ...string) string {
		t.Helper()
		parts := make([]string, len(lines))
		for i, s := range lines {
			parts[i] = seg(s, float64(4*i), float64(4*i)+3.5)
		}
		code, b := l.do("POST", fromSegments, bearer(key), `{"started_at":"`+started+`","transcript_segments":[`+strings.Join(parts, ",")+`]}`)
		if code != 200 {
			t.Fatalf("create: %d %s", code, b)
		}
		var c struct{ ID string }
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	byWord := map[string][]string{}
	family := map[string]bool{}
	for i := range 24 {
		w := saidWords[i%len(saidWords)]
		started := fmt.Sprintf("2026-03-%02dT09:00:00Z", i+1)
		lines := []string{"Good morning, how did you sleep?", "Not bad, the weather was quiet overnight."}
		if i%2 == 0 { // family: the builtin pipeline files it under family
			lines = append(lines, "My mum and my sister said grandma is coming for lunch with the whole family.")
		} else {
			lines = append(lines, "The printer on the third floor jammed again before the meeting.")
		}
		lines = append(lines, fmt.Sprintf("Remind me later, it was about %s, I nearly forgot.", w), "Right, see you then.")
		id := create(e.devRW, started, lines...)
		byWord[strings.ToLower(w)] = append(byWord[strings.ToLower(w)], id)
		family[id] = i%2 == 0
	}
	phrase := create(e.devRW, "2026-03-27T09:00:00Z", "Quick question before dinner.", "So where are we going at Easter this year?")
	scattered := create(e.devRW, "2026-03-28T09:00:00Z", "Easter Easter, where is everyone going?", "We are going nowhere at all, Easter or not, going going.")
	byWord["easter"] = append(byWord["easter"], phrase, scattered)
	otherDentist := create(e.otherRW, "2026-03-05T09:00:00Z", "I booked the dentist for Tuesday.", "The dentist in Lagos is good.")

	ids := func(n int, id func(int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = id(i)
		}
		slices.Sort(out)
		return out
	}
	for _, w := range saidWords {
		want := slices.Clone(byWord[strings.ToLower(w)])
		slices.Sort(want)
		q := url.QueryEscape(w)

		var console struct{ Results []consoleHit }
		l.get("/v1/search?kind=conversation&limit=50&q="+q, bearer(e.token), &console)
		if got := ids(len(console.Results), func(i int) string { return console.Results[i].ID }); !slices.Equal(got, want) {
			t.Errorf("console %q: found %v, want %v", w, got, want)
		}
		for _, h := range console.Results {
			if h.Date == nil || !strings.HasPrefix(*h.Date, "2026-03-") {
				t.Errorf("console %q: %s has no date (%v)", w, h.ID, h.Date)
			}
			if !strings.Contains(strings.ToLower(h.Snippet), "<mark>"+strings.ToLower(w)+"</mark>") || h.Start == nil {
				t.Errorf("console %q: %s snippet %q at %v", w, h.ID, h.Snippet, h.Start)
			}
		}

		tool := l.mcpSearch(e.mcp, map[string]any{"query": w, "limit": 100})
		if got := ids(len(tool), func(i int) string { return tool[i].ID }); !slices.Equal(got, want) {
			t.Errorf("MCP %q: found %v, want %v", w, got, want)
		}
		for _, c := range tool {
			if c.StartedAt == nil {
				t.Errorf("MCP %q: %s has no date", w, c.ID)
			}
		}

		var twin []view.ConversationBrief
		l.get("/v1/mcp/conversations/search?limit=100&query="+q, bearer(e.mcp), &twin)
		if got := ids(len(twin), func(i int) string { return twin[i].ID }); !slices.Equal(got, want) {
			t.Errorf("twin %q: found %v, want %v", w, got, want)
		}
		for _, c := range twin {
			if c.ID == otherDentist {
				t.Errorf("twin %q: another user's conversation found", w)
			}
		}
	}

	t.Run("category filter", func(t *testing.T) {
		for _, cat := range []string{"family", "other"} {
			var console struct{ Results []consoleHit }
			l.get("/v1/search?limit=50&q=dentist+Farid+Lagos+goose+Easter&category="+cat, bearer(e.token), &console)
			if len(console.Results) == 0 {
				t.Fatalf("category %s: nothing found", cat)
			}
			for _, h := range console.Results {
				if h.Category != cat || h.Kind != appliance.KindConversation {
					t.Errorf("category %s: found %s (%s, %s)", cat, h.ID, h.Kind, h.Category)
				}
				if cat == "family" && !family[h.ID] {
					t.Errorf("category family: found %s, not a family conversation", h.ID)
				}
			}
		}
	})

	t.Run("dates", func(t *testing.T) {
		var console struct{ Results []consoleHit }
		l.get("/v1/search?kind=conversation&limit=50&q=dentist&start_date=2026-03-01&end_date=2026-03-10", bearer(e.token), &console)
		// dentist is said on the 1st, 6th, 11th, 16th and 21st.
		if got := ids(len(console.Results), func(i int) string { return console.Results[i].ID }); !slices.Equal(got, ids(2, func(i int) string { return byWord["dentist"][i] })) {
			t.Errorf("dentist on the 1st..10th: %v, want %v", got, byWord["dentist"][:2])
		}
	})

	t.Run("phrase first", func(t *testing.T) {
		var console struct{ Results []consoleHit }
		l.get("/v1/search?kind=conversation&q="+url.QueryEscape("where are we going at Easter"), bearer(e.token), &console)
		if len(console.Results) == 0 || console.Results[0].ID != phrase {
			t.Fatalf("the exact phrase is not first: %+v", console.Results)
		}
		if !strings.Contains(console.Results[0].Snippet, "<mark>where are we going at Easter</mark>") {
			t.Errorf("phrase snippet %q", console.Results[0].Snippet)
		}
	})

	t.Run("another user's words never found", func(t *testing.T) {
		other, err := e.signer.Issue(e.other, 3600e9)
		if err != nil {
			t.Fatal(err)
		}
		var console struct{ Results []consoleHit }
		l.get("/v1/search?limit=50&q=dentist+Lagos", bearer(other), &console)
		if got := ids(len(console.Results), func(i int) string { return console.Results[i].ID }); !slices.Equal(got, []string{otherDentist}) {
			t.Errorf("the other user found %v, want only %s", got, otherDentist)
		}
	})

	t.Run("locked listed, truncated", func(t *testing.T) {
		id := byWord["goose"][0]
		before := l.mcpSearch(e.mcp, map[string]any{"query": "goose", "limit": 100})
		i := slices.IndexFunc(before, func(c view.ConversationSummary) bool { return c.ID == id })
		if i < 0 {
			t.Fatal("not found before locking")
		}
		overview := before[i].Structured.Overview
		if err := e.db.SetConversationLocked(t.Context(), e.user, id, true); err != nil {
			t.Fatal(err)
		}
		after := l.mcpSearch(e.mcp, map[string]any{"query": "goose", "limit": 100})
		j := slices.IndexFunc(after, func(c view.ConversationSummary) bool { return c.ID == id })
		if j < 0 {
			t.Fatal("a locked conversation is no longer listed")
		}
		if got := after[j].Structured.Overview; got != appliance.LockedPreview(overview) || len(overview) > 70 && got == overview {
			t.Errorf("locked overview %q, want the preview of %q", got, overview)
		}
		var console struct{ Results []consoleHit }
		l.get("/v1/search?kind=conversation&q=goose", bearer(e.token), &console)
		k := slices.IndexFunc(console.Results, func(h consoleHit) bool { return h.ID == id })
		if k < 0 || !console.Results[k].Locked || console.Results[k].Snippet != "" {
			t.Errorf("console: locked conversation %+v", console.Results)
		}
	})

	t.Run("untitled", func(t *testing.T) {
		// A conversation stored without a structure (no title) is found
		// by what was said in it too.
		now := time.Now().UTC()
		c := &appliance.Conversation{ID: appliance.NewID(), UserID: e.user, CreatedAt: now, UpdatedAt: now, StartedAt: &now, FinishedAt: &now,
			Source: appliance.SourceOmi, Language: "en", Status: appliance.StatusCompleted, Structured: appliance.EmptyStructured(),
			TranscriptSegments: []appliance.TranscriptSegment{{ID: appliance.NewID(), Text: "The kumquat tree by the door needs water.", Speaker: "SPEAKER_00", Start: 2, End: 4}},
			ExternalData:       map[string]any{}, Visibility: appliance.VisibilityPrivate}
		if err := e.db.SaveConversation(t.Context(), c); err != nil {
			t.Fatal(err)
		}
		var console struct{ Results []consoleHit }
		l.get("/v1/search?kind=conversation&q=kumquat", bearer(e.token), &console)
		if len(console.Results) != 1 || console.Results[0].ID != c.ID || console.Results[0].Start == nil || *console.Results[0].Start != 2 {
			t.Errorf("console: %+v", console.Results)
		}
		if tool := l.mcpSearch(e.mcp, map[string]any{"query": "kumquat"}); len(tool) != 1 || tool[0].ID != c.ID {
			t.Errorf("MCP: %+v", tool)
		}
	})
}
