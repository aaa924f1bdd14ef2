package store

import (
	"container/heap"
	"context"
	"math/bits"
	"sort"
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
// bits best match the float query q, best first: the Hamming shortlist
// (knn's order) re-ranked by the asymmetric score.
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
		// Stage one: the Hamming shortlist, as knn keeps it, with each
		// document's position so its bits can be read again.
		h := make(farthestFirst, 0, wide+1)
		pos := make(map[int64]int, wide)
		for i := len(s.ids) - 1; i >= 0; i-- {
			d := 0
			for j, x := range s.words[i*wp : (i+1)*wp] {
				d += bits.OnesCount64(x ^ qw[j])
			}
			if len(h) == wide && d >= h[0].dist {
				continue
			}
			id := s.ids[i]
			if _, seen := pos[id]; seen {
				// Newest first: a re-embedded document's current bits came
				// first, and its old ones never stand in, even once the
				// current ones have left the shortlist.
				continue
			}
			pos[id] = i
			heap.Push(&h, neighbour{id: id, dist: d})
			if len(h) > wide {
				heap.Pop(&h)
			}
		}
		// Stage two: the asymmetric score of each shortlisted document.
		out = make([]scored, 0, len(h))
		for _, nb := range h {
			var sc float32
			for w, x := range s.words[pos[nb.id]*wp : (pos[nb.id]+1)*wp] {
				t := lut[w*8*256:]
				sc += t[x&0xff] + t[256+(x>>8&0xff)] + t[512+(x>>16&0xff)] + t[768+(x>>24&0xff)] +
					t[1024+(x>>32&0xff)] + t[1280+(x>>40&0xff)] + t[1536+(x>>48&0xff)] + t[1792+(x>>56)]
			}
			out = append(out, scored{nb.id, sc})
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
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
