package stt_test

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

func TestWordErrors(t *testing.T) {
	for _, tc := range []struct {
		said, heard string
		errs, words int
	}{
		{"Call the plumber.", "call the plumber", 0, 3},
		{"call the plumber", "tell the plumber today", 2, 3},
		{"then buy bread and coffee", "and i've read and coffee", 3, 5},
		{"", "noise", 1, 0},
	} {
		if e, w := stt.WordErrors(tc.said, tc.heard); e != tc.errs || w != tc.words {
			t.Errorf("%q / %q: %d of %d, want %d of %d", tc.said, tc.heard, e, w, tc.errs, tc.words)
		}
	}
}
