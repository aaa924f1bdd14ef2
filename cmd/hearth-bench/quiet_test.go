package main

import (
	"testing"
	"time"
)

func TestParseLoadAvg(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"0.42 0.51 0.60 1/123 4567\n", 0.42},
		{"11.39 11.58 9.05 14/900 31337", 11.39},
		{"", -1},
		{"busy 1 2", -1},
	} {
		if got := parseLoadAvg(tc.in); got != tc.want {
			t.Errorf("parseLoadAvg(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// A session's marks are answered oldest first, and the oldest still open
// is what decides whether the session fell behind.
func TestSessionMarksOldestFirst(t *testing.T) {
	var m sessionMarks
	if _, ok := m.answer(); ok || m.oldest() != 0 {
		t.Fatal("an empty session has nothing to answer")
	}
	now := time.Now()
	m.add(now.Add(-3 * time.Second))
	m.add(now.Add(-time.Second))
	if d, ok := m.answer(); !ok || d < 3*time.Second {
		t.Fatalf("first answer %v %v, want the 3 s old mark", d, ok)
	}
	if o := m.oldest(); o < time.Second || o >= 3*time.Second {
		t.Fatalf("oldest open mark %v, want the 1 s old one", o)
	}
}
