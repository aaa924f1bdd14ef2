package audio

import "math"

// Resampler converts a stream of mono samples from one rate to another
// with a windowed-sinc (Kaiser) kernel, low-passed below the lower Nyquist
// frequency so that downsampling (48 kHz → 16 kHz) does not alias. It keeps
// its history between calls, so a stream can be fed in pieces of any size.
type Resampler struct {
	in, out int
	step    float64 // input samples per output sample
	cutoff  float64 // of the input's Nyquist
	table   []float64
	buf     []float64 // unconsumed input, with halfTaps of history before pos
	pos     float64   // next output position, in samples of buf

	// For a rational ratio with few phases (8→16 kHz has 2, 48→16 kHz
	// has 1), the kernel is laid out per phase, so each output sample is
	// one straight dot product: the position is centre + phase/l input
	// samples, and it moves by m/l per output sample.
	poly   [][]float64
	l, m   int
	centre int
	phase  int
}

// maxPolyPhases bounds the per-phase tables (44.1 → 16 kHz needs 160).
const maxPolyPhases = 512

const (
	halfTaps = 16  // kernel half-width, in input samples at unit cutoff
	phases   = 512 // kernel table resolution per input sample
	kaiserB  = 8.0
)

// NewResampler returns a resampler from rate in to rate out (Hz).
func NewResampler(in, out int) *Resampler {
	r := &Resampler{in: in, out: out, step: float64(in) / float64(out), cutoff: 1}
	if in == out {
		return r
	}
	if out < in {
		r.cutoff = 0.95 * float64(out) / float64(in)
	}
	n := int(math.Ceil(halfTaps/r.cutoff)) * phases
	r.table = make([]float64, n+1)
	i0b := besselI0(kaiserB)
	for i := range r.table {
		x := float64(i) / phases // distance from the centre, in input samples
		w := x / (float64(n) / phases)
		if w > 1 {
			continue
		}
		sinc := 1.0
		if x != 0 {
			a := math.Pi * x * r.cutoff
			sinc = math.Sin(a) / a
		}
		r.table[i] = r.cutoff * sinc * besselI0(kaiserB*math.Sqrt(1-w*w)) / i0b
	}
	r.buf = make([]float64, r.width()) // silence before the first sample
	r.pos = float64(r.width())
	if g := gcd(in, out); out/g <= maxPolyPhases {
		r.l, r.m, r.centre = out/g, in/g, r.width()
		w := r.width()
		r.poly = make([][]float64, r.l)
		for k := range r.poly {
			taps := make([]float64, 2*w)
			frac := float64(k) / float64(r.l)
			for t := range taps {
				d := math.Abs(float64(t-(w-1)) - frac)
				if idx := int(d*phases + 0.5); idx < len(r.table) {
					taps[t] = r.table[idx]
				}
			}
			r.poly[k] = taps
		}
	}
	return r
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// width is the kernel's half-width in input samples.
func (r *Resampler) width() int { return (len(r.table) - 1) / phases }

// Process appends the resampled form of in to dst.
func (r *Resampler) Process(dst []int16, in []int16) []int16 {
	if r.in == r.out {
		return append(dst, in...)
	}
	for _, s := range in {
		r.buf = append(r.buf, float64(s))
	}
	if r.poly != nil {
		return r.processPoly(dst)
	}
	w := r.width()
	for r.pos+float64(w) < float64(len(r.buf)) {
		centre := int(r.pos)
		frac := r.pos - float64(centre)
		var acc float64
		for k := centre - w + 1; k <= centre+w; k++ {
			d := math.Abs(float64(k) - float64(centre) - frac)
			idx := int(d*phases + 0.5)
			if idx < len(r.table) {
				acc += r.buf[k] * r.table[idx]
			}
		}
		dst = append(dst, clamp16(acc))
		r.pos += r.step
	}
	// Keep w samples of history before the next position.
	drop := int(r.pos) - w
	if drop > 0 {
		r.buf = append(r.buf[:0], r.buf[drop:]...)
		r.pos -= float64(drop)
	}
	return dst
}

// processPoly is Process over the per-phase kernels.
func (r *Resampler) processPoly(dst []int16) []int16 {
	w := r.width()
	for r.centre+w < len(r.buf) {
		taps := r.poly[r.phase]
		window := r.buf[r.centre-w+1 : r.centre+w+1]
		var acc float64
		for t, c := range taps {
			acc += window[t] * c
		}
		dst = append(dst, clamp16(acc))
		r.phase += r.m
		r.centre += r.phase / r.l
		r.phase %= r.l
	}
	if drop := r.centre - w; drop > 0 {
		r.buf = append(r.buf[:0], r.buf[drop:]...)
		r.centre -= drop
	}
	return dst
}

func clamp16(x float64) int16 {
	switch {
	case x >= math.MaxInt16:
		return math.MaxInt16
	case x <= math.MinInt16:
		return math.MinInt16
	}
	return int16(math.Round(x))
}

// besselI0 is the zeroth-order modified Bessel function of the first kind,
// for the Kaiser window.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 50; k++ {
		term *= (x / 2) / float64(k)
		sum += term * term
		if term*term < 1e-12*sum {
			break
		}
	}
	return sum
}
