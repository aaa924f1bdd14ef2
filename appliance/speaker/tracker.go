package speaker

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
// A Tracker is not safe for concurrent use (a session's flushes run one
// at a time).
type Tracker struct {
	owner    []float32                  // the owner's profile; nil without one
	th       func(secs float64) float64 // one segment of secs seconds against the profile or a voice heard in the session
	ownerLbl int                        // the owner's label, -1 until they speak
	voices   []*trackVoice
}

type trackVoice struct {
	sum   []float64
	owner bool
	// heard is the owner's voice as this session heard it: their
	// segments without the profile (nil until they speak).
	heard []float64
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
	return &Tracker{owner: owner, th: segmentThreshold(ex), ownerLbl: -1}
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
// whether it is the owner's voice.
func (t *Tracker) Add(e []float32, secs float64) (label int, owner bool) {
	if t.owner != nil {
		owner = t.ownerLike(e, t.th(secs))
	}
	if owner {
		if t.ownerLbl < 0 {
			v := &trackVoice{owner: true}
			// The profile weighs as profileWeight seconds of the owner's
			// voice in the session: one segment wrongly taken for the
			// owner's cannot pull their voice towards another's.
			v.add(t.owner, profileWeight)
			t.voices = append(t.voices, v)
			t.ownerLbl = len(t.voices) - 1
		}
		ov := t.voices[t.ownerLbl]
		ov.add(e, secs)
		ov.heard = addWeighted(ov.heard, e, secs)
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

// Owner reports whether label is the owner's.
func (t *Tracker) Owner(label int) bool { return label >= 0 && label == t.ownerLbl }
