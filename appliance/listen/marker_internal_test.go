package listen

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// TestMergingMarksOtherLanguageOnce: utterances in another language that
// the session joins into one segment (or into the tail it extends, under
// the tail's id) read as one marker, not one per utterance; a marker of
// another named language, and words, are still joined.
func TestMergingMarksOtherLanguageOnce(t *testing.T) {
	const m = "[speech in another language]"
	const fr, it = "[speech in another language: fr]", "[speech in another language: it]"
	tail := func(text string) *appliance.TranscriptSegment { s := seg("t1", text, 0, false, 0, 2); return &s }
	for _, tc := range []struct {
		name  string
		tail  *appliance.TranscriptSegment
		fresh []string // each a second after the one before
		want  string
	}{
		{"two fresh markers", nil, []string{m, m}, m},
		{"three fresh markers", nil, []string{m, m, m}, m},
		{"a marker into the tail's", tail(m), []string{m}, m},
		{"a marker into words that end with one", tail("Hi Maria " + m), []string{m}, "Hi Maria " + m},
		{"named languages", nil, []string{fr, fr, it}, fr + " " + it},
		{"words, then a marker", nil, []string{"Hi Maria", m}, "Hi Maria " + m},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fresh []appliance.TranscriptSegment
			for i, text := range tc.fresh {
				fresh = append(fresh, seg("", text, 0, false, 3*float64(i+1), 3*float64(i+1)+2))
			}
			out := merge(tc.tail, fresh)
			id, end := "", fresh[len(fresh)-1].End
			if tc.tail != nil {
				id = tc.tail.ID
			}
			if len(out) != 1 || out[0].Text != tc.want || out[0].ID != id || out[0].End != end {
				t.Fatalf("merged %+v, want one segment %q (id %q) to %v s", out, tc.want, id, end)
			}
		})
	}
}

// TestOneBatchMarksOtherLanguageOnce: a route's batch with two markers in
// a row (two utterances heard at once) makes one segment with one marker.
func TestOneBatchMarksOtherLanguageOnce(t *testing.T) {
	m := stt.OtherLanguage + "]"
	got := wordsToSegments([]stt.Word{{Text: m, Start: 0, End: 2}, {Text: m, Start: 3, End: 4.5}}, 10, "pocketsphinx")
	if len(got) != 1 || got[0].Text != m || got[0].Start != 10 || got[0].End != 14.5 {
		t.Fatalf("segments %+v, want one %q from 10 s to 14.5 s", got, m)
	}
}
