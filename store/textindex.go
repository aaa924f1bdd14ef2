package store

import (
	"context"
	"database/sql"
	"fmt"
)

// textBatch bounds the documents one IndexText step moves into the text
// index: one INSERT, one FTS5 flush, a few milliseconds of the writer.
const textBatch = 512

// IndexText implements appliance.SearchIndex: it moves up to textBatch of
// the documents written since the last call into the full-text index,
// with one statement, so that FTS5 writes one index segment for them all
// (migration 0020 says why the triggers no longer do it row by row). It
// returns how many it moved; 0 means none was waiting.
func (db *DB) IndexText(ctx context.Context) (int, error) {
	ctx = context.WithoutCancel(ctx) // one short step; see PutVectors
	var n int64
	err := db.withGroupTx(ctx, func(tx *sql.Tx) error {
		moved, err := indexDocs(ctx, tx)
		if err != nil {
			return err
		}
		n += moved
		// What was said, the same way (migration 0028): a batch of
		// segments, one FTS5 write for them all.
		moved, err = indexSegments(ctx, tx)
		n += moved
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("index text: %w", err)
	}
	return int(n), nil
}

// indexDocs moves up to textBatch search documents into their kinds'
// indexes (migration 0022): those past the mark (migration 0034), in
// doc_id order, advancing the mark over them, then those queued at or
// below it. +kind: the documents are found by id; an index on the kind
// would read every document of it (TestQueryPlans). Only the kinds a batch
// holds: an INSERT into an FTS5 table costs its transaction hooks even
// when it moves nothing, and a create's batch seldom holds all three.
func indexDocs(ctx context.Context, tx *sql.Tx) (int64, error) {
	mark, top, queued, err := textWork(ctx, tx, "search_docs", "search_fts_mark", "search_fts_pending")
	if err != nil {
		return 0, err
	}
	var n int64
	if top.Valid {
		kinds, err := kindsOf(ctx, tx, `SELECT kind FROM search_docs WHERE doc_id > ? AND doc_id <= ? GROUP BY kind`, mark, top.Int64)
		if err != nil {
			return 0, err
		}
		for _, kind := range kinds {
			res, err := tx.ExecContext(ctx, `INSERT INTO `+textIndex[kind]+` (rowid, text)
				SELECT doc_id, text FROM search_docs WHERE +kind = ? AND doc_id > ? AND doc_id <= ?`, kind, mark, top.Int64)
			if err != nil {
				return 0, err
			}
			moved, err := res.RowsAffected()
			if err != nil {
				return 0, err
			}
			n += moved
		}
		if _, err := tx.ExecContext(ctx, `UPDATE search_fts_mark SET indexed = ? WHERE id = 1`, top.Int64); err != nil {
			return 0, err
		}
	}
	if !queued {
		return n, nil
	}
	kinds, err := kindsOf(ctx, tx, `SELECT kind FROM search_docs
		WHERE doc_id IN (SELECT doc_id FROM search_fts_pending ORDER BY doc_id LIMIT ?) GROUP BY kind`, textBatch)
	if err != nil {
		return 0, err
	}
	var queuedMoved int64
	for _, kind := range kinds {
		res, err := tx.ExecContext(ctx, `INSERT INTO `+textIndex[kind]+` (rowid, text)
			SELECT doc_id, text FROM search_docs
			WHERE +kind = ? AND doc_id IN (SELECT doc_id FROM search_fts_pending ORDER BY doc_id LIMIT ?)`, kind, textBatch)
		if err != nil {
			return 0, err
		}
		moved, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		queuedMoved += moved
	}
	if queuedMoved > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_fts_pending
			WHERE doc_id IN (SELECT doc_id FROM search_fts_pending ORDER BY doc_id LIMIT ?)`, textBatch); err != nil {
			return 0, err
		}
	}
	return n + queuedMoved, nil
}

// textWork says what waits for a text index: the mark (the last document
// indexed in order), the last of the next textBatch documents past it (none
// when nothing is past it), and whether documents at or below the mark are
// queued again (rewritten in place). Table names are this file's constants.
func textWork(ctx context.Context, tx *sql.Tx, docs, markTable, pending string) (mark int64, top sql.NullInt64, queued bool, err error) {
	err = tx.QueryRowContext(ctx, `SELECT indexed, (SELECT max(doc_id) FROM
			(SELECT doc_id FROM `+docs+` WHERE doc_id > indexed ORDER BY doc_id LIMIT ?)),
			EXISTS (SELECT 1 FROM `+pending+`)
		FROM `+markTable+` WHERE id = 1`, textBatch).Scan(&mark, &top, &queued)
	return mark, top, queued, err
}

// kindsOf are the kinds of search document a query lists.
func kindsOf(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var kinds []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		if _, ok := textIndex[k]; ok {
			kinds = append(kinds, k)
		}
	}
	return kinds, rows.Err()
}

// indexSegments moves up to textBatch segments into segment_fts: those
// past the mark (migration 0034), in doc_id order, advancing the mark over
// them, then those queued at or below it. The batch is counted in
// transcript_segments and read through segment_docs (migration 0036), so a
// deleted conversation's segments are passed over, not indexed.
func indexSegments(ctx context.Context, tx *sql.Tx) (int64, error) {
	mark, top, queued, err := textWork(ctx, tx, "transcript_segments", "segment_fts_mark", "segment_fts_pending")
	if err != nil {
		return 0, err
	}
	var n int64
	if top.Valid {
		res, err := tx.ExecContext(ctx, `INSERT INTO segment_fts (rowid, text)
			SELECT doc_id, text FROM segment_docs WHERE doc_id > ? AND doc_id <= ?`, mark, top.Int64)
		if err != nil {
			return 0, err
		}
		if n, err = res.RowsAffected(); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE segment_fts_mark SET indexed = ? WHERE id = 1`, top.Int64); err != nil {
			return 0, err
		}
	}
	if !queued { // the usual case; an empty INSERT into FTS5 is not free
		return n, nil
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO segment_fts (rowid, text)
		SELECT doc_id, text FROM segment_docs
		WHERE doc_id IN (SELECT doc_id FROM segment_fts_pending ORDER BY doc_id LIMIT ?)`, textBatch)
	if err != nil {
		return 0, err
	}
	moved, err := res.RowsAffected()
	if err != nil || moved == 0 {
		return n, err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM segment_fts_pending
		WHERE doc_id IN (SELECT doc_id FROM segment_fts_pending ORDER BY doc_id LIMIT ?)`, textBatch)
	return n + moved, err
}

// textKinds are the kinds of search documents, each with its own
// full-text index (textIndex), so that BM25 weighs a word by how common it
// is among documents of that kind and a search never filters on a kind
// column (migration 0022 says why).
var textKinds = []string{"memory", "conversation", "action_item"}

var textIndex = map[string]string{
	"memory":       "search_fts_memory",
	"conversation": "search_fts_conversation",
	"action_item":  "search_fts_action_item",
}

// textCaughtUp makes the text index hold every document written so far,
// so that a search finds what was written just before it: a cheap read
// when nothing waits (the usual case, since the indexer calls IndexText
// as documents arrive), else the missing batches.
func (db *DB) textCaughtUp(ctx context.Context) error {
	var waiting bool
	if err := db.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM search_fts_pending) OR EXISTS (SELECT 1 FROM segment_fts_pending)
		OR EXISTS (SELECT 1 FROM search_docs WHERE doc_id > (SELECT indexed FROM search_fts_mark WHERE id = 1))
		OR EXISTS (SELECT 1 FROM segment_docs WHERE doc_id > (SELECT indexed FROM segment_fts_mark WHERE id = 1))`).Scan(&waiting); err != nil {
		return fmt.Errorf("text index: %w", err)
	}
	for waiting {
		n, err := db.IndexText(ctx)
		if err != nil {
			return err
		}
		waiting = n > 0
	}
	return nil
}
