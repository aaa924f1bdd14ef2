package builtin

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

func TestDueNeverBeforeTheEnd(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	at := func(h, m int) time.Time { return time.Date(2026, 3, 11, h, m, 0, 0, ny) } // a Wednesday
	tests := []struct {
		name       string
		start      time.Time
		dur        time.Duration
		text, want string // want: local "2006-01-02 15:04", "" for no due date
	}{
		{"a morning that is over", at(15, 0), 20 * time.Minute, "this morning", ""},
		{"a later cue of the clause instead", at(15, 0), 20 * time.Minute, "the report from this morning by friday at two", "2026-03-13 14:00"},
		{"a morning still under way", at(10, 15), 10 * time.Minute, "this morning", "2026-03-11 11:00"},
		{"tonight said in the evening", at(18, 10), 5 * time.Minute, "tonight", "2026-03-11 19:00"},
		{"tonight late in the evening", at(23, 20), 5 * time.Minute, "tonight", "2026-03-11 23:59"},
		{"tonight said in the afternoon", at(15, 0), 20 * time.Minute, "tonight", "2026-03-11 18:00"},
		{"this afternoon said in the evening", at(18, 30), 5 * time.Minute, "this afternoon", ""},
		{"a clock time passed during the call", at(13, 50), 40 * time.Minute, "today at two", ""},
		{"a clock time after the end", at(13, 0), 40 * time.Minute, "today at two", "2026-03-11 14:00"},
		{"end of day after five", at(17, 30), 5 * time.Minute, "by end of day", ""},
		{"today", at(15, 0), 20 * time.Minute, "today", "2026-03-11 23:59"},
		{"tomorrow morning", at(15, 0), 20 * time.Minute, "tomorrow morning", "2026-03-12 09:00"},
		{"by friday at two", at(15, 0), 20 * time.Minute, "by friday at two", "2026-03-13 14:00"},
		{"words in the past", at(15, 0), 20 * time.Minute, "it was due yesterday", ""},
		{"last friday", at(15, 0), 20 * time.Minute, "last friday", ""},
		{"an offset inside a long call", at(15, 0), 3 * time.Hour, "asap", ""},
		{"an offset after the end", at(15, 0), 20 * time.Minute, "in two hours", "2026-03-11 17:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tm := newTiming(appliance.TranscriptInput{StartedAt: tt.start, Duration: tt.dur, Location: ny})
			ws := splitWords(tt.text)
			got, found := tm.due(ws, 0, len(ws), nil)
			if !found {
				t.Fatalf("%q: no cue found", tt.text)
			}
			s := ""
			if got != nil {
				s = got.In(ny).Format("2006-01-02 15:04")
				if !got.After(tm.end) {
					t.Errorf("%q: due %s is not after the end %s", tt.text, s, tm.end.In(ny).Format("15:04"))
				}
			}
			if s != tt.want {
				t.Errorf("%q at %s = %q, want %q", tt.text, tt.start.Format("15:04"), s, tt.want)
			}
		})
	}
}

func TestTimingEnd(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 11, 15, 0, 0, 0, time.UTC)
	segs := []appliance.TranscriptSegment{{Text: "a", Start: 0, End: 30}, {Text: "b", Start: 31, End: 95.5}}
	for _, tt := range []struct {
		dur  time.Duration
		want time.Time
	}{
		{10 * time.Minute, start.Add(10 * time.Minute)},
		{0, start.Add(95500 * time.Millisecond)}, // unknown: the last segment's end
	} {
		if got := newTiming(appliance.TranscriptInput{StartedAt: start, Duration: tt.dur, Segments: segs}).end; !got.Equal(tt.want) {
			t.Errorf("duration %v: end %v, want %v", tt.dur, got, tt.want)
		}
	}
}

// budgetCall is a colleague's 35-second monologue to Maria, seven sentences
// with pauses, as a local recognizer wrote it (one segment, no punctuation)
// and as a punctuating one would have; Maria answers. The call is on
// Wednesday 11 March 2026 at 15:00.
var budgetCall = [2][2]string{
	{"hi maria thanks for joining the call this morning i know it's been a busy week " +
		"the numbers from last quarter look good overall finance wants the final figures before the board meeting " +
		"can you send them the budget report by friday at two please remind the team about the offsite " +
		"i'll send the agenda tomorrow", "sure no problem"},
	{"Hi Maria, thanks for joining the call this morning. I know it's been a busy week. " +
		"The numbers from last quarter look good overall. Finance wants the final figures before the board meeting. " +
		"Can you send them the budget report by Friday at two? Please remind the team about the offsite. " +
		"I'll send the agenda tomorrow.", "Sure, no problem."},
}

func budgetCallInput(t *testing.T, colleague, maria string) (appliance.TranscriptInput, *time.Location) {
	t.Helper()
	ny := mustZone(t, "America/New_York")
	return appliance.TranscriptInput{
		Segments: []appliance.TranscriptSegment{
			{Text: colleague, Speaker: "SPEAKER_01", Start: 0.4, End: 35.2},
			{Text: maria, Speaker: "SPEAKER_00", IsUser: true, Start: 35.9, End: 37.1},
		},
		Language:  "en",
		StartedAt: time.Date(2026, 3, 11, 15, 0, 0, 0, ny),
		Duration:  38 * time.Second,
		Location:  ny,
		UserName:  "Maria Lopez",
	}, ny
}

// TestBudgetCallDatesTheRightClause: "this morning" thanks Maria for an
// earlier call; it dates neither the request that follows nor a plan, with
// or without punctuation.
func TestBudgetCallDatesTheRightClause(t *testing.T) {
	t.Parallel()
	for i, name := range []string{"unpunctuated", "punctuated"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, ny := budgetCallInput(t, budgetCall[i][0], budgetCall[i][1])
			s := structure(t, in)
			want := []item{
				{"Send them the budget report", "2026-03-13 14:00"},
				{"Remind the team about the offsite", ""},
			}
			if d := cmp.Diff(want, items(s, ny)); d != "" {
				t.Errorf("action items (-want +got):\n%s", d)
			}
			if len(s.Events) != 0 {
				t.Errorf("events %+v, want none (no plan is made)", s.Events)
			}
		})
	}
}

// TestRunOnCueStaysInItsClause: the user's own commitment run into a
// greeting, as reported from a live session: the greeting's "this morning"
// dated the task (today 09:00, already past at 15:00) and the next request
// ran into its description.
func TestRunOnCueStaysInItsClause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       []item
	}{
		{"earlier clause's cue", "hi maria thanks for joining the call this morning we need to send them the budget report please remind the team about the offsite",
			[]item{{"Send them the budget report", ""}}},
		{"its own cue", "thanks for joining the call this morning we need to send them the budget report by friday at two please remind the team",
			[]item{{"Send them the budget report", "2026-03-13 14:00"}}},
		{"a cue that opens the clause", "tomorrow morning i need to call the bank", []item{{"Call the bank", "2026-03-12 09:00"}}},
		{"punctuated", "Hi Maria, thanks for joining the call this morning. We need to send them the budget report. Please remind the team.",
			[]item{{"Send them the budget report", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in, ny := budgetCallInput(t, "okay", "")
			in.Segments = []appliance.TranscriptSegment{
				{Text: tt.text, Speaker: "SPEAKER_00", IsUser: true, Start: 0.4, End: 12},
				{Text: "sure", Speaker: "SPEAKER_01", Start: 12.5, End: 13},
			}
			if d := cmp.Diff(tt.want, items(structure(t, in), ny)); d != "" {
				t.Errorf("%q (-want +got):\n%s", tt.text, d)
			}
		})
	}
}
