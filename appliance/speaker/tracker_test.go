package speaker_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// vec is an embedding pointing mostly along axis a, leaning by lean
// towards axis b (cosine distance to the pure axis a grows with lean).
func vec(a, b int, lean float32) []float32 {
	v := make([]float32, 8)
	v[a], v[b] = 1, lean
	return v
}

// TestTrackerDecidesEachSegment: the owner is decided segment by segment
// against the profile (the owner's first segment marked; a guest who sounds
// a little like the owner but nearer a voice already heard is not), guests
// never join the owner's label, and without a profile voices are only told
// apart; a segment about as near two guests, or as near a guest as the
// owner's own segments of the session, starts its own label. The threshold here is an HTTP extractor's (no segment threshold
// of its own): 0.1.
func TestTrackerDecidesEachSegment(t *testing.T) {
	ex := speaker.WithThreshold(speaker.NewBuiltin(), 0.1)
	owner := from(0)
	type seg struct {
		e         []float32
		label     int
		isOwner   bool
		whoIsThis string
	}
	for _, tc := range []struct {
		name    string
		profile []float32
		segs    []seg
	}{
		{"owner first, then a guest", owner, []seg{
			{from(0.02), 0, true, "the owner's first segment"},
			{vec(2, 3, 0), 1, false, "a guest far from the owner"},
			{from(0.03), 0, true, "the owner again"},
			{vec(2, 3, 0.1), 1, false, "the guest again"},
		}},
		{"a guest near the owner", owner, []seg{
			{from(0.15), 0, false, "a guest 0.15 from the profile"},
			{from(0.08), 0, false, "the guest again, 0.08 from the profile but 0.012 from their first segment"},
			{from(0.01), 1, true, "the owner"},
		}},
		{"a voice the owner's label took", owner, []seg{
			{from(0.06), 0, true, "a guest 0.06 from the profile, taken for the owner"},
			{from(0.38), 1, false, "another guest"},
			{from(0.19), 2, false, "0.038 from the other guest and from the first segment: neither guest's (guestMargin)"},
			{from(0.40), 1, false, "the other guest again"},
		}},
		{"no profile", nil, []seg{
			{from(0), 0, false, "a voice"},
			{vec(2, 3, 0), 1, false, "another"},
			{from(0.05), 0, false, "the first again"},
		}},
		{"between two guests", nil, []seg{
			{angled(0), 0, false, "a voice"},
			{angled(0.6), 1, false, "another, 0.175 away"},
			{angled(0.3), 2, false, "0.045 from both: neither's (guestMargin)"},
			{angled(0.05), 0, false, "0.001 from the first, 0.031 from the third: the first's"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := speaker.NewTracker(ex, tc.profile)
			for i, s := range tc.segs {
				label, isOwner := tk.Add(s.e, 2)
				if label != s.label || isOwner != s.isOwner {
					t.Errorf("segment %d (%s): label %d owner %v, want %d %v", i, s.whoIsThis, label, isOwner, s.label, s.isOwner)
				}
				if tk.Owner(label) != isOwner {
					t.Errorf("segment %d: Owner(%d) %v", i, label, tk.Owner(label))
				}
			}
		})
	}
}

// angled is a unit embedding in the plane of axes 2 and 3, theta radians
// from axis 2: two of them lie 1-cos(their angle) apart.
func angled(theta float64) []float32 {
	v := make([]float32, 8)
	v[2], v[3] = float32(math.Cos(theta)), float32(math.Sin(theta))
	return v
}

// from is a unit embedding at cosine distance d from the profile (axis 0),
// turned towards axis 1: two of them are as far apart as their angles.
func from(d float64) []float32 {
	v := make([]float32, 8)
	v[0], v[1] = float32(1-d), float32(math.Sqrt(1-(1-d)*(1-d)))
	return v
}

// TestTrackerUsesTheSegmentThreshold: the built-in extractor judges single
// segments by its segment threshold (0.030 for 4 s and longer), not its
// profile threshold (0.046): a 4 s segment 0.04 from the profile is not
// the owner's. A shorter segment's embedding strays farther from its
// voice, and its threshold widens with it: 0.060 for 1 s.
func TestTrackerUsesTheSegmentThreshold(t *testing.T) {
	ex := speaker.NewBuiltin()
	profile := from(0)
	for _, tc := range []struct {
		d, secs float64
		owner   bool
	}{{0.02, 4, true}, {0.04, 4, false}, {0.04, 8, false}, {0.05, 1, true}, {0.065, 1, false}, {0.04, 2, true}} {
		tk := speaker.NewTracker(ex, profile)
		if _, owner := tk.Add(from(tc.d), tc.secs); owner != tc.owner {
			t.Errorf("a %.0f s segment %.3f from the profile: owner %v, want %v", tc.secs, tc.d, owner, tc.owner)
		}
	}
}

// TestTrackerGivesAGuestTheirFirstTurnBack: a guest's first turn, near
// enough the profile to be taken for the owner's before the guest had a
// label (as a Russian turn 0.029 from June's profile was), is moved to the
// guest's label once their later turns make one, and reported as a Move;
// the owner's own turns stay. Before Moves the first turn stayed the
// owner's. The threshold is an HTTP extractor's: 0.1.
func TestTrackerGivesAGuestTheirFirstTurnBack(t *testing.T) {
	ex := speaker.WithThreshold(speaker.NewBuiltin(), 0.1)
	type seg struct {
		e     []float32
		label int // as placed
		final int // after every segment
		owner bool
		moves []speaker.Move // reported after this segment
		who   string
	}
	for _, tc := range []struct {
		name string
		segs []seg
	}{
		{"a guest's first turn taken for the owner's", []seg{
			{from(0.08), 0, 1, true, nil, "the guest, 0.08 from the profile: the owner's by it"},
			{from(0.005), 0, 0, true, nil, "the owner, 0.045 from the guest's turn"},
			{from(0.13), 1, 1, false, []speaker.Move{{Segment: 0, Label: 1, Owner: false}}, "the guest again, 0.006 from their first turn"},
			{from(0.12), 1, 1, false, nil, "the guest"},
			{from(0.01), 0, 0, true, nil, "the owner"},
		}},
		{"the owner's own turns stay", []seg{
			{from(0.02), 0, 0, true, nil, "the owner"},
			{from(0.2), 1, 1, false, nil, "a guest"},
			{from(0.04), 0, 0, true, nil, "the owner, 0.04 from the profile"},
			{from(0.19), 1, 1, false, nil, "the guest"},
			{from(0.01), 0, 0, true, nil, "the owner"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := speaker.NewTracker(ex, from(0))
			for i, s := range tc.segs {
				label, isOwner := tk.Add(s.e, 4)
				if label != s.label || isOwner != s.owner {
					t.Errorf("segment %d (%s): label %d owner %v, want %d %v", i, s.who, label, isOwner, s.label, s.owner)
				}
				if m := tk.Moves(); !reflect.DeepEqual(m, s.moves) {
					t.Errorf("after segment %d (%s): moves %v, want %v", i, s.who, m, s.moves)
				}
			}
			for i, s := range tc.segs {
				if got := tk.Label(i); got != s.final {
					t.Errorf("segment %d (%s): label %d at the end, want %d", i, s.who, got, s.final)
				}
			}
		})
	}
}
