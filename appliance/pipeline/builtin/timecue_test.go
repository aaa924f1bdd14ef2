package builtin

import (
	"testing"
	"time"
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return loc
}

// resolveText scans the whole of text for cues and resolves them.
func resolveText(text string, start time.Time, loc *time.Location) (resolved, bool) {
	ws := splitWords(text)
	return scanCues(ws, 0, len(ws), start.In(loc), nil).resolve(start, loc)
}

func TestResolveTimeCues(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	berlin := mustZone(t, "Europe/Berlin")
	// Tuesday 10 March 2026, 10:00 in New York (EDT, two days after the switch).
	tue := time.Date(2026, 3, 10, 10, 0, 0, 0, ny)
	// Friday 6 March 2026, 16:00 in New York (EST, before the switch).
	fri := time.Date(2026, 3, 6, 16, 0, 0, 0, ny)
	// Saturday 28 March 2026, 20:00 in Berlin (CET, the night before the switch).
	sat := time.Date(2026, 3, 28, 20, 0, 0, 0, berlin)
	tests := []struct {
		start time.Time
		text  string
		want  string // local wall time "2006-01-02 15:04", "" for no cue
		clock bool
	}{
		{tue, "by Friday", "2026-03-13 23:59", false},
		{fri, "I'll come by around seven", "2026-03-06 19:00", true},
		{fri, "at 9", "2026-03-07 09:00", true},
		{sat, "at nine", "2026-03-28 21:00", true},
		{sat, "at eight", "2026-03-29 08:00", true},
		{tue, "on Tuesday", "2026-03-17 23:59", false},
		{tue, "this Tuesday", "2026-03-10 23:59", false},
		{tue, "next Tuesday", "2026-03-17 23:59", false},
		{tue, "next Monday", "2026-03-16 23:59", false},
		{tue, "Thursday next week", "2026-03-19 23:59", false},
		{tue, "today", "2026-03-10 23:59", false},
		{tue, "later today", "2026-03-10 23:59", false},
		{tue, "tonight", "2026-03-10 18:00", true},
		{tue, "tomorrow", "2026-03-11 23:59", false},
		{tue, "tomorrow morning", "2026-03-11 09:00", true},
		{tue, "tomorrow afternoon", "2026-03-11 14:00", true},
		{tue, "tomorrow evening", "2026-03-11 18:00", true},
		{tue, "first thing tomorrow", "2026-03-11 09:00", true},
		{tue, "the day after tomorrow", "2026-03-12 23:59", false},
		{tue, "this afternoon", "2026-03-10 14:00", true},
		{tue, "this week", "2026-03-13 23:59", false},
		{tue, "by the end of the week", "2026-03-13 23:59", false},
		{tue, "next week", "2026-03-20 23:59", false},
		{tue, "this weekend", "2026-03-15 23:59", false},
		{tue, "by the weekend", "2026-03-13 23:59", false},
		{tue, "by the end of the month", "2026-03-31 23:59", false},
		{tue, "next month", "2026-04-30 23:59", false},
		{tue, "by end of day", "2026-03-10 17:00", false},
		{tue, "EOD", "2026-03-10 17:00", false},
		{tue, "in two hours", "2026-03-10 12:00", true},
		{tue, "in 30 minutes", "2026-03-10 10:30", true},
		{tue, "in the next 30 minutes", "2026-03-10 10:30", true},
		{tue, "in an hour and a half", "2026-03-10 11:30", true},
		{tue, "in half an hour", "2026-03-10 10:30", true},
		{tue, "within the hour", "2026-03-10 11:00", true},
		{tue, "in a couple of hours", "2026-03-10 12:00", true},
		{tue, "in three days", "2026-03-13 23:59", false},
		{tue, "in two weeks", "2026-03-24 23:59", false},
		{tue, "asap", "2026-03-10 12:00", true},
		{tue, "as soon as possible", "2026-03-10 12:00", true},
		{tue, "at 3 pm", "2026-03-10 15:00", true},
		{tue, "at 3", "2026-03-10 15:00", true},
		{tue, "at 3:30pm", "2026-03-10 15:30", true},
		{tue, "at 15:30", "2026-03-10 15:30", true},
		{tue, "at 9 am", "2026-03-11 09:00", true}, // today's 9 am has passed
		{tue, "at 11", "2026-03-10 11:00", true},
		{tue, "at noon", "2026-03-10 12:00", true},
		{tue, "at 3 p.m.", "2026-03-10 15:00", true},
		{tue, "at six", "2026-03-10 18:00", true},
		{tue, "at ten thirty", "2026-03-10 10:30", true},
		{tue, "half past four", "2026-03-10 16:30", true},
		{tue, "quarter to 5", "2026-03-10 16:45", true},
		{tue, "dinner at 7", "2026-03-10 19:00", true},
		{tue, "tonight at 11", "2026-03-10 23:00", true},
		{tue, "at 8 in the morning", "2026-03-11 08:00", true},
		{tue, "Wednesday at 8 in the morning", "2026-03-11 08:00", true},
		{tue, "meet on Tuesday at 3 pm", "2026-03-17 15:00", true},
		{tue, "Monday at 2pm", "2026-03-16 14:00", true},
		{tue, "on March 3rd", "2027-03-03 23:59", false},
		{tue, "on March 12th at 9 am", "2026-03-12 09:00", true},
		{tue, "the 3rd of April", "2026-04-03 23:59", false},
		{tue, "on the 12th", "2026-03-12 23:59", false},
		{tue, "on the 9th", "2026-04-09 23:59", false},
		{tue, "Saturday the 28th", "2026-03-28 23:59", false},
		{tue, "on the twelfth", "2026-03-12 23:59", false},
		{tue, "May 4", "2026-05-04 23:59", false},
		{tue, "2026-07-01", "2026-07-01 23:59", false},
		{tue, "between 8 and 10 on Thursday", "2026-03-12 08:00", true},
		{tue, "yesterday", "2026-03-09 23:59", false},
		// DST: from Friday before the switch, next week's Friday is EDT.
		{fri, "next Friday at 9 am", "2026-03-13 09:00", true},
		{fri, "on Monday at 10", "2026-03-09 10:00", true},
		{fri, "in two hours", "2026-03-06 18:00", true},
		// Berlin springs forward at 02:00 on Sunday 29 March.
		{sat, "tomorrow at 9", "2026-03-29 09:00", true},
		{sat, "in 8 hours", "2026-03-29 05:00", true}, // one wall-clock hour skipped
		{sat, "on Sunday", "2026-03-29 23:59", false},
		// no cue
		{tue, "the first batch", "", false},
		{tue, "I sent 3 reports", "", false},
		{tue, "in May", "", false},
		{tue, "every morning", "", false},
		{tue, "we may go", "", false},
		{tue, "by the way", "", false},
		{tue, "about 8 percent", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			loc := tt.start.Location()
			got, ok := resolveText(tt.text, tt.start, loc)
			if tt.want == "" {
				if ok {
					t.Fatalf("resolved %q to %v, want no cue", tt.text, got.at.In(loc))
				}
				return
			}
			if !ok {
				t.Fatalf("%q: no cue, want %s", tt.text, tt.want)
			}
			if got.at.Location() != time.UTC {
				t.Errorf("%q: location %v, want UTC", tt.text, got.at.Location())
			}
			if s := got.at.In(loc).Format("2006-01-02 15:04"); s != tt.want {
				t.Errorf("%q = %s, want %s", tt.text, s, tt.want)
			}
			if got.clock != tt.clock {
				t.Errorf("%q: clock = %v, want %v", tt.text, got.clock, tt.clock)
			}
		})
	}
}

func TestResolveTimeCueRange(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	for text, want := range map[string]int{
		"between 8 and 10":     120,
		"from 3 to 4:30":       90,
		"from 11 to 1":         120,
		"between 7pm and 9pm":  120,
		"at 3":                 0,
		"from 10:30 to 11 am":  30,
		"between 6 and 8 p.m.": 120,
	} {
		got, ok := resolveText(text, start, time.UTC)
		if !ok || got.rangeMin != want {
			t.Errorf("%q: range %d (ok %v), want %d", text, got.rangeMin, ok, want)
		}
	}
}

func TestResolveTimeCueMarksWords(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	tests := map[string]string{
		"send the budget by end of day":              "send the budget",
		"book the lab for next week":                 "book the lab",
		"renew it before the end of the month":       "renew it",
		"call the dentist tomorrow morning":          "call the dentist",
		"remind me in two hours to check the dough":  "remind me to check the dough",
		"meet on Tuesday at 3 pm for lunch":          "meet for lunch",
		"pick up Leo tomorrow at 5:30":               "pick up Leo",
		"finish the report by the way":               "finish the report by the way",
		"submit it no later than Friday":             "submit it",
		"the plumber comes between 8 and 10 on Thu.": "the plumber comes on Thu",
	}
	for text, want := range tests {
		ws := splitWords(text)
		used := make([]bool, len(ws))
		scanCues(ws, 0, len(ws), start, used)
		var kept []string
		for i, w := range ws {
			if !used[i] {
				kept = append(kept, w.text)
			}
		}
		if got := joinWords(kept); got != want {
			t.Errorf("%q: kept %q, want %q", text, got, want)
		}
	}
}

func joinWords(ws []string) string {
	s := ""
	for i, w := range ws {
		if i > 0 {
			s += " "
		}
		s += w
	}
	return s
}

func TestSplitWords(t *testing.T) {
	t.Parallel()
	ws := splitWords("Let's meet at 3:30 p.m., okay? The one-on-one's at 10.30 — I'll bring the follow-up notes!")
	var got []string
	for _, w := range ws {
		s := w.lower
		if w.punct != 0 {
			s += string(w.punct)
		}
		got = append(got, s)
	}
	want := []string{"let's", "meet", "at", "3:30", "pm,", "okay?", "the", "one-on-one's", "at", "10.30", "i'll",
		"bring", "the", "follow-up", "notes!"}
	if joinWords(got) != joinWords(want) {
		t.Errorf("splitWords = %q, want %q", got, want)
	}
}
