package store

import (
	"context"
	"math/bits"
	"slices"
	"sync"
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
	var ids []int64
	err := db.withScope(ctx, dims, scope, func(s *scopeBits) { ids = s.nearest(q, k) })
	return ids, err
}

// nearest is knnRefined over one scope's bits.
func (s *scopeBits) nearest(q []float32, k int) []int64 {
	wp := wordsFor(s.dims)
	qw := appendWords(nil, quantize(q), s.dims)
	wide := max(k*refineWidth, refineMin)
	n := len(s.ids)
	sc := scratchPool.Get().(*knnScratch)
	defer scratchPool.Put(sc)
	// Stage one: every distance, then the distance below which the
	// shortlist lies, from their histogram: linear, no heap.
	dist := grow(&sc.dist, n) // hammingAll writes every entry
	hist := grow(&sc.hist, wp*64+1)
	clear(hist)
	hammingAll(dist, hist, s.words[:n*wp], qw)
	limit, below := len(hist)-1, 0
	for d, c := range hist {
		if below+c >= wide {
			limit = d
			break
		}
		below += c
	}
	atLimit := wide - below // how many at the limiting distance still fit
	// Stage two: the asymmetric score of each shortlisted document, newest
	// bits first (so that a tie keeps the newest).
	sc.lut = byteTables(sc.lut, q, wp*8)
	lut := sc.lut
	out := sc.out[:0]
	defer func() { sc.out = out[:0] }()
	for i := n - 1; i >= 0; i-- {
		d := int(dist[i])
		if d > limit || (d == limit && atLimit <= 0) {
			continue
		}
		if d == limit {
			atLimit--
		}
		var score float32
		for w, x := range s.words[i*wp : (i+1)*wp] {
			t := lut[w*8*256 : (w+1)*8*256]
			score += t[x&0xff] + t[256+(x>>8&0xff)] + t[512+(x>>16&0xff)] + t[768+(x>>24&0xff)] +
				t[1024+(x>>32&0xff)] + t[1280+(x>>40&0xff)] + t[1536+(x>>48&0xff)] + t[1792+(x>>56)]
		}
		out = append(out, scored{s.ids[i], score})
	}
	// The best k distinct documents. A document twice in the shortlist
	// (stale bits next to new ones, until the scope reloads) is rare, so
	// the few best are kept by a bounded selection and deduplicated after.
	ids := make([]int64, 0, k)
	seen := make(map[int64]bool, k)
	for want := k; ; want *= 2 {
		best := topScored(out, want)
		ids = ids[:0]
		clear(seen)
		for _, c := range best {
			if !seen[c.id] {
				seen[c.id] = true
				if ids = append(ids, c.id); len(ids) == k {
					return ids
				}
			}
		}
		if len(best) == len(out) {
			return ids
		}
	}
}

// knnScratch holds a search's working buffers. At 100k documents the
// distances alone are 200 KB, a search's largest allocation by far; four
// searches at once made the collector run every few of them.
type knnScratch struct {
	dist []uint16
	hist []int
	lut  []float32
	out  []scored
}

var scratchPool = sync.Pool{New: func() any { return new(knnScratch) }}

// grow returns (*buf)[:n], reallocating it when it is too short; the
// contents are whatever was there.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// scored is a shortlisted document and its asymmetric score.
type scored struct {
	id    int64
	score float32
}

// better orders scored documents best first; ties by id, for a stable
// answer.
func better(a, b scored) int {
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
}

// topScored returns the n best of all, best first, without sorting all:
// a bounded heap whose root is the worst kept.
func topScored(all []scored, n int) []scored {
	if n >= len(all) {
		out := slices.Clone(all)
		slices.SortFunc(out, better)
		return out
	}
	h := slices.Clone(all[:n])
	// The root of a heap ordered worst first is the one to replace.
	worse := func(i, j int) bool { return better(h[i], h[j]) > 0 }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= n {
				return
			}
			if r := l + 1; r < n && worse(r, l) {
				l = r
			}
			if !worse(l, i) {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, c := range all[n:] {
		if better(c, h[0]) < 0 {
			h[0] = c
			down(0)
		}
	}
	slices.SortFunc(h, better)
	return h
}

// hammingAll writes each vector's Hamming distance to q into dist and counts
// the distances in hist. words holds the vectors one after another, as
// many words each as q has; 384 dimensions (six words, the built-in
// embedder's) has its own unrolled loop.
func hammingAll(dist []uint16, hist []int, words, q []uint64) {
	if len(q) == 6 {
		q0, q1, q2, q3, q4, q5 := q[0], q[1], q[2], q[3], q[4], q[5]
		for i := range dist {
			w := words[6*i : 6*i+6 : 6*i+6]
			d := bits.OnesCount64(w[0]^q0) + bits.OnesCount64(w[1]^q1) + bits.OnesCount64(w[2]^q2) +
				bits.OnesCount64(w[3]^q3) + bits.OnesCount64(w[4]^q4) + bits.OnesCount64(w[5]^q5)
			dist[i] = uint16(d)
			hist[d]++
		}
		return
	}
	wp := len(q)
	for i := range dist {
		d := 0
		for j, x := range words[i*wp : (i+1)*wp] {
			d += bits.OnesCount64(x ^ q[j])
		}
		dist[i] = uint16(d)
		hist[d]++
	}
}

// byteTables holds, for each byte j of a packed sign-bit vector (bit t is
// dimension 8j+t) and each of its 256 values, the sum of q over the
// dimensions whose bit is set. Each entry is the entry without its lowest
// bit plus that bit's value: 256 additions per byte. The tables are
// written into t when it is long enough.
func byteTables(t []float32, q []float32, nbytes int) []float32 {
	t = grow(&t, nbytes*256)
	for j := range nbytes {
		row := t[j*256 : (j+1)*256]
		row[0] = 0
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
