package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// The conversation lifecycle's writes. Each is one IMMEDIATE transaction on
// the single writer, so a state change and the rows that go with it are
// committed together or not at all.
//
// Their statements run without the caller's cancellation: the caller waits
// for the commit anyway, the writes are short, and the driver runs every
// statement of a cancellable context on a goroutine of its own (to be able
// to interrupt it), which cost more than the statements themselves.

// SaveProcessed writes a processed conversation whole (row, segments,
// action items) and inserts the memories extracted from it, in one
// transaction: a crash never leaves a completed conversation without its
// memories, or memories of a conversation that was not saved.
func (db *DB) SaveProcessed(ctx context.Context, c *appliance.Conversation, memories []*appliance.Memory) error {
	return db.SaveProcessedFiled(ctx, c, memories, "")
}

// SaveProcessedFiled is SaveProcessed that first files a conversation in no
// folder into the user's system folder for systemFolder (a folder category,
// appliance.FolderCategory; none such: it stays in none), in the same
// transaction, on the writer: one read fewer through the read pool per
// create.
func (db *DB) SaveProcessedFiled(ctx context.Context, c *appliance.Conversation, memories []*appliance.Memory, systemFolder string) error {
	ctx = context.WithoutCancel(ctx)
	err := db.withGroupTxIntent(ctx, intentOf(ctx), func(tx *sql.Tx) error {
		folder := c.FolderID
		if c.FolderID == nil && systemFolder != "" {
			id, err := systemFolderID(ctx, tx, c.UserID, systemFolder)
			if err != nil {
				return err
			}
			if id != "" {
				c.FolderID = &id
			}
		}
		err := writeConversation(ctx, tx, c)
		if err == nil {
			err = insertMemories(ctx, tx, memories)
		}
		if err != nil {
			c.FolderID = folder // the write is rolled back: so is the filing
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("save processed conversation %s: %w", c.ID, err)
	}
	return nil
}

// systemFolderID is the id of the user's first system folder (by position)
// for a folder category, "" for none. The user's folders of that category
// are few and read whole: filtering on is_system in SQL (the partial index
// folders_user_category) and sorting for the first cost three times as
// much, and in the group commit the lookup cost more than the
// conversation's row.
func systemFolderID(ctx context.Context, tx *sql.Tx, userID, category string) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, position, is_system FROM folders WHERE user_id = ? AND category_mapping = ?`, userID, category)
	if err != nil {
		return "", fmt.Errorf("system folder: %w", err)
	}
	defer rows.Close()
	var id string
	var first int64
	for rows.Next() {
		var fid string
		var pos, system int64
		if err := rows.Scan(&fid, &pos, &system); err != nil {
			return "", fmt.Errorf("system folder: %w", err)
		}
		if system == 1 && (id == "" || pos < first) {
			id, first = fid, pos
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("system folder: %w", err)
	}
	return id, nil
}

// writeConversation writes a conversation whole: row, segments and the
// action items linked to it.
func writeConversation(ctx context.Context, tx *sql.Tx, c *appliance.Conversation) error {
	if err := upsertConversation(ctx, tx, c, ""); err != nil {
		return err
	}
	if err := replaceSegments(ctx, tx, c); err != nil {
		return err
	}
	return replaceActionItems(ctx, tx, c)
}

func insertMemories(ctx context.Context, tx *sql.Tx, ms []*appliance.Memory) error {
	if len(ms) == 0 {
		return nil
	}
	args := make([]any, 0, len(ms)*memoryInsertColumns)
	for _, m := range ms {
		tags := "[]" // the usual case, without a trip through encoding/json
		if len(m.Tags) > 0 {
			b, err := json.Marshal(m.Tags)
			if err != nil {
				return fmt.Errorf("encode tags: %w", err)
			}
			tags = string(b)
		}
		if m.Visibility == "" {
			m.Visibility = appliance.VisibilityPrivate
		}
		args = append(args, m.ID, m.UserID, m.ConversationID, m.Content, m.Category, tags,
			string(m.Visibility), fmtTime(m.CreatedAt), fmtTime(m.UpdatedAt), boolInt(m.Reviewed), nullBool(m.UserReview),
			boolInt(m.ManuallyAdded), boolInt(m.Edited), boolInt(m.IsLocked))
	}
	return mapErr(insertRows(ctx, tx, `INSERT INTO memories (`+memoryColumns+`)`, memoryInsertColumns, args), "memory")
}

// memoryInsertColumns are the values of a memory row: memoryColumns.
const memoryInsertColumns = 14

// StartRecording inserts an in_progress conversation that ends after
// silenceTimeout without new speech (see IdleInProgress).
func (db *DB) StartRecording(ctx context.Context, c *appliance.Conversation, silenceTimeout time.Duration) error {
	ctx = context.WithoutCancel(ctx)
	if c.FinishedAt == nil {
		return fmt.Errorf("start recording %s: no finished_at", c.ID)
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		if err := upsertConversation(ctx, tx, c, ""); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET silence_timeout_s = ?, idle_at = ? WHERE id = ?`,
			int64(silenceTimeout/time.Second), fmtTime(c.FinishedAt.Add(silenceTimeout)), c.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("start recording %s: %w", c.ID, err)
	}
	return nil
}

// AppendSegments adds segments after the ones an in_progress conversation
// already has and moves its finished_at, in one transaction. A segment
// whose id the conversation already has is rewritten where it stands (a
// live tail extended by a merge keeps its id and place); segments whose
// ids are in replaces are removed in the same transaction. When it returns nil the segments are committed to the WAL
// and survive a crash of the process. A conversation that is missing,
// deleted or no longer in_progress is ENOTFOUND or ECONFLICT.
func (db *DB) AppendSegments(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment, replaces []string, finishedAt time.Time) error {
	ctx = context.WithoutCancel(ctx)
	err := db.withGroupTx(ctx, func(tx *sql.Tx) error {
		var status string
		var next int
		var timeout sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT c.status, c.silence_timeout_s,
				COALESCE((SELECT MAX(idx) + 1 FROM transcript_segments WHERE conversation_id = c.id), 0)
			FROM conversations c WHERE c.id = ? AND c.user_id = ? AND c.deleted = 0`, id, userID).Scan(&status, &timeout, &next)
		if err == sql.ErrNoRows {
			return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
		} else if err != nil {
			return fmt.Errorf("read conversation: %w", err)
		}
		if status != string(appliance.StatusInProgress) {
			return appliance.Errorf(appliance.ECONFLICT, "Conversation is %s, not in progress", status)
		}
		for _, sid := range replaces {
			if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_segments WHERE conversation_id = ? AND id = ?`, id, sid); err != nil {
				return fmt.Errorf("drop merged segment: %w", err)
			}
		}
		fresh, err := rewriteSegments(ctx, tx, id, segs)
		if err != nil {
			return err
		}
		if err := insertSegments(ctx, tx, id, next, fresh); err != nil {
			return err
		}
		var idleAt any // stays NULL for a recording started without a timeout
		if timeout.Valid {
			idleAt = fmtTime(finishedAt.Add(time.Duration(timeout.Int64) * time.Second))
		}
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET finished_at = ?, idle_at = COALESCE(?, idle_at), updated_at = ? WHERE id = ?`,
			fmtTime(finishedAt), idleAt, fmtTime(db.Now()), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("append segments to %s: %w", id, err)
	}
	return nil
}

// rewriteSegments rewrites in place the segments whose ids convID already
// has, and returns the others, in order, to insert.
func rewriteSegments(ctx context.Context, tx *sql.Tx, convID string, segs []appliance.TranscriptSegment) ([]appliance.TranscriptSegment, error) {
	if len(segs) == 0 {
		return nil, nil
	}
	fresh := segs[:0:0]
	for _, s := range segs {
		tr, err := json.Marshal(nonNil(s.Translations))
		if err != nil {
			return nil, fmt.Errorf("encode translations: %w", err)
		}
		// Exec, not a prepared statement: see multirow.go.
		res, err := tx.ExecContext(ctx, `UPDATE transcript_segments SET text = ?, speaker = ?, speaker_id = ?, is_user = ?,
			person_id = ?, start_s = ?, end_s = ?, translations = ?, speech_profile_processed = ?, stt_provider = ?
			WHERE conversation_id = ? AND id = ?`, s.Text, s.Speaker, s.SpeakerID, boolInt(s.IsUser), s.PersonID, s.Start, s.End,
			string(tr), boolInt(s.SpeechProfileProcessed), s.STTProvider, convID, s.ID)
		if err != nil {
			return nil, fmt.Errorf("rewrite segment %s: %w", s.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			fresh = append(fresh, s)
		}
	}
	return fresh, nil
}

func insertSegments(ctx context.Context, tx *sql.Tx, convID string, first int, segs []appliance.TranscriptSegment) error {
	if len(segs) == 0 {
		return nil
	}
	args := make([]any, 0, len(segs)*segmentInsertColumns)
	for i := range segs {
		row, err := newSegmentRow(&segs[i])
		if err != nil {
			return err
		}
		args = append(row.appendArgs(args), convID, first+i)
	}
	if err := insertSegmentRows(ctx, tx, args); err != nil {
		return fmt.Errorf("insert segments from %d: %w", first, err)
	}
	return nil
}

// SetConversationStatus moves a conversation to status `to` if its status
// is one of from: the lifecycle's guard against two parties finishing the
// same recording. A conversation in another status is ECONFLICT.
func (db *DB) SetConversationStatus(ctx context.Context, userID, id string, from []appliance.ConversationStatus, to appliance.ConversationStatus) error {
	if len(from) == 0 {
		return fmt.Errorf("set conversation status: no from status")
	}
	args := []any{string(to), fmtTime(db.Now()), id, userID}
	for _, s := range from {
		args = append(args, string(s))
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE conversations SET status = ?, updated_at = ?
			WHERE id = ? AND user_id = ? AND deleted = 0 AND status IN (`+placeholders(len(from))+`)`, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		var status string
		err = tx.QueryRowContext(ctx, `SELECT status FROM conversations WHERE id = ? AND user_id = ? AND deleted = 0`, id, userID).Scan(&status)
		if err == sql.ErrNoRows {
			return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
		} else if err != nil {
			return err
		}
		return appliance.Errorf(appliance.ECONFLICT, "Conversation is %s", status)
	})
	if err != nil {
		return fmt.Errorf("set conversation %s %s: %w", id, to, err)
	}
	return nil
}

// DiscardConversation sets a conversation's discard flag; discarding also
// removes the memories extracted from it (never the ones the user added),
// in the same transaction.
func (db *DB) DiscardConversation(ctx context.Context, userID, id string, discarded bool) error {
	now := fmtTime(db.Now())
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE conversations SET discarded = ?, updated_at = ? WHERE id = ? AND user_id = ? AND deleted = 0`,
			boolInt(discarded), now, id, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
		}
		if !discarded {
			return nil
		}
		// INDEXED BY: memories added by hand have no conversation, and
		// ANALYZE counts their NULLs as one value matching many rows, a
		// skew that can make the planner prefer a scan of every memory.
		_, err = tx.ExecContext(ctx, `UPDATE memories INDEXED BY memories_conversation SET deleted = 1, updated_at = ?
			WHERE +user_id = ? AND conversation_id = ? AND manually_added = 0 AND deleted = 0`, now, userID, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("discard conversation %s: %w", id, err)
	}
	return nil
}

// IdleInProgress returns up to limit in_progress conversations (without
// segments) of any user whose silence timeout has run out by now: their own
// (idle_at), or for one that has none, defaultTimeout after its last speech.
func (db *DB) IdleInProgress(ctx context.Context, now time.Time, defaultTimeout time.Duration, limit int) ([]*appliance.Conversation, error) {
	rows, err := db.reader.QueryContext(ctx, `SELECT `+prefixed("c.", conversationColumns)+` FROM conversations c
		WHERE c.status = 'in_progress' AND c.deleted = 0
			AND (c.idle_at < ? OR (c.idle_at IS NULL AND c.finished_at < ?))
		ORDER BY c.finished_at LIMIT ?`,
		fmtTime(now), fmtTime(now.Add(-defaultTimeout)), limitOr(limit, 100))
	if err != nil {
		return nil, fmt.Errorf("idle conversations: %w", err)
	}
	defer rows.Close()
	var out []*appliance.Conversation
	for rows.Next() {
		c, err := scanConversation(rows, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// prefixed qualifies every column of a comma list with p.
func prefixed(p, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// storedTime parses a stored time. One that cannot be parsed (a year past
// 9999, written before times were bounded) is clamped to the nearest end
// of the accepted range rather than failing the read.
func storedTime(s string) time.Time {
	if t, err := parseTime(s); err == nil {
		return t
	}
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "0000") {
		return appliance.MinTime
	}
	return appliance.MaxTime.Add(-time.Microsecond)
}

func storedTimePtr(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t := storedTime(s.String)
	return &t
}
