package speaker_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// shaped is a made-up built-in embedding: its 19 means point at angle a
// (radians) in one plane, its 38 spreads at angle b in another, so that
// the means' distance to another is 1-cos(Δa) and the whole embedding's
// 1-(cos(Δa)+cos(Δb))/2.
func shaped(a, b float64) []float32 {
	e := make([]float32, 57)
	e[0], e[1] = float32(math.Cos(a)), float32(math.Sin(a))
	e[19], e[20] = float32(math.Cos(b)), float32(math.Sin(b))
	return e
}

// TestTrackerDecidesTheOwnerPerLabel: the owner's segments moved by noise
// (spreads 0.4 rad off the profile: 0.050 away, beyond the 0.030 segment
// threshold; means 0.2 rad off, 0.020) start a label of their own; once it
// has pooled two segments its means, within labelPromote (0.087) of the
// profile's, make it the owner's, and its first segment is re-sent as
// the owner's (a Move under the same label). A guest whose spreads lie near
// the profile but whose means do not (0.5 rad: 0.122) is never made the
// owner. An extractor without means (WithThreshold hides them) keeps the
// per-segment rule: the noisy owner's label stays a guest's.
func TestTrackerDecidesTheOwnerPerLabel(t *testing.T) {
	profile := shaped(0, 0)
	segs := []struct {
		e []float32
		// label and owner as Add returns them, with means and without
		label               int
		owner, ownerNoMeans bool
		whoIsThis           string
	}{
		{shaped(0.2, 0.4), 0, false, false, "the owner in noise: too far for the per-segment rule"},
		{shaped(-0.5, 0.05), 1, false, false, "a guest"},
		{shaped(0.25, 0.45), 0, true, false, "the owner in noise again: the label pools two segments"},
		{shaped(-0.55, 0.1), 1, false, false, "the guest again: two segments, its means too far"},
		{shaped(0.02, 0.02), 2, true, true, "the owner, near the profile"},
	}
	for _, tc := range []struct {
		name      string
		ex        speaker.Extractor
		withMeans bool
	}{{"built-in", speaker.NewBuiltin(), true}, {"no means", speaker.WithThreshold(speaker.NewBuiltin(), 0.030), false}} {
		t.Run(tc.name, func(t *testing.T) {
			tk := speaker.NewTracker(tc.ex, profile)
			var moves []speaker.Move
			for i, s := range segs {
				label, owner := tk.Add(s.e, 4)
				want := s.owner
				if !tc.withMeans {
					want = s.ownerNoMeans
				}
				if label != s.label || owner != want {
					t.Errorf("segment %d (%s): label %d owner %v, want %d %v", i, s.whoIsThis, label, owner, s.label, want)
				}
				moves = append(moves, tk.Moves()...)
			}
			var want []speaker.Move
			if tc.withMeans {
				want = []speaker.Move{{Segment: 0, Label: 0, Owner: true}}
			}
			if !reflect.DeepEqual(moves, want) {
				t.Errorf("moves %+v, want %+v", moves, want)
			}
			if tk.Owner(0) != tc.withMeans || tk.Owner(1) || !tk.Owner(2) {
				t.Errorf("owner labels: 0 %v, 1 %v, 2 %v", tk.Owner(0), tk.Owner(1), tk.Owner(2))
			}
		})
	}
}
