package speaker

import (
	"context"
	"errors"
	"math"
	"sort"
)

// Builtin is the built-in voice embedding: pure Go, no model file. A voice
// is summarised by the statistics of its cepstrum over the frames that
// carry speech: the mean of each of 19 mel-cepstral coefficients (the
// shape of the vocal tract, the strongest cue to who is speaking), their
// spread, and the spread of their change from frame to frame (how the
// voice moves). docs/speakers.md says why this and not another.
type Builtin struct{}

// NewBuiltin returns the built-in extractor.
func NewBuiltin() *Builtin { return &Builtin{} }

// Name implements Extractor.
func (*Builtin) Name() string { return "builtin-cepstral-v1" }

// Threshold implements Extractor: the cosine distance below which two
// embeddings are taken as one voice, calibrated on the synthesized test
// set (docs/speakers.md).
func (*Builtin) Threshold() float64 { return builtinThreshold }

// builtinThreshold is set for what it decides: a profile (several
// sentences, recorded in quiet) against one utterance, which may be
// noisy. Between single sentences the equal-error point of the test set
// is 0.047 clean and 0.049 with 20 dB of noise. is_user accuracy on the
// test set, clean / with noise: 98.7 / 93.3 % at 0.040, 98.7 / 96.0 % at
// 0.046, 97.3 / 98.7 % at 0.048. Noise pushes the owner's own utterances
// away from the profile; 0.046 takes most of them back and lets no other
// voice in.
const builtinThreshold = 0.046

// SegmentThreshold is the distance within which one live segment of secs
// seconds is taken as the owner's or as a voice already heard in the
// session: tighter than the profile threshold, set on recorded human
// voices (docs/speakers.md), whose turns lie closer together than the
// synthetic voices' (a profile and another person's turns 0.022–0.03,
// where the synthetic set never came within 0.04). Between a profile and
// single turns (3–9 s) the equal-error point is 0.028 clean and 0.033
// with 20 dB of noise; 0.030 gave the best is_user figures on the
// recorded set (97.7 / 93.0 %, against 95.3 / 89.8 % at 0.028 and 97.7 /
// 91.4 % at 0.032).
//
// A shorter segment gets a wider distance: its statistics come from fewer
// frames, so its embedding strays farther from the voice's own (a
// synthetic owner's 1–1.6 s halves of sentences lay 0.027–0.070 from her
// profile, her 2.5–3.2 s sentences 0.010–0.031), and at 0.030 one voice
// alone became eleven labels. The distance grows as the square root of
// how much shorter than segmentSeconds the segment is, measured on
// recorded turns cut in halves (docs/benchmarks.md, "Speakers, third
// round"); whole turns are judged as before.
func (*Builtin) SegmentThreshold(secs float64) float64 {
	if secs >= segmentSeconds || secs <= 0 {
		return builtinSegmentThreshold
	}
	return builtinSegmentThreshold * math.Sqrt(segmentSeconds/secs)
}

const (
	builtinSegmentThreshold = 0.030
	// segmentSeconds: segments this long or longer are judged at
	// builtinSegmentThreshold. 3 s left the halves of recorded turns
	// split over more labels (81 for 32 voices, against 52 at 4 s); 5 s
	// let Carlo's and June's first clean turns take a guest (97.7 ->
	// 94.5 %).
	segmentSeconds = 4.0
)

const ceps = 19 // c1..c19; c0 (loudness) says nothing about the voice

// dct is the DCT-II basis from 40 log-mel bands to the cepstrum.
var dct = func() [][]float64 {
	m := make([][]float64, ceps)
	for c := range ceps {
		m[c] = make([]float64, melBands)
		for b := range melBands {
			m[c][b] = math.Cos(math.Pi * float64(c+1) * (float64(b) + 0.5) / melBands)
		}
	}
	return m
}()

// cepstralScale evens out the coefficients' ranges (the low ones vary far
// more between frames than the high ones) so that each counts in the
// cosine: a sinusoidal lifter.
var cepstralScale = func() []float64 {
	s := make([]float64, ceps)
	for c := range ceps {
		s[c] = 1 + 11*math.Sin(math.Pi*float64(c+1)/22)
	}
	return s
}()

// ErrTooShort is the refusal of audio with too little speech to embed.
var ErrTooShort = errors.New("speaker: too little speech to embed (at least half a second)")

// Embed implements Extractor.
func (b *Builtin) Embed(_ context.Context, pcm []int16) ([]float32, error) {
	fr := logMel(pcm)
	voiced := voicedFrames(fr.energy)
	if len(voiced) < 50 { // half a second
		return nil, ErrTooShort
	}
	cep := make([][]float64, len(voiced))
	for i, f := range voiced {
		row := make([]float64, ceps)
		for c := range ceps {
			var s float64
			for k, v := range fr.logmel[f] {
				s += dct[c][k] * v
			}
			row[c] = s * cepstralScale[c] / 10
		}
		cep[i] = row
	}
	mean, spread := meanStd(cep)
	// Deltas over neighbouring voiced frames (±2).
	var deltas [][]float64
	for i := 2; i+2 < len(cep); i++ {
		d := make([]float64, ceps)
		for c := range ceps {
			d[c] = (2*(cep[i+2][c]-cep[i-2][c]) + (cep[i+1][c] - cep[i-1][c])) / 10
		}
		deltas = append(deltas, d)
	}
	_, dspread := meanStd(deltas)
	out := make([]float32, 0, 3*ceps)
	for _, v := range mean {
		out = append(out, float32(v))
	}
	for _, v := range spread {
		out = append(out, float32(v))
	}
	for _, v := range dspread {
		out = append(out, float32(v))
	}
	return normalize(out), nil
}

// voicedFrames picks the frames loud enough to be speech: within 30 dB of
// the recording's loud end (its 95th percentile) and 10 dB above its
// noise, which drops pauses and breath whatever the recording level.
func voicedFrames(energy []float64) []int {
	if len(energy) == 0 {
		return nil
	}
	sorted := append([]float64(nil), energy...)
	sort.Float64s(sorted)
	loud := sorted[len(sorted)*95/100]
	floor := loud - 30*math.Ln10/10 // 30 dB in natural-log power
	// In steady noise the pauses between words sit within 30 dB of the
	// loud end too (20 dB of white noise: about 25 dB below it), and their
	// frames, the same for every voice, drew all voices together: a frame
	// must also stand 10 dB above the noise (the 2nd percentile of energy;
	// in a quiet recording that is silence far below the 30 dB line, and
	// the figures on clean speech did not move).
	floor = max(floor, sorted[len(sorted)*2/100]+10*math.Ln10/10)
	var out []int
	for i, e := range energy {
		if e >= floor && e > math.Log(100*100) { // and above a near-silent level
			out = append(out, i)
		}
	}
	return out
}

func meanStd(rows [][]float64) (mean, std []float64) {
	mean, std = make([]float64, ceps), make([]float64, ceps)
	if len(rows) == 0 {
		return mean, std
	}
	for _, r := range rows {
		for c, v := range r {
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(len(rows))
	}
	for _, r := range rows {
		for c, v := range r {
			std[c] += (v - mean[c]) * (v - mean[c])
		}
	}
	for c := range std {
		std[c] = math.Sqrt(std[c] / float64(len(rows)))
	}
	return mean, std
}

func normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	n := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= n
	}
	return v
}
