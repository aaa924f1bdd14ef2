package listen

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

func seg(id, text string, speaker int, isUser bool, start, end float64) appliance.TranscriptSegment {
	s := segment(text, speaker, start, end, "local")
	s.ID, s.IsUser = id, isUser
	return s
}

// TestTheAppsMergeDecidesWhatMayBeExtended: the Omi app joins a new
// segment to the one before it (same label and is_user, 0–3 s after); a
// tail it joined that way is no longer in its list, so the recorder never
// extends it under its id.
func TestTheAppsMergeDecidesWhatMayBeExtended(t *testing.T) {
	long := "This sentence is long enough and finished, so the reference would not extend it with the next one at all."
	for _, tc := range []struct {
		name       string
		sent       []appliance.TranscriptSegment
		extendable bool
	}{
		{"a first segment", []appliance.TranscriptSegment{seg("a", "Hi Maria,", 0, false, 0, 1)}, true},
		{"after another speaker", []appliance.TranscriptSegment{seg("a", long, 0, false, 0, 6), seg("b", "Hello", 1, false, 6.5, 7)}, true},
		{"joined by the app", []appliance.TranscriptSegment{seg("a", long, 0, false, 0, 6), seg("b", "And then", 0, false, 7, 8)}, false},
		{"more than 3 s later", []appliance.TranscriptSegment{seg("a", long, 0, false, 0, 6), seg("b", "And then", 0, false, 9.5, 10)}, true},
		{"is_user differs", []appliance.TranscriptSegment{seg("a", long, 0, true, 0, 6), seg("b", "And then", 0, false, 7, 8)}, true},
		{"overlapping", []appliance.TranscriptSegment{seg("a", long, 0, false, 0, 6), seg("b", "And then", 0, false, 5.5, 8)}, true},
	} {
		var r recorder
		for _, s := range tc.sent {
			r.sent([]appliance.TranscriptSegment{s})
		}
		if got := r.extendable() != nil; got != tc.extendable {
			t.Errorf("%s: extendable %v, want %v", tc.name, got, tc.extendable)
		}
	}
}

// TestMergeKeepsTheTailID: fresh words that continue the tail extend it
// under the tail's id; those that do not are new segments, without one.
func TestMergeKeepsTheTailID(t *testing.T) {
	tail := seg("t1", "Hi Maria, thanks", 0, false, 0, 1.5)
	out := merge(&tail, []appliance.TranscriptSegment{
		seg("", "for joining.", 0, false, 2, 3),
		seg("", "Glad to be here.", 1, false, 3.2, 4.5),
	})
	if len(out) != 2 || out[0].ID != "t1" || out[0].Text != "Hi Maria, thanks for joining." || out[0].End != 3 || out[1].ID != "" {
		t.Fatalf("merged %+v", out)
	}
	if out := merge(nil, []appliance.TranscriptSegment{seg("", "for joining.", 0, false, 2, 3)}); len(out) != 1 || out[0].ID != "" {
		t.Fatalf("without a tail %+v", out)
	}
}

// TestOnlySegmentsTheAppHoldsAreResent: a placed segment the tracker moves
// later is re-sent under its id only while the app holds it as it was
// sent: not when the app joined it to the segment before (it is gone from
// the app's list, and would be appended again) or joined the next one to
// it (its text there is longer), nor when the session's merge made it of
// two placed segments (only one of them moved).
func TestOnlySegmentsTheAppHoldsAreResent(t *testing.T) {
	long := "This sentence is long enough and finished, so the reference would not extend it with the next one at all."
	for _, tc := range []struct {
		name   string
		placed [][2]float64 // stream time; the first is the one moved
		sent   []appliance.TranscriptSegment
		resent bool
	}{
		{"alone between other speakers", [][2]float64{{7, 12}},
			[]appliance.TranscriptSegment{seg("a", long, 1, false, 0, 6), seg("b", long, 0, true, 7, 12), seg("c", long, 1, false, 13, 18)}, true},
		{"more than 3 s after the same speaker", [][2]float64{{10, 15}},
			[]appliance.TranscriptSegment{seg("a", long, 0, true, 0, 6), seg("b", long, 0, true, 10, 15)}, true},
		{"joined by the app to the one before", [][2]float64{{7, 12}},
			[]appliance.TranscriptSegment{seg("a", long, 0, true, 0, 6), seg("b", long, 0, true, 7, 12)}, false},
		{"the next joined to it by the app", [][2]float64{{0, 6}},
			[]appliance.TranscriptSegment{seg("a", long, 0, true, 0, 6), seg("b", long, 0, true, 7, 12)}, false},
		{"two placed segments in it", [][2]float64{{0, 3}, {3.5, 6}},
			[]appliance.TranscriptSegment{seg("a", long, 0, true, 0, 6)}, false},
	} {
		var r recorder
		r.placed = map[int]*placed{}
		for i, p := range tc.placed {
			r.placed[i] = &placed{start: p[0], end: p[1]}
		}
		for _, s := range tc.sent {
			out := []appliance.TranscriptSegment{s}
			r.notePlacedSent(out, "conv", 0)
			r.sent(out)
		}
		if _, ok := r.resendable(r.placed[0]); ok != tc.resent {
			t.Errorf("%s: re-sent %v, want %v", tc.name, ok, tc.resent)
		}
	}
}
