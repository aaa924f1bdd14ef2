package store

import (
	"context"
	"math/bits"
	"slices"
)

// Refining the sign-bit candidates with the float query.
//
// Hamming distance quantizes both sides: a dimension where the query is
// nearly zero counts as much as one where it is large. Scoring a
// document's sign bits against the query's floats (the sum of the query's
// values where the document's bit is set: its dot product with the
// document's signs, less a constant) keeps the query's magnitudes, and
// ranks far better, at no memory cost: the bits are already in memory. It
// costs one table lookup per byte of bits, so it ranks a wide Hamming
// shortlist (refineWidth per result wanted) rather than the whole scope.

// refineWidth is how many Hamming neighbours are refined per candidate
// kept; refineMin is the least shortlist.
const (
	refineWidth = 8
	refineMin   = 2048
)

// knnRefined returns the doc ids of the k documents of scope whose sign
// bits best match the float query q, best first: a Hamming shortlist
// re-ranked by the asymmetric score. A document appears once; if stale
// bits of a re-embedded one are what made the shortlist, the exact
// rescoring that follows reads its current vector.
func (db *DB) knnRefined(ctx context.Context, dims int, scope string, q []float32, k int) ([]int64, error) {
	wp := wordsFor(dims)
	qw := appendWords(nil, quantize(q), dims)
	lut := byteTables(q, wp*8)
	wide := max(k*refineWidth, refineMin)
	type scored struct {
		id    int64
		score float32
	}
	var out []scored
	err := db.withScope(ctx, dims, scope, func(s *scopeBits) {
		// Stage one: every distance, then the distance below which the
		// shortlist lies, from their histogram: linear, no heap.
		n := len(s.ids)
		dist := make([]uint16, n)
		hist := make([]int, wp*64+1)
		for i := range n {
			d := 0
			for j, x := range s.words[i*wp : (i+1)*wp] {
				d += bits.OnesCount64(x ^ qw[j])
			}
			dist[i] = uint16(d)
			hist[d]++
		}
		limit, below := len(hist)-1, 0
		for d, c := range hist {
			if below+c >= wide {
				limit = d
				break
			}
			below += c
		}
		atLimit := wide - below // how many at the limiting distance still fit
		// Stage two: the asymmetric score of each shortlisted document,
		// newest bits first.
		out = make([]scored, 0, min(wide, n))
		seen := make(map[int64]bool, min(wide, n))
		for i := n - 1; i >= 0; i-- {
			d := int(dist[i])
			if d > limit || (d == limit && atLimit <= 0) {
				continue
			}
			if d == limit {
				atLimit--
			}
			id := s.ids[i]
			if seen[id] {
				continue
			}
			seen[id] = true
			var sc float32
			for w, x := range s.words[i*wp : (i+1)*wp] {
				t := lut[w*8*256 : (w+1)*8*256]
				sc += t[x&0xff] + t[256+(x>>8&0xff)] + t[512+(x>>16&0xff)] + t[768+(x>>24&0xff)] +
					t[1024+(x>>32&0xff)] + t[1280+(x>>40&0xff)] + t[1536+(x>>48&0xff)] + t[1792+(x>>56)]
			}
			out = append(out, scored{id, sc})
		}
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	if len(out) > k {
		out = out[:k]
	}
	ids := make([]int64, len(out))
	for i, s := range out {
		ids[i] = s.id
	}
	return ids, nil
}

// byteTables holds, for each byte j of a packed sign-bit vector (bit t is
// dimension 8j+t) and each of its 256 values, the sum of q over the
// dimensions whose bit is set. Each entry is the entry without its lowest
// bit plus that bit's value: 256 additions per byte.
func byteTables(q []float32, nbytes int) []float32 {
	t := make([]float32, nbytes*256)
	for j := range nbytes {
		row := t[j*256 : (j+1)*256]
		for b := 1; b < 256; b++ {
			low := bits.TrailingZeros8(uint8(b))
			var v float32
			if i := 8*j + low; i < len(q) {
				v = q[i]
			}
			row[b] = row[b&(b-1)] + v
		}
	}
	return t
}
