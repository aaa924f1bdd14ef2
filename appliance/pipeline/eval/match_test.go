package eval

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func mustCase(t *testing.T, js string) *Case {
	t.Helper()
	var c Case
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	return &c
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

// The matching rule of the package doc, case by case.
func TestScore(t *testing.T) {
	t.Parallel()
	c := mustCase(t, `{"name":"x","split":"dev","started_at":"2026-11-26T11:00:00-05:00","time_zone":"America/New_York",
		"segments":[{"text":"hi","speaker":"SPEAKER_00","is_user":true}],
		"events":[{"title":"Brake service","start":"2026-11-30T08:00:00-05:00"},{"title":"Security audit","start":"2026-12-08"}],
		"action_items":[{"description":"Send Maria the budget report","due":"2026-11-27"},
			{"description":"Call the plumber about the leak","due":"2026-11-27T17:00:00-05:00"},
			{"description":"Book the usability lab"}],
		"acceptable_action_items":[{"description":"Copy Tom on the report"}],
		"memories":[{"content":"User prefers aisle seats","category":"system"}]}`)
	tests := []struct {
		name                     string
		out                      Outcome
		events, items, memories  Counts
		discardOK, discardScored int
	}{
		{"all found, instants exact", Outcome{Structured: appliance.Structured{
			Events: []appliance.Event{{Title: "Brake service at the garage", Start: at("2026-11-30T13:00:00Z")},
				{Title: "Audit", Description: "security audit on site", Start: at("2026-12-08T14:00:00Z")}},
			ActionItems: []appliance.ActionItem{{Description: "Send you the budget report", DueAt: ptr(at("2026-11-28T04:59:00Z"))},
				{Description: "Call the plumber", DueAt: ptr(at("2026-11-27T22:00:00Z"))},
				{Description: "book the lab for usability tests"}}},
			Memories: []appliance.Memory{{Content: "User prefers the aisle seat", Category: "system"}}},
			Counts{Found: 2, Want: 2, Hit: 2, Timed: 1, Exact: 1}, Counts{Found: 3, Want: 3, Hit: 3, Timed: 2, Exact: 2},
			Counts{Found: 1, Want: 1, Hit: 1, Timed: 1, Exact: 1}, 1, 1},
		{"wrong day, wrong hour, acceptable and invented items", Outcome{Structured: appliance.Structured{
			Events: []appliance.Event{{Title: "Brake service", Start: at("2026-11-30T14:00:00Z")},
				{Title: "Security audit", Start: at("2026-12-09T14:00:00Z")}},
			ActionItems: []appliance.ActionItem{{Description: "Send the budget report to Maria", DueAt: ptr(at("2026-11-28T14:00:00Z"))},
				{Description: "Copy Tom"}, {Description: "Follow up on this conversation"}}},
			Memories: []appliance.Memory{{Content: "User thinks it was a normal day", Category: "system"}}},
			Counts{Found: 2, Want: 2, Hit: 1, Extra: 1, Timed: 1}, Counts{Found: 3, Want: 3, Hit: 1, Extra: 1, Timed: 1},
			Counts{Found: 1, Want: 1, Extra: 1}, 1, 1},
		{"a plan at the labelled instant, however titled; a date alone is not enough", Outcome{Structured: appliance.Structured{
			Events: []appliance.Event{{Title: "Call", Description: "we can go over it then", Start: at("2026-11-30T13:00:00Z")},
				{Title: "Visit", Start: at("2026-12-08T14:00:00Z")}}}},
			Counts{Found: 2, Want: 2, Hit: 1, Extra: 1, Timed: 1, Exact: 1}, Counts{Want: 3}, Counts{Want: 1}, 1, 1},
		{"discarded: every label missed", Outcome{Discarded: true, Structured: appliance.Structured{
			Events: []appliance.Event{{Title: "Brake service", Start: at("2026-11-30T13:00:00Z")}}}},
			Counts{Want: 2}, Counts{Want: 3}, Counts{Want: 1}, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := Score(c, tt.out)
			if got.Events != tt.events {
				t.Errorf("events = %+v, want %+v", got.Events, tt.events)
			}
			if got.Items != tt.items {
				t.Errorf("action items = %+v, want %+v", got.Items, tt.items)
			}
			if got.Memories != tt.memories {
				t.Errorf("memories = %+v, want %+v", got.Memories, tt.memories)
			}
			if got.DiscardOK != tt.discardOK || got.DiscardScored != tt.discardScored {
				t.Errorf("discard %d/%d, want %d/%d", got.DiscardOK, got.DiscardScored, tt.discardOK, tt.discardScored)
			}
		})
	}
}

func TestCounts(t *testing.T) {
	t.Parallel()
	c := Counts{Want: 4, Hit: 3, Extra: 1, Timed: 2, Exact: 1}
	if c.Precision() != 0.75 || c.Recall() != 0.75 || c.F1() != 0.75 || c.ExactRate() != 0.5 {
		t.Errorf("precision %v recall %v F1 %v exact %v", c.Precision(), c.Recall(), c.F1(), c.ExactRate())
	}
	if (Counts{}).F1() != 1 || (Counts{Want: 1}).F1() != 0 {
		t.Error("nothing wanted and nothing found is perfect; a miss with nothing found is 0")
	}
}

func TestContentWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Send Maria's reports to the team!": "send maria report team",
		"User teaches high-school math":     "teach high school math",
		"Pick up the kids' batteries":       "pick kid battery",
		"Travelling on January 15th":        "travell january 15",
	} {
		got := ""
		for i, w := range contentWords(in) {
			if i > 0 {
				got += " "
			}
			got += w
		}
		if got != want {
			t.Errorf("contentWords(%q) = %q, want %q", in, got, want)
		}
	}
}
