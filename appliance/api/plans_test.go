package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestFromSegmentsDatesThePlainestPlans posts the conversations of issue 31
// to a running server (real router, real SQLite, the built-in extractor)
// and checks the events, action items and instants a person would write
// down: a service the garage does, a repairman someone sends, a booking at
// a spoken "9 30", and a live transcript's commitment due Friday afternoon
// rather than the morning already past. A task the user already has open is
// not added again.
func TestFromSegmentsDatesThePlainestPlans(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	// Two users in New York: the live transcript and its punctuated twin
	// each make a task of their own user's.
	for _, id := range []string{"u-sam", "u-ana"} {
		if err := e.db.CreateUser(ctx, &appliance.User{ID: id, Name: "Sam Reyes", TimeZone: "America/New_York", CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{
		"u-sam": e.addKey("u-sam", appliance.KeyKindDev, appliance.AvailableScopes...),
		"u-ana": e.addKey("u-ana", appliance.KeyKindDev, appliance.AvailableScopes...),
	}
	srv := httptest.NewServer(e.srv)
	defer srv.Close()

	// Wednesday 25 November 2026, 10:00 in New York.
	const startedAt = "2026-11-25T15:00:00Z"
	call := func(key, method, path, body string) map[string]any {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s (%v)", method, path, resp.StatusCode, raw, err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		return m
	}
	conversation := func(uid, user, other string) map[string]any {
		t.Helper()
		segs, _ := json.Marshal([]map[string]any{
			{"text": user, "speaker": "SPEAKER_00", "is_user": true, "start": 0, "end": 20},
			{"text": other, "speaker": "SPEAKER_01", "is_user": false, "start": 21, "end": 24},
		})
		created := call(keys[uid], http.MethodPost, "/v1/dev/user/conversations/from-segments",
			`{"started_at":"`+startedAt+`","transcript_segments":`+string(segs)+`}`)
		if created["status"] != "completed" || created["discarded"] != false {
			t.Fatalf("%q: created %v, want a kept, processed conversation", user, created)
		}
		return call(keys[uid], http.MethodGet, "/v1/dev/user/conversations/"+created["id"].(string), "")
	}
	wall := func(v any) string {
		t.Helper()
		at, err := time.Parse(time.RFC3339, v.(string))
		if err != nil {
			t.Fatalf("instant %v: %v", v, err)
		}
		return at.In(ny).Format("Mon 2006-01-02 15:04")
	}
	type event struct{ Title, Start, Description string }
	events := func(c map[string]any) []event {
		var out []event
		for _, v := range c["structured"].(map[string]any)["events"].([]any) {
			m := v.(map[string]any)
			out = append(out, event{m["title"].(string), wall(m["start"]), m["description"].(string)})
		}
		return out
	}
	type item struct{ Description, Due string }
	items := func(c map[string]any) []item {
		var out []item
		for _, v := range c["structured"].(map[string]any)["action_items"].([]any) {
			m := v.(map[string]any)
			due := ""
			if m["due_at"] != nil {
				due = wall(m["due_at"])
			}
			out = append(out, item{m["description"].(string), due})
		}
		return out
	}

	for _, tc := range []struct {
		name, said, title, start string
	}{
		{"a service they do", "The garage called about the car. They can do the brake service on Monday November 30th at 8 am.",
			"Brake Service", "Mon 2026-11-30 08:00"},
		{"someone sent", "I called the landlord about the leaking window. He is sending a repairman on Tuesday December 1st at 2 pm.",
			"Repairman Visit", "Tue 2026-12-01 14:00"},
		{"a spoken 9 30", "The vet appointment is sorted. We booked it for Friday November 27th at 9 30 in the morning.",
			"Vet Appointment", "Fri 2026-11-27 09:30"},
	} {
		c := conversation("u-sam", tc.said, "Okay, good.")
		got := events(c)
		if len(got) != 1 || got[0].Title != tc.title || got[0].Start != tc.start {
			t.Errorf("%s: events %+v, want %q at %s", tc.name, got, tc.title, tc.start)
			continue
		}
		if overview := c["structured"].(map[string]any)["overview"]; got[0].Description == overview || !strings.Contains(tc.said, got[0].Description) {
			t.Errorf("%s: description %q, want the plan's sentence", tc.name, got[0].Description)
		}
	}

	// The live transcript, unpunctuated, and its punctuated twin.
	for uid, said := range map[string]string{
		"u-sam": "hi maria thanks for joining the call this morning i will send you the budget report by friday afternoon please remind the team about the offsite",
		"u-ana": "Hi Maria, thanks for joining the call this morning. I will send you the budget report by Friday afternoon. Please remind the team about the offsite.",
	} {
		c := conversation(uid, said, "sure will do")
		want := []item{{"Send Maria the budget report", "Fri 2026-11-27 14:00"}}
		if got := items(c); len(got) != 1 || got[0] != want[0] {
			t.Errorf("%q: action items %+v, want %+v", said, got, want)
		}
		if got := events(c); len(got) != 0 {
			t.Errorf("%q: events %+v, want none (the call is the conversation itself)", said, got)
		}
	}

	// The budget report is now one of Sam's open items: a conversation that
	// repeats it in other words gives only its new task.
	c := conversation("u-sam", "I still have to send maria the budget report. I'll also book the train to Boston by Monday.", "Great.")
	want := []item{{"Book the train to Boston", "Mon 2026-11-30 23:59"}}
	if got := items(c); len(got) != 1 || got[0] != want[0] {
		t.Errorf("with the budget report open: action items %+v, want %+v", got, want)
	}
}
