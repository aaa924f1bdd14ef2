package api_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestDateParametersTakeTheOmiMCPServersForm sends every date parameter of
// the REST twins and the developer API in the form the Omi MCP server sends
// (2025-12-01T00:00:00, no zone) and checks it is read in the user's time
// zone: Auckland is 13 hours ahead of UTC in December, so reading it as UTC
// would pick the other record.
func TestDateParametersTakeTheOmiMCPServersForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if err := e.db.CreateUser(ctx, &appliance.User{ID: "u-kiri", Name: "Kiri", TimeZone: "Pacific/Auckland", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	auckland, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Fatal(err)
	}
	dev := bearer(e.addKey("u-kiri", appliance.KeyKindDev, appliance.AvailableScopes...))
	mcp := bearer(e.addKey("u-kiri", appliance.KeyKindMCP, "memories:read", "memories:write", "conversations:read", "action_items:read", "action_items:write"))
	idOf := func(method, path, auth, body string) string {
		t.Helper()
		rec := e.do(method, path, auth, body)
		if rec.Code != 200 {
			t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
		return decode(t, rec)["id"].(string)
	}
	conv := func(startedAt string) string {
		return idOf("POST", "/v1/dev/user/conversations/from-segments", dev,
			`{"started_at":"`+startedAt+`","transcript_segments":[{"text":"We need to finalize the quarterly budget review before the board meeting.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":4}]}`)
	}
	// 1 December, 01:00 in Auckland, and 2 December, 01:00 there.
	dec1, dec2 := conv("2025-11-30T12:00:00Z"), conv("2025-12-01T12:00:00Z")
	due1 := idOf("POST", "/v1/mcp/action-items", mcp, `{"description":"Water the tomatoes","due_at":"2025-12-01T09:00:00"}`)
	due2 := idOf("POST", "/v1/mcp/action-items", mcp, `{"description":"Prune the roses","due_at":"2025-12-02T09:00:00"}`)
	mem1 := idOf("POST", "/v1/dev/user/memories", dev, `{"content":"Kiri keeps bees behind the shed"}`)
	created := e.clock.Now()
	e.clock.Add(6 * time.Hour)
	mem2 := idOf("POST", "/v1/dev/user/memories", dev, `{"content":"Kiri's hives swarmed in spring"}`)
	e.clock.Add(42 * time.Hour)
	jars := idOf("POST", "/v1/dev/user/action-items", dev, `{"description":"Order more jars"}`)

	wall := func(t time.Time) string { return t.In(auckland).Format("2006-01-02T15:04:05") }
	day := "start_date=2025-12-01T00:00:00&end_date=2025-12-01T23:59:59"
	for _, tc := range []struct {
		name, path, auth string
		want, not        string
	}{
		{"TwinConversations", "/v1/mcp/conversations?" + day, mcp, dec1, dec2},
		{"TwinConversationSearch", "/v1/mcp/conversations/search?query=budget&" + day, mcp, dec1, dec2},
		{"TwinActionItemsDue", "/v1/mcp/action-items?due_start_date=2025-12-01T00:00:00&due_end_date=2025-12-01T23:59:59", mcp, due1, due2},
		{"TwinMemoriesUpdatedAfter", "/v1/mcp/memories?updated_after=" + url.QueryEscape(wall(created.Add(3*time.Hour))), mcp, mem2, mem1},
		{"DevConversations", "/v1/dev/user/conversations?" + day, dev, dec1, dec2},
		{"DevActionItemsCreated", "/v1/dev/user/action-items?start_date=" + url.QueryEscape(wall(created.Add(-time.Minute))) +
			"&end_date=" + url.QueryEscape(wall(created.Add(time.Minute))), dev, due1, jars},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := e.do("GET", tc.path, tc.auth, "")
			if rec.Code != 200 {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			ids := map[string]bool{}
			for _, item := range decodeList(t, rec) {
				ids[item["id"].(string)] = true
			}
			if !ids[tc.want] || ids[tc.not] {
				t.Fatalf("got %v, want %s and not %s", ids, tc.want, tc.not)
			}
		})
	}
}
