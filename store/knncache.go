package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"sync"
	"time"
)

// The KNN's sign bits, in memory. Reading a scope's chunks from sqlite-vec
// for every query cost more than comparing them: at 100k memories, 4.8 MB
// of 48 KB blobs through the page cache and the driver (a copy and an
// allocation each) took 4 ms of a 5 ms scan. A scope is read once, kept,
// and extended as PutVectors stores new vectors. Removals are rare (a
// deleted memory, a discarded conversation) and counted by the database
// (vector_epoch, migration 0014): a changed count reloads the scope, so a
// removed document is never a candidate. A re-embedded document's old bits
// stay until the next reload, next to its new ones: candidates are
// deduplicated, and the exact rescoring reads the current float vector.

// reloadAfter bounds how long a scope's copy lives, so that bits left by
// re-embedded documents do not accumulate.
const reloadAfter = 15 * time.Minute

type bitCache struct {
	mu     sync.RWMutex
	scopes map[string]*scopeBits // by bqTable + "\x00" + scope
	// appends counts PutVectors' additions, so that a load that raced one
	// knows its snapshot may lack it.
	appends uint64
}

type scopeBits struct {
	dims     int
	epoch    int64
	loadedAt time.Time
	ids      []int64
	// words holds the bits as 64-bit words, wordsFor(dims) per vector
	// (zero-padded): comparing a word at a time is what makes the scan
	// cheap.
	words []uint64
	// dirty: a vector was stored while this copy was loading; reload.
	dirty bool
	// mapped: words lie outside the Go heap (allocWords) and must be
	// freed when this copy is dropped, which happens under bitCache.mu's
	// write lock, so no reader is scanning it.
	mapped bool
}

// appendBits adds one vector's bits, making room outside the Go heap.
func (s *scopeBits) appendBits(b []byte) {
	wp := wordsFor(s.dims)
	if len(s.words)+wp > cap(s.words) {
		grown, mapped := allocWords(max(2*cap(s.words), 1<<14))
		grown = append(grown, s.words...)
		s.free()
		s.words, s.mapped = grown, mapped
	}
	s.words = appendWords(s.words, b, s.dims)
}

// free releases the words; the copy must not be used after.
func (s *scopeBits) free() {
	if s.mapped {
		freeWords(s.words)
	}
	s.words, s.mapped = nil, false
}

func (c *bitCache) key(dims int, scope string) string { return bqTable(dims) + "\x00" + scope }

// added records vectors stored by a committed PutVectors.
func (c *bitCache) added(dims int, scopes []string, ids []int64, bits [][]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.appends++
	for i, scope := range scopes {
		if s := c.scopes[c.key(dims, scope)]; s != nil {
			s.ids = append(s.ids, ids[i])
			s.appendBits(bits[i])
		}
	}
}

// reset forgets every scope (a model change, or the database closing).
func (c *bitCache) reset() {
	c.mu.Lock()
	for _, s := range c.scopes {
		s.free()
	}
	c.scopes = nil
	c.appends++
	c.mu.Unlock()
}

// scopeBits returns the scope's sign bits, loading them when there is no
// current copy. The returned copy must be read under c.mu's read lock
// (withScope does that).
func (db *DB) withScope(ctx context.Context, dims int, scope string, fn func(s *scopeBits)) error {
	var epoch int64
	if err := db.queryRow(ctx, `SELECT n FROM vector_epoch WHERE id = 1`).Scan(&epoch); err != nil {
		return fmt.Errorf("vector search: %w", err)
	}
	c := &db.bits
	key := c.key(dims, scope)
	c.mu.RLock()
	s := c.scopes[key]
	if s != nil && !s.dirty && s.epoch == epoch && time.Since(s.loadedAt) < reloadAfter {
		fn(s)
		c.mu.RUnlock()
		return nil
	}
	appends := c.appends
	c.mu.RUnlock()

	s, err := db.loadScope(ctx, dims, scope, epoch)
	if err != nil {
		return err
	}
	// Under the write lock throughout: the copy replaced is freed, and
	// this one may be replaced (and freed) as soon as the lock is let go.
	c.mu.Lock()
	defer c.mu.Unlock()
	s.dirty = c.appends != appends
	if c.scopes == nil {
		c.scopes = map[string]*scopeBits{}
	}
	if old := c.scopes[key]; old != nil {
		old.free()
	}
	c.scopes[key] = s
	fn(s)
	return nil
}

// loadScope reads a scope's valid vectors from sqlite-vec's chunks, with
// the removal count of the same snapshot (one statement reads both; a
// scope with no chunk keeps the count read before).
func (db *DB) loadScope(ctx context.Context, dims int, scope string, epoch int64) (_ *scopeBits, err error) {
	s := &scopeBits{dims: dims, loadedAt: time.Now(), epoch: epoch}
	defer func() {
		if err != nil {
			s.free()
		}
	}()
	t := bqTable(dims)
	stride := dims / 8
	// CROSS JOIN keeps the chunk list outside: it is the table that knows
	// the partition, so only this scope's vector blobs are looked up. The
	// unary + matters as much: the vector table's key is a typeless column
	// named rowid, and comparing it with an INTEGER column would apply an
	// affinity its index cannot serve, so every chunk of every user was
	// scanned (TestQueryPlans).
	rows, err := db.query(ctx, `SELECT (SELECT n FROM vector_epoch WHERE id = 1), c.validity, c.rowids, v.vectors FROM `+t+`_chunks c
		CROSS JOIN `+t+`_vector_chunks00 v ON v.rowid = +c.chunk_id WHERE c.partition00 = ?`, scope)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	defer rows.Close()
	var validity, rowids, vectors sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&s.epoch, &validity, &rowids, &vectors); err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		n := len(rowids) / 8
		if len(vectors) != n*stride || len(validity)*8 < n {
			return nil, fmt.Errorf("vector search: unexpected sqlite-vec chunk layout (%d rowid bytes, %d vector bytes, %d validity bytes)",
				len(rowids), len(vectors), len(validity))
		}
		for i := range n {
			if validity[i/8]>>(i%8)&1 == 0 {
				continue
			}
			s.ids = append(s.ids, int64(binary.LittleEndian.Uint64(rowids[8*i:])))
			s.appendBits(vectors[i*stride : (i+1)*stride])
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	return s, nil
}

// wordsFor is how many 64-bit words hold dims bits.
func wordsFor(dims int) int { return (dims + 63) / 64 }

// appendWords appends one vector's packed bits (LSB first, as sqlite-vec
// and quantize write them) as little-endian words, zero-padded.
func appendWords(dst []uint64, b []byte, dims int) []uint64 {
	for w := range wordsFor(dims) {
		var x uint64
		for k := range 8 {
			if i := 8*w + k; i < len(b) {
				x |= uint64(b[i]) << (8 * k)
			}
		}
		dst = append(dst, x)
	}
	return dst
}
