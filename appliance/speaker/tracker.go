package speaker

import "slices"

// Tracker tells the voices of one live session apart, segment by segment,
// and says of each segment whether it is the owner's. The owner's
// profile is the session's anchor: a segment is the owner's when its own
// embedding is within the segment threshold of the profile and nearer to
// it than to any other voice heard so far, whatever label earlier
// segments took, so a guest whose turns drift towards the owner's label
// is never marked as the owner by that label, and the owner's first
// segment is marked like every other. Segments that are not the owner's
// join the nearest other voice within the label distance when clearly
// nearer it than any other guest's and than the owner's own segments of
// this session (guestMargin), or start a new one: the owner's label never
// takes another voice in. Both distances widen for segments shorter than
// the extractor's segment length (the built-in extractor's 4 s), whose
// embeddings stray farther from their voice: one voice stays one label
// when a recognizer cuts it short.
//
// A segment the owner's label took before a guest had a label of their
// own is given to that guest afterwards, when it lies clearly nearer their
// label than the owner's own turns of the session (see relabel); a guest
// label whose pooled spectral means lie near the profile's becomes the
// owner's (labelmeans.go). Moves says which, for the session to correct
// what it already sent.
//
// A Tracker is not safe for concurrent use (a session's flushes run one
// at a time).
type Tracker struct {
	owner    []float32                  // the owner's profile; nil without one
	th       func(secs float64) float64 // one segment of secs seconds against the profile or a voice heard in the session
	ownerLbl int                        // the owner's label, -1 until they speak
	voices   []*trackVoice
	// segs are the session's last segments (at most relabelWindow), the
	// first of them the base-th added.
	segs  []trackSeg
	base  int
	moves []Move
	// means and ownerMeans: the extractor's spectral means of an
	// embedding and the profile's, when it has them (labelmeans.go).
	means      func([]float32) []float32
	ownerMeans []float32
}

type trackVoice struct {
	sum   []float64
	owner bool
	// heard is the owner's voice as this session heard it: their
	// segments without the profile (nil until they speak), heardSecs long.
	heard     []float64
	heardSecs float64
	// pool is the label's segments' means; wasOwner the owner flag its
	// segments were last given; segs its segments (indices from 0),
	// beyond relabelWindow too: a label its means make the owner's late
	// re-sends all it can.
	pool     pooled
	wasOwner bool
	segs     []int
}

// trackSeg is one segment as the tracker placed it.
type trackSeg struct {
	e     []float32
	secs  float64
	label int
}

// Move is a segment given another label after it was placed: the
// Segment-th added (from 0) now has Label, and is the owner's or not.
type Move struct {
	Segment int
	Label   int
	Owner   bool
}

func (v *trackVoice) centroid() []float32 { return toFloat32(v.sum) }

func (v *trackVoice) add(e []float32, w float64) { v.sum = addWeighted(v.sum, e, w) }

func addWeighted(sum []float64, e []float32, w float64) []float64 {
	if sum == nil {
		sum = make([]float64, len(e))
	}
	for i, x := range e {
		sum[i] += w * float64(x)
	}
	return sum
}

func toFloat32(sum []float64) []float32 {
	out := make([]float32, len(sum))
	for i, x := range sum {
		out[i] = float32(x)
	}
	return out
}

// profileWeight is how many seconds of the owner's voice the profile
// counts for in their voice as the session hears it.
const profileWeight = 10.0

// NewTracker starts a session's tracker for an extractor's embeddings,
// anchored on the owner's profile (nil: no profile, voices are only told
// apart).
func NewTracker(ex Extractor, owner []float32) *Tracker {
	t := &Tracker{owner: owner, th: segmentThreshold(ex), ownerLbl: -1}
	if m, ok := ex.(Meanser); ok && owner != nil {
		t.means, t.ownerMeans = m.MeansOf, m.MeansOf(owner)
	}
	return t
}

// segmentThresholder is an extractor whose single segments are judged by
// a tighter distance than a profile against longer speech, one that
// depends on the segment's length: the built-in extractor's.
type segmentThresholder interface {
	SegmentThreshold(secs float64) float64
}

func segmentThreshold(ex Extractor) func(secs float64) float64 {
	if s, ok := ex.(segmentThresholder); ok {
		return s.SegmentThreshold
	}
	th := ex.Threshold()
	return func(float64) float64 { return th }
}

// Add places one segment's embedding (secs of speech in it): its speaker
// label (0 for the first voice heard, then in order of first hearing) and
// whether it is the owner's voice. Earlier segments it shows to have been
// placed wrongly are moved (Moves).
func (t *Tracker) Add(e []float32, secs float64) (label int, owner bool) {
	label, _ = t.place(e, secs)
	v := t.voices[label]
	v.pool.add(t.meansOf(e), secs, 1)
	v.segs = append(v.segs, t.base+len(t.segs))
	if len(v.segs) > labelSegsKept {
		v.segs = append(v.segs[:0:0], v.segs[len(v.segs)-labelSegsKept:]...)
	}
	t.segs = append(t.segs, trackSeg{e: e, secs: secs, label: label})
	if len(t.segs) > relabelWindow {
		n := len(t.segs) - relabelWindow
		t.segs, t.base = append(t.segs[:0:0], t.segs[n:]...), t.base+n
	}
	t.relabel()
	t.redecide()
	return label, t.Owner(label)
}

func (t *Tracker) meansOf(e []float32) []float32 {
	if t.means == nil {
		return nil
	}
	return t.means(e)
}

// Moves returns the segments moved since the last call, in order.
func (t *Tracker) Moves() []Move {
	m := t.moves
	t.moves = nil
	return m
}

// Label is the i-th segment's label now (after any move), or -1 when it
// lies too far back to be known.
func (t *Tracker) Label(i int) int {
	if i < t.base || i-t.base >= len(t.segs) {
		return -1
	}
	return t.segs[i-t.base].label
}

func (t *Tracker) place(e []float32, secs float64) (label int, owner bool) {
	if t.owner != nil {
		owner = t.ownerLike(e, t.th(secs))
	}
	if owner {
		if t.ownerLbl < 0 {
			v := &trackVoice{owner: true, wasOwner: true}
			// The profile weighs as profileWeight seconds of the owner's
			// voice in the session: one segment wrongly taken for the
			// owner's cannot pull their voice towards another's.
			v.add(t.owner, profileWeight)
			t.voices = append(t.voices, v)
			t.ownerLbl = len(t.voices) - 1
		}
		ov := t.voices[t.ownerLbl]
		ov.add(e, secs)
		ov.heard, ov.heardSecs = addWeighted(ov.heard, e, secs), ov.heardSecs+secs
		return t.ownerLbl, true
	}
	best, bd := -1, t.th(secs)
	for i, v := range t.voices {
		if v.owner {
			continue
		}
		if d := Distance(v.centroid(), e); d < bd {
			best, bd = i, d
		}
	}
	// A segment about as near a second guest's voice as the nearest is
	// more likely a voice not heard yet than either (recorded voices in
	// 20 dB of noise: a turn 0.029 from one guest's first turn and 0.030
	// from another's was neither's): it joins a guest only when clearly
	// nearer them than any other guest, or starts its own label. A split
	// voice can be named twice by the owner; two people under one label
	// cannot be told apart afterwards.
	//
	// The owner's segments heard in this session count among those other
	// voices (not the profile, which a guest is never measured against):
	// a segment that is not the owner's by the profile but lies about as
	// near the owner's turns as the guest's is either the owner's, cut
	// short, or the voice of a turn the owner's label took wrongly (in 20 dB
	// of noise the Russian voice's first turn, 0.025 from June's profile,
	// took her label, and its later turns, 0.007–0.015 from that one,
	// joined June's own guest label, 0.020–0.033 from her turns). Either
	// way it is not the guest's.
	for i, v := range t.voices {
		if best < 0 || i == best {
			continue
		}
		c := v.centroid()
		if v.owner {
			if v.heard == nil {
				continue
			}
			c = toFloat32(v.heard)
		}
		if bd >= guestMargin*Distance(c, e) {
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

// ownerLike: within th (the segment threshold for its length) of the profile, and nearer
// the owner than any other voice of the session. Once the owner has
// spoken, "nearer the owner" is measured from their own segments in this
// session, heard through the same microphone and noise as the others
// (the profile, recorded in quiet, lies farther from every noisy segment
// than the noisy segments lie from each other).
func (t *Tracker) ownerLike(e []float32, th float64) bool {
	d := Distance(t.owner, e)
	if d >= th {
		return false
	}
	if t.ownerLbl >= 0 {
		d = Distance(t.voices[t.ownerLbl].centroid(), e)
	}
	for _, v := range t.voices {
		if !v.owner && Distance(v.centroid(), e) < d {
			return false
		}
	}
	return true
}

// guestMargin: how much nearer one guest's voice than any other guest's
// (or the owner's turns heard in the session) a segment must be to join
// it. On recorded voices (docs/benchmarks.md, "Speakers, third round")
// 0.8 took the labels holding two people from 6
// to 4 of 32 voices in 20 dB of noise (whole turns) and from 7 to 2 clean
// with every turn cut in halves, at the cost of more labels for one voice
// (halves: 52 -> 77 for 32 voices); 0.9 left the noisy halves' merges as
// they were. The owner's label is weighed by the owner's turns alone, not
// the profile (ownerLike decides who the owner is), and only to keep a
// guest's segment out of a guest's label, never to keep one out of the
// owner's, so one owner is never split by it, the way the second round's
// margins split one in cmd/hearth's TestWearableFasterThanTheRecognizer
// (fourth round: whole recorded turns at 20 dB, labels holding two people
// 4 -> 2; halves clean 2 -> 0, 20 dB 9 -> 7; TestTrackerKeepsOneVoiceInOneLabel
// unchanged).
const guestMargin = 0.8

// Owner reports whether label is the owner's: by its pooled means once it
// has pooled enough speech (and the extractor has means), else whether
// it is the label the per-segment rule gives the owner's segments.
func (t *Tracker) Owner(label int) bool {
	if label < 0 || label >= len(t.voices) {
		return false
	}
	if owner, ok := t.decided(label); ok {
		return owner
	}
	return label == t.ownerLbl
}

// relabelWindow bounds how far back a segment can still be moved: the
// last 12 segments (on recorded turns of 3–9 s, about a minute of
// conversation), long enough for a guest's label to form after their
// first turn, short enough that what the app shows settles.
const relabelWindow = 12

// relabelMargin: how much nearer a guest's label than the owner's other
// turns of the session a segment of the owner's label must lie to be
// given to that guest.
const relabelMargin = 0.6

// relabel gives a guest the earlier segments of the owner's label that
// now lie clearly nearer that guest's label: within the threshold for
// their length, and under relabelMargin × their distance to the owner.
// At the time of a guest's first turn the owner's label may be the only
// voice it is near (a Russian turn 0.029 from June's profile, Allison's
// first turn 0.027 from Carlo's, both within the segment threshold); once
// the guest has a label of their own, that turn lies nearer it than the
// owner (0.012–0.014 from the guest's label, 0.027–0.029 from the owner).
// The owner's turns are measured without the segment itself (the profile
// when it is the owner's only one), and the guest must be clearly nearer
// than any other guest too (guestMargin). Only the owner's label gives
// segments up: it is the one label a guest can enter by the profile
// alone, and one voice's own segments lie as far apart as two people's,
// so moving segments between guests would split one voice.
func (t *Tracker) relabel() {
	if t.ownerLbl < 0 {
		return
	}
	ov := t.voices[t.ownerLbl]
	for i := range len(t.segs) - 1 { // the newest was just placed
		s := &t.segs[i]
		if s.label != t.ownerLbl {
			continue
		}
		own := t.owner
		if ov.heardSecs-s.secs > 1e-9 {
			own = toFloat32(addWeighted(append([]float64(nil), ov.heard...), s.e, -s.secs))
		}
		// Nearer the owner's turns or their profile: a turn of the
		// owner's own, heard first under a label that a guest's turn
		// started, lies near the profile (June's, 0.019 from it in 20 dB
		// of noise, 0.017 from her guest label) and stays.
		dOwn := min(Distance(own, s.e), Distance(t.owner, s.e))
		best, bd := -1, t.th(s.secs)
		for j, v := range t.voices {
			if v.owner {
				continue
			}
			if d := Distance(v.centroid(), s.e); d < bd {
				best, bd = j, d
			}
		}
		if best < 0 || bd >= relabelMargin*dOwn {
			continue
		}
		for j, v := range t.voices {
			if !v.owner && j != best && bd >= guestMargin*Distance(v.centroid(), s.e) {
				best = -1
				break
			}
		}
		if best < 0 {
			continue
		}
		ov.sum = addWeighted(ov.sum, s.e, -s.secs)
		ov.heard, ov.heardSecs = addWeighted(ov.heard, s.e, -s.secs), ov.heardSecs-s.secs
		if ov.heardSecs <= 1e-9 {
			ov.heard, ov.heardSecs = nil, 0
		}
		t.voices[best].add(s.e, s.secs)
		m := t.meansOf(s.e)
		ov.pool.add(m, s.secs, -1)
		t.voices[best].pool.add(m, s.secs, 1)
		ov.segs = slices.DeleteFunc(ov.segs, func(n int) bool { return n == t.base+i })
		t.voices[best].segs = append(t.voices[best].segs, t.base+i)
		slices.Sort(t.voices[best].segs)
		s.label = best
		t.moves = append(t.moves, Move{Segment: t.base + i, Label: best, Owner: t.Owner(best)})
	}
}
