package store

import (
	"container/heap"
	"context"
	"encoding/binary"
	"math/bits"
	"sort"
)

// The sign-bit KNN runs in Go over sqlite-vec's own storage.
//
// sqlite-vec (v0.1.6) stores a vec0 table's vectors in chunks of 1024 and
// answers `embedding MATCH ? AND k = ?` by computing every distance of a
// chunk and then selecting the k smallest with k passes over the chunk
// (min_idx in sqlite-vec.c): O(n·k). At 10k memories and the k = 120 an
// MCP search asks for, that was 2.8 ms of a 5.8 ms search, and it grows
// with both. Reading the same chunks and keeping a k-sized heap costs
// O(n log k): a few hundred microseconds at 10k.
//
// This reads sqlite-vec's shadow tables (<table>_chunks with validity
// bitmap and rowids, <table>_vector_chunks00 with the packed vectors), a
// layout private to sqlite-vec: TestKNN_MatchesSqliteVec compares the
// result with vec0's MATCH, so an upgrade that changes it fails there.
// Writes and deletes still go through the vec0 table; the chunks are read
// once per scope and kept in memory (knncache.go).

// quantize is vec_quantize_binary: bit i (LSB first within each byte) is
// set when element i is positive.
func quantize(v []float32) []byte {
	out := make([]byte, (len(v)+7)/8)
	for i, x := range v {
		if x > 0 {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

// hamming counts the bits in which a and b differ; len(a) == len(b).
func hamming(a, b []byte) int {
	d := 0
	for len(a) >= 8 {
		d += bits.OnesCount64(binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b))
		a, b = a[8:], b[8:]
	}
	for i := range a {
		d += bits.OnesCount8(a[i] ^ b[i])
	}
	return d
}

type neighbour struct {
	id   int64
	dist int
}

// farthestFirst is a max-heap: the root is the worst of the k kept so far.
type farthestFirst []neighbour

func (h farthestFirst) Len() int { return len(h) }
func (h farthestFirst) Less(i, j int) bool {
	if h[i].dist != h[j].dist {
		return h[i].dist > h[j].dist
	}
	return h[i].id > h[j].id
}
func (h farthestFirst) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *farthestFirst) Push(x any)   { *h = append(*h, x.(neighbour)) }
func (h *farthestFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// knn returns the doc ids of the k vectors of scope nearest to qbits by
// Hamming distance, nearest first (ties by doc id), over the scope's sign
// bits in memory (knncache.go).
func (db *DB) knn(ctx context.Context, dims int, scope string, qbits []byte, k int) ([]int64, error) {
	wp := wordsFor(dims)
	q := appendWords(nil, qbits, dims)
	h := make(farthestFirst, 0, k+1)
	seen := map[int64]bool{}
	err := db.withScope(ctx, dims, scope, func(s *scopeBits) {
		// Newest first: a re-embedded document's current bits were
		// appended after its old ones, and the first seen of an id wins.
		for i := len(s.ids) - 1; i >= 0; i-- {
			d := 0
			for j, x := range s.words[i*wp : (i+1)*wp] {
				d += bits.OnesCount64(x ^ q[j])
			}
			if len(h) == k && d >= h[0].dist {
				continue // ties keep the first seen; fine for candidate selection
			}
			id := s.ids[i]
			if seen[id] {
				continue
			}
			seen[id] = true
			heap.Push(&h, neighbour{id: id, dist: d})
			if len(h) > k {
				heap.Pop(&h)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(h, func(i, j int) bool {
		if h[i].dist != h[j].dist {
			return h[i].dist < h[j].dist
		}
		return h[i].id < h[j].id
	})
	ids := make([]int64, len(h))
	for i, nb := range h {
		ids[i] = nb.id
	}
	return ids, nil
}
