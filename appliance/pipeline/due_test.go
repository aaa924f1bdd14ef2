package pipeline

import (
	"testing"
	"time"

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
