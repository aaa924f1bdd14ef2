package speaker

// The owner decided per label. A single segment's embedding strays with
// noise: in 20 dB of white noise June's own turns lie 0.020–0.047 from
// her profile and the Russian voice's 0.025–0.047, so no segment threshold
// tells them apart. A label's pooled segments are steadier, and the
// cepstral means alone (the vocal tract's shape, which noise moves less
// than the spreads) separate the recorded people where the whole embedding
// does not: pooled, every owner's own labels lay 0.017–0.083 from the
// profile's means and every other person's 0.091 and more, clean or at
// 20 dB (docs/benchmarks.md, "Speakers, seventh round"). So once a label
// has pooled enough speech, its pooled means decide whether it is the
// owner's; before that, the per-segment rule stands.

// Meanser is an extractor whose embeddings carry the voice's spectral
// means apart from its other statistics (the built-in extractor's first
// 19 numbers). An extractor without them (a neural model, a service)
// keeps the per-segment rule alone.
type Meanser interface {
	MeansOf(e []float32) []float32
}

// MeansOf implements Meanser: the cepstral means are the embedding's
// first ceps numbers.
func (*Builtin) MeansOf(e []float32) []float32 {
	if len(e) < ceps {
		return nil
	}
	return e[:ceps]
}

// labelPromote: a guest label whose pooled means lie within it of the
// profile's becomes the owner's. On the recorded people the owner's own
// labels lay up to 0.083 from the profile and every other person's 0.091
// and more (whole turns, clean and at 20 dB); 0.087 is the middle. Live,
// whole turns at 20 dB: 94.5 % is_user without it, 97.7 % at 0.07–0.08,
// 100 % at 0.083–0.090, 96.9 % at 0.095 (a guest taken).
//
// Only guest labels are promoted: the owner's label is never given back by
// its means (a line at 0.10 cost the halves of turns 95.7 -> 94.1 % clean
// and gained nothing; at 0.12–0.2 it never acted).
//
// labelMinSegs / labelMinSecs: how much a label pools before its means
// decide (either suffices). From its first segment on, the halves of turns
// gained (20 dB 88.7 -> 90.6 %), but a single turn's means stray as far as
// its spreads; whole turns were the same from 1 to 3 segments.
var (
	labelPromote = 0.087
	labelMinSegs = 2
	labelMinSecs = 8.0
)

// pooled is what a label has heard of a voice's means: the sum of its
// segments' (unit-length embeddings, so each segment counts once
// whatever its length), how many and how long.
type pooled struct {
	means []float64
	n     int
	secs  float64
}

func (p *pooled) add(m []float32, secs float64, sign int) {
	if m == nil {
		return
	}
	p.means = addWeighted(p.means, m, float64(sign))
	p.n += sign
	p.secs += float64(sign) * secs
}

// decided is the label's owner flag by its pooled means, and whether its
// means decide it yet.
func (t *Tracker) decided(label int) (owner, ok bool) {
	if t.ownerMeans == nil {
		return false, false
	}
	p := &t.voices[label].pool
	if p.n < labelMinSegs && p.secs < labelMinSecs {
		return false, false
	}
	if label == t.ownerLbl {
		return true, true
	}
	return Distance(t.ownerMeans, toFloat32(p.means)) < labelPromote, true
}

// labelSegsKept bounds how many of a label's segments a change of its
// owner flag re-sends: a live session remembers no more of what it sent
// (listen's placedKept).
const labelSegsKept = 64

// redecide re-sends (as moves) the earlier segments of every label whose
// owner flag changed since the last segment, however far back (June's
// label at 20 dB pooled close enough only at her third turn, when her
// first lay 12 segments back, beyond relabelWindow); the newest
// segment's flag is what Add returns.
func (t *Tracker) redecide() {
	newest := t.base + len(t.segs) - 1
	for l, v := range t.voices {
		now := t.Owner(l)
		if now == v.wasOwner {
			continue
		}
		v.wasOwner = now
		for _, n := range v.segs {
			if n != newest {
				t.moves = append(t.moves, Move{Segment: n, Label: l, Owner: now})
			}
		}
	}
}
