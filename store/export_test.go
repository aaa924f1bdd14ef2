package store

import (
	"context"
	"fmt"
	"time"
)

// QueryString runs a one-value query on the read pool (tests only).
func (db *DB) QueryString(ctx context.Context, q string) (string, error) {
	var s string
	err := db.reader.QueryRowContext(ctx, q).Scan(&s)
	return s, err
}

// Raw runs a query and returns its rows as strings (tests only).
func (db *DB) Raw(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := db.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		rows.Scan(ptrs...)
		out = append(out, fmt.Sprint(vals...))
	}
	return out, rows.Err()
}

// WriterString runs a one-value query on the writer (tests only), for the
// settings that differ between the pools.
func (db *DB) WriterString(ctx context.Context, q string) (string, error) {
	var s string
	err := db.writer.QueryRowContext(ctx, q).Scan(&s)
	return s, err
}

// TextWindow is how many of the newest documents BM25 ranks first.
const TextWindow = textWindow

// WriterExec runs a statement on the writer (tests only), such as an FTS5
// command.
func (db *DB) WriterExec(ctx context.Context, q string) error {
	_, err := db.writer.ExecContext(ctx, q)
	return err
}

// SetKeyClock replaces the key cache's clock (tests only).
func (db *DB) SetKeyClock(now func() time.Time) {
	db.keys.mu.Lock()
	defer db.keys.mu.Unlock()
	db.keys.now = now
}

// KeyCacheTTL is how long a key or user is answered from memory (tests
// only).
const KeyCacheTTL = recentTTL
