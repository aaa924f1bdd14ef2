package store

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// randomScope is n random unit-ish vectors' sign bits in one scope, with
// their float vectors; every seventh id appears twice (stale bits).
func randomScope(r *rand.Rand, n, dims int) (*scopeBits, [][]float32) {
	s := &scopeBits{dims: dims}
	vecs := make([][]float32, n)
	for i := range n {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		vecs[i] = v
		s.ids = append(s.ids, int64(i))
		s.words = appendWords(s.words, quantize(v), dims)
		if i%7 == 0 {
			stale := make([]float32, dims)
			for j := range stale {
				stale[j] = float32(r.NormFloat64())
			}
			s.ids = append(s.ids, int64(i))
			s.words = appendWords(s.words, quantize(stale), dims)
		}
	}
	return s, vecs
}

// TestNearestMatchesFullSort: the bounded selection, the unrolled Hamming
// loop and the deduplication give what scoring and sorting the whole
// shortlist gives: k distinct ids, best asymmetric score first.
func TestNearestMatchesFullSort(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for _, dims := range []int{384, 100} {
		s, vecs := randomScope(r, 5000, dims)
		for _, k := range []int{1, 10, 80, 400} {
			q := vecs[r.IntN(len(vecs))]
			got := s.nearest(q, k)
			// The reference: every entry's distance, the shortlist of the
			// nearest wide entries, each scored, sorted, deduplicated.
			wp := wordsFor(dims)
			qw := appendWords(nil, quantize(q), dims)
			lut := byteTables(nil, q, wp*8)
			type entry struct {
				i, d int
			}
			var es []entry
			for i := range s.ids {
				d := 0
				for j := range wp {
					d += popcount(s.words[i*wp+j] ^ qw[j])
				}
				es = append(es, entry{i, d})
			}
			sort.SliceStable(es, func(a, b int) bool {
				if es[a].d != es[b].d {
					return es[a].d < es[b].d
				}
				return es[a].i > es[b].i // newest first at the limit
			})
			wide := max(k*refineWidth, refineMin)
			var all []scored
			for _, e := range es[:min(wide, len(es))] {
				var sc float32
				for w := range wp {
					x := s.words[e.i*wp+w]
					for b := range 8 {
						sc += lut[(w*8+b)*256+int(x>>(8*b)&0xff)]
					}
				}
				all = append(all, scored{s.ids[e.i], sc})
			}
			slices.SortFunc(all, better)
			var want []int64
			for _, c := range all {
				if !slices.Contains(want, c.id) {
					want = append(want, c.id)
				}
				if len(want) == k {
					break
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("dims %d k %d: got %v…, want %v…", dims, k, got[:min(5, len(got))], want[:min(5, len(want))])
			}
		}
	}
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// BenchmarkNearest100k: the in-memory KNN over 100k memories, the step a
// memory search takes before it reads any float vector.
func BenchmarkNearest100k(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	s, vecs := randomScope(r, 100_000, 384)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.nearest(vecs[i%len(vecs)], 80)
	}
}

// TestByteTablesReusesDirtyBuffer: a search's tables are written over the
// last search's (knnScratch); nothing of the old values may remain.
func TestByteTablesReusesDirtyBuffer(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	q := make([]float32, 100)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	want := byteTables(nil, q, 13)
	dirty := make([]float32, 48*256)
	for i := range dirty {
		dirty[i] = float32(i) + 0.5
	}
	got := byteTables(dirty, q, 13)
	if &got[0] != &dirty[0] {
		t.Error("a long enough buffer was not reused")
	}
	if !slices.Equal(got, want) {
		t.Error("tables written over a used buffer differ from fresh ones")
	}
}
