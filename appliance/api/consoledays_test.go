package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestConsoleConversationDays: the console's day headings count every
// conversation of the day the list's filters select, not only the page
// loaded, in the zone the console shows times in; another user's and
// discarded ones are not counted but in the bin.
func TestConsoleConversationDays(t *testing.T) {
	t.Parallel()
	srv, slow := newSystemServer(t)
	ctx := context.Background()
	save := func(id, user, at string, discarded bool) {
		t.Helper()
		start, err := time.Parse(time.RFC3339, at)
		if err != nil {
			t.Fatal(err)
		}
		end := start.Add(time.Minute)
		c := &appliance.Conversation{ID: id, UserID: user, CreatedAt: end, UpdatedAt: end, StartedAt: &start, FinishedAt: &end,
			Source: appliance.SourcePhone, Language: "en", Status: appliance.StatusCompleted, Discarded: discarded,
			Structured: appliance.Structured{Title: id, Category: "work"}}
		if err := slow.DB.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// Late on the 26th in Berlin (UTC+1) is still the 26th in UTC; half
	// past midnight on the 27th in Berlin is the 26th in UTC.
	save("late", "u-ada", "2026-11-26T22:30:00Z", false)
	save("past-midnight", "u-ada", "2026-11-26T23:30:00Z", false)
	save("morning", "u-ada", "2026-11-27T10:00:00Z", false)
	save("binned", "u-ada", "2026-11-27T11:00:00Z", true)
	save("bo's", "u-bo", "2026-11-27T09:00:00Z", false)

	type day struct {
		Day   string `json:"day"`
		Count int    `json:"count"`
	}
	type reply struct {
		Total int   `json:"total"`
		Days  []day `json:"days"`
	}
	tests := []struct {
		name, path, user string
		want             reply
	}{
		{"Berlin", "/console/api/conversations/days?tz=Europe/Berlin", "u-ada", reply{3, []day{{"2026-11-27", 2}, {"2026-11-26", 1}}}},
		{"UTC", "/console/api/conversations/days?tz=UTC", "u-ada", reply{3, []day{{"2026-11-27", 1}, {"2026-11-26", 2}}}},
		{"the bin", "/console/api/conversations/days?tz=UTC&discarded=true", "u-ada", reply{1, []day{{"2026-11-27", 1}}}},
		{"filtered by date", "/console/api/conversations/days?tz=UTC&start_date=2026-11-27T00:00:00Z", "u-ada", reply{1, []day{{"2026-11-27", 1}}}},
		{"another user", "/console/api/conversations/days?tz=UTC", "u-bo", reply{1, []day{{"2026-11-27", 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := consoleGet(srv, tt.path, tt.user)
			var got reply
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &got) != nil {
				t.Fatalf("GET %s: %d %s", tt.path, rec.Code, rec.Body)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("days (-want +got):\n%s", diff)
			}
		})
	}
	if rec := consoleGet(srv, "/console/api/conversations/days", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("without a session: %d", rec.Code)
	}
}
