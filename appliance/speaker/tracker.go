package speaker

import "math"

// Tracker tells the voices of one live session apart, segment by segment,
// and says of each segment whether it is the owner's. The owner's
// profile is the session's anchor: a segment is the owner's when its own
// embedding is within the segment threshold of the profile and nearer to
// it than to any other voice heard so far, whatever label earlier
// segments took, so a guest whose turns drift towards the owner's label
// is never marked as the owner by that label, and the owner's first
// segment is marked like every other. A segment no nearer the profile
// than the owner's voice as heard in the session must also be clearly
// nearer that voice than any other (sessionMargin). Segments that are not the owner's
// join the nearest other voice within the label distance, or start a new
// one (or start one when about as near two voices: sessionMargin); the
// owner's label never takes another voice in.
//
// A Tracker is not safe for concurrent use (a session's flushes run one
// at a time).
type Tracker struct {
	owner    []float32 // the owner's profile; nil without one
	ownerTh  float64   // one segment against the profile
	labelTh  float64   // one segment against a voice heard in the session
	ownerLbl int       // the owner's label, -1 until they speak
	voices   []*trackVoice
}

type trackVoice struct {
	sum   []float64 // the owner's: with the profile in it
	heard []float64 // the session's segments alone
	owner bool
}

// centroid is the voice's direction (cosine distance needs no division).
func (v *trackVoice) centroid() []float32 { return direction(v.sum) }

// heardCentroid is the voice as this session heard it (nil before it
// spoke).
func (v *trackVoice) heardCentroid() []float32 {
	if v.heard == nil {
		return nil
	}
	return direction(v.heard)
}

func direction(sum []float64) []float32 {
	out := make([]float32, len(sum))
	for i, x := range sum {
		out[i] = float32(x)
	}
	return out
}

// anchor weighs the profile into the voice (not into what was heard).
func (v *trackVoice) anchor(e []float32, w float64) { v.sum = addTo(v.sum, e, w) }

// add is one segment heard in the session.
func (v *trackVoice) add(e []float32, w float64) {
	v.sum = addTo(v.sum, e, w)
	v.heard = addTo(v.heard, e, w)
}

func addTo(sum []float64, e []float32, w float64) []float64 {
	if sum == nil {
		sum = make([]float64, len(e))
	}
	for i, x := range e {
		sum[i] += w * float64(x)
	}
	return sum
}

// profileWeight is how many seconds of the owner's voice the profile
// counts for in their voice as the session hears it.
const profileWeight = 10.0

// NewTracker starts a session's tracker for an extractor's embeddings,
// anchored on the owner's profile (nil: no profile, voices are only told
// apart).
func NewTracker(ex Extractor, owner []float32) *Tracker {
	th := segmentThreshold(ex)
	return &Tracker{owner: owner, ownerTh: th, labelTh: th, ownerLbl: -1}
}

// segmentThresholder is an extractor whose single segments are judged by
// a tighter distance than a profile against longer speech: the built-in
// extractor's.
type segmentThresholder interface{ SegmentThreshold() float64 }

func segmentThreshold(ex Extractor) float64 {
	if s, ok := ex.(segmentThresholder); ok {
		return s.SegmentThreshold()
	}
	return ex.Threshold()
}

// Add places one segment's embedding (secs of speech in it): its speaker
// label (0 for the first voice heard, then in order of first hearing) and
// whether it is the owner's voice.
func (t *Tracker) Add(e []float32, secs float64) (label int, owner bool) {
	if t.owner != nil {
		owner = t.ownerLike(e)
	}
	if owner {
		if t.ownerLbl < 0 {
			v := &trackVoice{owner: true}
			// The profile weighs as profileWeight seconds of the owner's
			// voice in the session: one segment wrongly taken for the
			// owner's cannot pull their voice towards another's.
			v.anchor(t.owner, profileWeight)
			t.voices = append(t.voices, v)
			t.ownerLbl = len(t.voices) - 1
		}
		t.voices[t.ownerLbl].add(e, secs)
		return t.ownerLbl, true
	}
	best, bd := -1, t.labelTh
	for i, v := range t.voices {
		if v.owner {
			continue
		}
		if d := Distance(v.centroid(), e); d < bd {
			best, bd = i, d
		}
	}
	// A segment about as near a second voice of the session as the
	// nearest is more likely a voice not heard yet than either (recorded
	// voices in 20 dB of noise: a turn 0.029 from one guest's first turn
	// and 0.030 from another's was neither's): it joins a voice only when
	// clearly nearer it than any other, or starts its own.
	for i, v := range t.voices {
		if best >= 0 && i != best && bd >= sessionMargin*Distance(v.centroid(), e) {
			best = -1
		}
	}
	if best < 0 {
		t.voices = append(t.voices, &trackVoice{})
		best = len(t.voices) - 1
	}
	t.voices[best].add(e, secs)
	return best, false
}

// ownerLike: within the segment threshold of the profile, and nearer
// the owner than any other voice of the session. Once the owner has
// spoken, "nearer the owner" is measured from their own segments in this
// session, heard through the same microphone and noise as the others
// (the profile, recorded in quiet, lies farther from every noisy segment
// than the noisy segments lie from each other).
func (t *Tracker) ownerLike(e []float32) bool {
	d := Distance(t.owner, e)
	if d >= t.ownerTh {
		return false
	}
	if t.ownerLbl >= 0 {
		d = Distance(t.voices[t.ownerLbl].centroid(), e)
	}
	other := math.Inf(1) // the nearest other voice of the session
	for _, v := range t.voices {
		if !v.owner {
			other = min(other, Distance(v.centroid(), e))
		}
	}
	if other < d {
		return false
	}
	if t.ownerLbl < 0 {
		return true
	}
	// The profile alone cannot tell the owner from a guest who lies as
	// far from it as the owner's own segments do (recorded voices: a
	// guest 0.029 from June's profile, her own turns 0.007–0.027); the
	// segments the owner spoke in this session can (that guest lay 0.040
	// from them, 0.048 from the nearest other voice). A segment nearer
	// the profile than the owner's session voice is left to the profile:
	// in noise the first segment marked may itself be a guest's, and it
	// must not turn the owner's own later segments away.
	heard := t.voices[t.ownerLbl].heardCentroid()
	if Distance(t.owner, e) < Distance(t.owner, heard) {
		return true
	}
	return Distance(heard, e) < sessionMargin*other
}

// sessionMargin: how much nearer one voice of the session than any other
// a segment must be to be placed with it (the owner's when the profile
// leaves it in doubt, a guest's always). Measured on the recorded voices
// (docs/benchmarks.md): 0.7 and 0.8 gave the same labels; 0.6 turned the
// owner's own noisy segments away; 0.9 left a guest's label taking another
// voice.
const sessionMargin = 0.75

// Owner reports whether label is the owner's.
func (t *Tracker) Owner(label int) bool { return label >= 0 && label == t.ownerLbl }
