package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/hearth-appliance/hearth/appliance"
)

// vectorIndex is the active embedding space: the model whose vectors are
// stored, and the binary-quantized KNN table for its dimensions.
type vectorIndex struct {
	mu    sync.RWMutex
	model string
	dims  int
}

func (v *vectorIndex) get() (string, int) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.model, v.dims
}

// bqTable names the vec0 table of sign bits for a dimension count.
func bqTable(dims int) string { return fmt.Sprintf("search_bq_%d", dims) }

// UseEmbeddingModel implements appliance.SearchIndex. Switching models drops
// every stored vector (they are derived data) and the old KNN table, so two
// vector spaces are never mixed; the indexer then embeds everything again.
func (db *DB) UseEmbeddingModel(ctx context.Context, model string, dims int) (bool, error) {
	if dims <= 0 || dims%8 != 0 || dims > 8192 {
		return false, fmt.Errorf("embedding dimensions %d: must be a positive multiple of 8 up to 8192", dims)
	}
	reset := false
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var prevModel string
		var prevDims int
		err := tx.QueryRowContext(ctx, `SELECT
			COALESCE((SELECT value FROM settings WHERE key = 'embedding_model'), ''),
			COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'embedding_dims'), 0)`).Scan(&prevModel, &prevDims)
		if err != nil {
			return fmt.Errorf("read embedding model: %w", err)
		}
		if prevModel != model {
			reset = prevModel != ""
			if _, err := tx.ExecContext(ctx, `DELETE FROM search_vectors`); err != nil {
				return fmt.Errorf("drop old vectors: %w", err)
			}
			// Every document waits for a vector of the new model.
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO search_pending (doc_id) SELECT doc_id FROM search_docs`); err != nil {
				return fmt.Errorf("queue documents for the new model: %w", err)
			}
			if prevDims > 0 {
				if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DROP TRIGGER IF EXISTS %[1]s_ad; DROP TABLE IF EXISTS %[1]s`, bqTable(prevDims))); err != nil {
					return fmt.Errorf("drop old vector index: %w", err)
				}
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES ('embedding_model', ?), ('embedding_dims', ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, model, fmt.Sprint(dims)); err != nil {
				return fmt.Errorf("record embedding model: %w", err)
			}
		}
		t := bqTable(dims)
		// The partition key is user and kind together, so a KNN query reads
		// only the vectors it may return (a per-row metadata filter on kind
		// cost as much as the distance computations).
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`CREATE VIRTUAL TABLE IF NOT EXISTS %[1]s USING vec0(
				doc_id INTEGER PRIMARY KEY, scope TEXT PARTITION KEY, embedding BIT[%[2]d]);
			CREATE TRIGGER IF NOT EXISTS %[1]s_ad AFTER DELETE ON search_vectors BEGIN
				DELETE FROM %[1]s WHERE doc_id = old.doc_id;
			END;`, t, dims)); err != nil {
			return fmt.Errorf("create vector index: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	db.vectors.mu.Lock()
	db.vectors.model, db.vectors.dims = model, dims
	db.vectors.mu.Unlock()
	db.bits.reset()
	return reset, nil
}

// PendingDocs implements appliance.SearchIndex: the oldest documents on the
// work list (search_pending), so its cost does not grow with the index.
func (db *DB) PendingDocs(ctx context.Context, model string, n int) ([]appliance.SearchDoc, error) {
	// The list is of the active model's work; another model's would be a
	// wrong answer, not an empty one.
	if active, _ := db.vectors.get(); model != active {
		return nil, fmt.Errorf("pending docs of model %q while the index holds %q", model, active)
	}
	// CROSS JOIN keeps the work list outside: statistics gathered while
	// it was empty (an appliance restarted after catching up) made the
	// planner scan every search document and sort them for each batch.
	rows, err := db.query(ctx, `SELECT d.doc_id, d.text FROM search_pending p
		CROSS JOIN search_docs d ON d.doc_id = p.doc_id ORDER BY p.doc_id LIMIT ?`, n)
	if err != nil {
		return nil, fmt.Errorf("pending docs: %w", err)
	}
	defer rows.Close()
	var out []appliance.SearchDoc
	for rows.Next() {
		var d appliance.SearchDoc
		if err := rows.Scan(&d.DocID, &d.Text); err != nil {
			return nil, fmt.Errorf("scan pending doc: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// IndexProgress implements appliance.SearchIndex from the kept document
// count and the work list, both cheap however large the index is.
func (db *DB) IndexProgress(ctx context.Context, model string) (done, total int, err error) {
	var pending int
	err = db.queryRow(ctx, `SELECT (SELECT docs FROM search_count WHERE id = 1), (SELECT COUNT(*) FROM search_pending)`).
		Scan(&total, &pending)
	if err != nil {
		return 0, 0, fmt.Errorf("index progress: %w", err)
	}
	if active, _ := db.vectors.get(); model != active {
		return 0, total, nil // only the active model has vectors
	}
	return max(total-pending, 0), total, nil
}

// PutVectors implements appliance.SearchIndex.
func (db *DB) PutVectors(ctx context.Context, model string, docs []appliance.SearchDoc, vectors [][]float32) error {
	active, dims := db.vectors.get()
	if model != active {
		return fmt.Errorf("put vectors of model %q while the index holds %q", model, active)
	}
	if len(docs) != len(vectors) {
		return fmt.Errorf("put vectors: %d docs, %d vectors", len(docs), len(vectors))
	}
	t := bqTable(dims)
	// Without cancellation: a batch is short, and the driver would run each
	// statement on a goroutine of its own to be able to interrupt it.
	ctx = context.WithoutCancel(ctx)
	var scopes []string
	var ids []int64
	var bits [][]byte
	// In the group commit: a batch of vectors shares its commit with the
	// creates waiting at the same time instead of taking one of its own.
	err := db.withGroupTx(ctx, func(tx *sql.Tx) error {
		scopes, ids, bits = scopes[:0], ids[:0], bits[:0]
		// The batch's documents as they are now, in one read: each
		// vector is kept only while its doc exists with the text that was
		// embedded (else it is still pending, or gone).
		now, err := docsNow(ctx, tx, docs)
		if err != nil {
			return err
		}
		for i, d := range docs {
			if len(vectors[i]) != dims {
				return fmt.Errorf("vector of doc %d has %d dimensions, want %d", d.DocID, len(vectors[i]), dims)
			}
			cur, ok := now[d.DocID]
			if !ok || cur.text != d.Text {
				continue
			}
			blob := encodeVector(vectors[i])
			if _, err := tx.ExecContext(ctx, `INSERT INTO search_vectors (doc_id, model, embedding) VALUES (?, ?, ?)
				ON CONFLICT (doc_id) DO UPDATE SET model = excluded.model, embedding = excluded.embedding`,
				d.DocID, model, blob); err != nil {
				return fmt.Errorf("store vector: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE doc_id = ?`, d.DocID); err != nil {
				return fmt.Errorf("index vector: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t+` (doc_id, scope, embedding) VALUES (?, ?, vec_quantize_binary(?))`,
				d.DocID, cur.scope, blob); err != nil {
				return fmt.Errorf("index vector: %w", err)
			}
			scopes, ids, bits = append(scopes, cur.scope), append(ids, d.DocID), append(bits, quantize(vectors[i]))
		}
		if len(ids) == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_pending WHERE doc_id IN (SELECT value FROM json_each(?))`,
			idList(ids)); err != nil {
			return fmt.Errorf("take docs off the work list: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Only once committed: the in-memory KNN must never hold a vector the
	// database does not.
	db.bits.added(dims, scopes, ids, bits)
	return nil
}

// docNow is a search document's text and KNN scope as stored.
type docNow struct{ text, scope string }

// docsNow reads the batch's documents in one statement (idList: one text
// whatever the batch's size, so one entry in the statement cache), where
// each document cost two of its own.
func docsNow(ctx context.Context, tx *sql.Tx, docs []appliance.SearchDoc) (map[int64]docNow, error) {
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.DocID
	}
	rows, err := tx.QueryContext(ctx, `SELECT doc_id, text, user_id || char(31) || kind FROM search_docs
		WHERE doc_id IN (SELECT value FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read docs to index: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]docNow, len(docs))
	for rows.Next() {
		var id int64
		var d docNow
		if err := rows.Scan(&id, &d.text, &d.scope); err != nil {
			return nil, fmt.Errorf("read docs to index: %w", err)
		}
		out[id] = d
	}
	return out, rows.Err()
}

// encodeVector is sqlite-vec's float32 blob: little-endian, packed.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// dotBlob is the dot product of a stored vector and q; both are unit
// length, so this is their cosine similarity.
func dotBlob(b []byte, q []float32) float64 {
	if len(b) != 4*len(q) {
		return 0
	}
	// Four running sums: the additions no longer wait on each other, and
	// the bounds are checked once per four values.
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(q); i += 4 {
		v := b[4*i : 4*i+16 : 4*i+16]
		s0 += q[i] * math.Float32frombits(binary.LittleEndian.Uint32(v[0:]))
		s1 += q[i+1] * math.Float32frombits(binary.LittleEndian.Uint32(v[4:]))
		s2 += q[i+2] * math.Float32frombits(binary.LittleEndian.Uint32(v[8:]))
		s3 += q[i+3] * math.Float32frombits(binary.LittleEndian.Uint32(v[12:]))
	}
	for ; i < len(q); i++ {
		s0 += q[i] * math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return float64(s0 + s1 + s2 + s3)
}
