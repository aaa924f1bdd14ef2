package embed

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomSentences builds n sentences from a few topic vocabularies plus
// everyday words and stop words, so pairs range from unrelated to close.
func randomSentences(n int) []string {
	topics := [][]string{
		strings.Fields("budget review quarter finance forecast spending revenue report numbers invoice"),
		strings.Fields("piano recital daughter practice music teacher concert lesson song stage"),
		strings.Fields("marathon running training shoes race pace miles coach stretch injury"),
		strings.Fields("dentist appointment tooth cleaning clinic insurance reschedule filling pain checkup"),
		strings.Fields("flight tokyo hotel passport luggage airport gate boarding trip itinerary"),
		strings.Fields("garden tomato plants water balcony soil seeds harvest compost sunlight"),
		strings.Fields("database migration postgres sqlite schema query index backup server deploy"),
		strings.Fields("birthday party cake gifts balloons friends invitation surprise dinner celebrate"),
		strings.Fields("car brakes oil mechanic tires engine garage repair warranty inspection"),
		strings.Fields("recipe pasta garlic sauce oven dinner grocery onions basil cheese"),
	}
	common := strings.Fields("today tomorrow week morning people think good time call need talk later maybe really")
	stops := strings.Fields("the a to of and in on for with is was we I it that")
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		topic := topics[rng.IntN(len(topics))]
		var words []string
		for range 5 + rng.IntN(8) {
			switch p := rng.Float64(); {
			case p < 0.55:
				words = append(words, topic[rng.IntN(len(topic))])
			case p < 0.75:
				words = append(words, common[rng.IntN(len(common))])
			default:
				words = append(words, stops[rng.IntN(len(stops))])
			}
		}
		out[i] = strings.Join(words, " ")
	}
	return out
}

// TestSignBits checks what binary quantisation relies on: sign bits are
// balanced per dimension, and hamming distance between sign vectors ranks
// pairs the way cosine does.
func TestSignBits(t *testing.T) {
	t.Parallel()
	texts := randomSentences(200)
	vs := mustEmbed(t, texts...)
	dims := len(vs[0])

	balanced := 0
	lo, hi := 1.0, 0.0
	for d := range dims {
		pos := 0
		for _, v := range vs {
			if v[d] > 0 {
				pos++
			}
		}
		f := float64(pos) / float64(len(vs))
		lo, hi = min(lo, f), max(hi, f)
		if f >= 0.3 && f <= 0.7 {
			balanced++
		}
	}
	share := float64(balanced) / float64(dims)
	t.Logf("positive fraction per dimension: %.2f..%.2f; %.1f%% of dimensions in [0.3, 0.7]", lo, hi, 100*share)
	if share < 0.9 {
		t.Errorf("only %.1f%% of dimensions have balanced sign bits", 100*share)
	}

	signs := make([][]uint64, len(vs))
	for i, v := range vs {
		signs[i] = make([]uint64, (dims+63)/64)
		for d, x := range v {
			if x > 0 {
				signs[i][d/64] |= 1 << (d % 64)
			}
		}
	}
	var cos, ham []float64
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			h := 0
			for k := range signs[i] {
				h += bits.OnesCount64(signs[i][k] ^ signs[j][k])
			}
			cos = append(cos, cosine(vs[i], vs[j]))
			ham = append(ham, -float64(h))
		}
	}
	rho := spearman(cos, ham)
	t.Logf("rank correlation of cosine with -hamming over %d pairs: %.3f", len(cos), rho)
	if rho < 0.5 {
		t.Errorf("rank correlation %.3f, want > 0.5", rho)
	}
}

// spearman is the rank correlation of x and y, ties taking their mean rank.
func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	n := float64(len(x))
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / (sqrt(sxx) * sqrt(syy))
}

func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		mean := float64(i+j-1) / 2
		for k := i; k < j; k++ {
			r[idx[k]] = mean
		}
		i = j
	}
	return r
}
