package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// TranscriptionUsage sums the audio the user had transcribed since a time.
func (db *DB) TranscriptionUsage(ctx context.Context, userID string, since time.Time) (time.Duration, error) {
	var ms int64
	err := db.queryRow(ctx, `SELECT COALESCE(SUM(ms), 0) FROM transcription_usage WHERE user_id = ? AND at >= ?`,
		userID, fmtTime(since)).Scan(&ms)
	if err != nil {
		return 0, fmt.Errorf("read transcription usage: %w", err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// AddTranscriptionUsage records d of audio transcribed at a time, and
// forgets the user's records older than keep before it.
func (db *DB) AddTranscriptionUsage(ctx context.Context, userID string, at time.Time, d time.Duration, keep time.Duration) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcription_usage (user_id, at, ms) VALUES (?, ?, ?)`,
			userID, fmtTime(at), d.Milliseconds()); err != nil {
			return fmt.Errorf("record transcription usage: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM transcription_usage WHERE user_id = ? AND at < ?`,
			userID, fmtTime(at.Add(-keep))); err != nil {
			return fmt.Errorf("prune transcription usage: %w", err)
		}
		return nil
	})
}
