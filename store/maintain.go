package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Upkeep tuning.
const (
	// mergePages bounds one FTS5 merge step: a few milliseconds of the
	// writer, so that a create arriving meanwhile waits little.
	mergePages = 256
	// optimizeEvery is how often the planner statistics are refreshed, as
	// SQLite recommends for long-lived connections ("every few hours").
	optimizeEvery = 2 * time.Hour
	// readerLifetime bounds how long a read connection lives: statistics
	// are loaded when a connection opens, and ANALYZE on the writer does
	// not make open connections reload them.
	readerLifetime = 30 * time.Minute
)

// optimizeMask is PRAGMA optimize's: analyze (0x02) with a bounded
// analysis_limit (0x10) every table whose size changed tenfold or whose
// indexes have no statistics yet, whether or not this connection has
// queried it (0x10000). That last bit matters: reads run on the other
// pool, so the writer has queried almost nothing.
const optimizeMask = 0x10012

// optimize refreshes the planner statistics where they have gone stale.
func (db *DB) optimize(ctx context.Context) error {
	if _, err := db.writer.ExecContext(ctx, fmt.Sprintf(`PRAGMA optimize=%#x`, optimizeMask)); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	db.optimizedAt.Store(time.Now().Unix()) // the real clock: db.Now may be a test's fixed time
	return nil
}

func textIndexes() []string {
	out := make([]string, 0, len(textKinds))
	for _, kind := range textKinds {
		out = append(out, textIndex[kind])
	}
	return out
}

// MaintainIndex implements appliance.SearchIndex: one bounded step of
// upkeep best done while nothing is being written. The text index is
// written with automerge off (migration 0011), so that no create pays for
// merging segments inside its transaction; this merges them here instead,
// a few hundred pages at a time, and refreshes planner statistics when
// they are due.
func (db *DB) MaintainIndex(ctx context.Context) (more bool, err error) {
	ctx = context.WithoutCancel(ctx) // one short step; see PutVectors
	if time.Since(time.Unix(db.optimizedAt.Load(), 0)) >= optimizeEvery {
		if err := db.optimize(ctx); err != nil {
			return false, err
		}
		return true, nil
	}
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		// FTS5 tells whether a merge did anything only through the change
		// counter: fewer than two changes means there was nothing to merge.
		// One step merges each kind's index (migration 0022).
		for _, t := range append(textIndexes(), "segment_fts") {
			var before, after int64
			if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t+` (`+t+`, rank) VALUES ('merge', ?)`, mergePages); err != nil {
				return err
			}
			if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
				return err
			}
			more = more || after-before >= 2
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("merge text index: %w", err)
	}
	return more, nil
}
