package omiapp

import (
	"strings"
	"testing"
)

func TestSameText(t *testing.T) {
	t.Parallel()
	stored := []Segment{seg("a", "Book the dentist for Thursday.", 0, 2), seg("b", "Then buy bread and  coffee.", 5, 7)}
	for _, tc := range []struct {
		name  string
		view  []Segment
		want  string // "" for no error, else a substring of it
		extra []Segment
	}{
		{"the same segments", stored, "", nil},
		{"merged differently, same words", []Segment{seg("a", "Book the dentist for Thursday. Then buy bread and coffee.", 0, 7)}, "", nil},
		{"a segment shown twice", append(cloneSegments(stored), seg("b", "Then buy bread and coffee.", 5, 7)),
			`+[Then buy bread and coffee.]`, nil},
		{"a missing tail", stored[:1], `-[Then buy bread and coffee.]`, nil},
		{"a word changed", []Segment{seg("a", "Book the dentist for Tuesday.", 0, 2), stored[1]}, `-[Thursday.] +[Tuesday.]`, nil},
		{"a run repeated in a row", []Segment{seg("a", "Book the dentist the dentist for Thursday.", 0, 2), stored[1]},
			`repeats "the dentist" twice in a row`, nil},
		{"the same repetition stored too", []Segment{seg("a", "Book the dentist the dentist for Thursday.", 0, 2)},
			"the stored transcript repeats", []Segment{seg("a", "Book the dentist the dentist for Thursday.", 0, 2)}},
		{"a long run repeated apart", []Segment{seg("a", "we will meet at the old station and then we will meet at the old station", 0, 9)},
			`"we will meet at the old" at words 1 and 10`, []Segment{seg("a", "we will meet at the old station and then we will meet at the old station", 0, 9)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := stored
			if tc.extra != nil {
				st = tc.extra
			}
			err := SameText(tc.view, st)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %s", err, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), "app view (") {
				t.Fatalf("the error does not list the segments: %v", err)
			}
		})
	}
}

func TestSameTextAllowsASingleRepeatedWord(t *testing.T) {
	t.Parallel()
	s := []Segment{seg("a", "that is very very good", 0, 1)}
	if err := SameText(s, s); err != nil {
		t.Fatal(err)
	}
}
