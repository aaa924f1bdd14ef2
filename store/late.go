package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// InsertSegments puts segments into a conversation's transcript by their
// start time, whatever its status (they were said during it: a live
// session transcribed them late, from audio its route skipped while
// behind). The segments already there keep their order; each new one goes
// before the first that starts after it. An in_progress recording's
// silence timeout starts again from now, so that it is not processed
// while late words still arrive. It returns the conversation's status
// (a processed one was structured without these segments). A
// conversation that is missing or deleted is ENOTFOUND.
func (db *DB) InsertSegments(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment, now time.Time) (appliance.ConversationStatus, error) {
	if len(segs) == 0 {
		return "", nil
	}
	ctx = context.WithoutCancel(ctx)
	fresh := slices.Clone(segs)
	slices.SortStableFunc(fresh, func(a, b appliance.TranscriptSegment) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	var status string
	err := db.withGroupTx(ctx, func(tx *sql.Tx) error {
		var timeout sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT status, silence_timeout_s FROM conversations
			WHERE id = ? AND user_id = ? AND deleted = 0`, id, userID).Scan(&status, &timeout)
		if err == sql.ErrNoRows {
			return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
		} else if err != nil {
			return fmt.Errorf("read conversation: %w", err)
		}
		had, err := segmentStarts(ctx, tx, id)
		if err != nil {
			return err
		}
		// Every row moves out of the way first (idx is the key), then
		// each takes its place in the merged order.
		if _, err := tx.ExecContext(ctx, `UPDATE transcript_segments SET idx = -1 - idx WHERE conversation_id = ?`, id); err != nil {
			return fmt.Errorf("renumber segments: %w", err)
		}
		next, f := 0, 0
		for _, old := range had {
			for ; f < len(fresh) && fresh[f].Start < old.start; f++ {
				if err := insertSegments(ctx, tx, id, next, fresh[f:f+1]); err != nil {
					return err
				}
				next++
			}
			if _, err := tx.ExecContext(ctx, `UPDATE transcript_segments SET idx = ? WHERE conversation_id = ? AND idx = ?`,
				next, id, -1-old.idx); err != nil {
				return fmt.Errorf("renumber segment %d: %w", old.idx, err)
			}
			next++
		}
		if err := insertSegments(ctx, tx, id, next, fresh[f:]); err != nil {
			return err
		}
		if status == string(appliance.StatusInProgress) && timeout.Valid {
			_, err = tx.ExecContext(ctx, `UPDATE conversations SET idle_at = ?, updated_at = ? WHERE id = ?`,
				fmtTime(now.Add(time.Duration(timeout.Int64)*time.Second)), fmtTime(db.Now()), id)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ? WHERE id = ?`, fmtTime(db.Now()), id)
		}
		return err
	})
	if err != nil {
		return "", fmt.Errorf("insert segments into %s: %w", id, err)
	}
	return appliance.ConversationStatus(status), nil
}

// placed is a stored segment's key and start.
type placed struct {
	idx   int
	start float64
}

// segmentStarts is where each of a conversation's segments stands and
// starts, in transcript order.
func segmentStarts(ctx context.Context, tx *sql.Tx, id string) ([]placed, error) {
	rows, err := tx.QueryContext(ctx, `SELECT idx, start_s FROM transcript_segments WHERE conversation_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, fmt.Errorf("read segments: %w", err)
	}
	defer rows.Close()
	var out []placed
	for rows.Next() {
		var s placed
		if err := rows.Scan(&s.idx, &s.start); err != nil {
			return nil, fmt.Errorf("read segments: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
