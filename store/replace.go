package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Writing a conversation whole replaces its segments and action items.
// Deleting and re-inserting every row made each save rewrite all of them,
// and for action items also their search docs: an FTS5 delete and insert,
// a dropped vector and a re-embedding, for text that had not changed. The
// helpers here compare what is stored with what is wanted and write only
// the difference. A new conversation has nothing stored, and every row is
// inserted as before.

// segmentRow is one transcript_segments row as stored, comparable with ==.
type segmentRow struct {
	id, text, speaker string
	speakerID         int64
	isUser            int64
	personID          sql.NullString
	start, end        float64
	translations      string
	processed         int64
	provider          sql.NullString
}

func newSegmentRow(s *appliance.TranscriptSegment) (segmentRow, error) {
	tr := "[]" // the common case, without a trip through encoding/json
	if len(s.Translations) > 0 {
		b, err := json.Marshal(s.Translations)
		if err != nil {
			return segmentRow{}, fmt.Errorf("encode translations: %w", err)
		}
		tr = string(b)
	}
	return segmentRow{id: s.ID, text: s.Text, speaker: s.Speaker, speakerID: int64(s.SpeakerID), isUser: int64(boolInt(s.IsUser)),
		personID: nullString(s.PersonID), start: s.Start, end: s.End, translations: tr,
		processed: int64(boolInt(s.SpeechProfileProcessed)), provider: nullString(s.STTProvider)}, nil
}

func (r *segmentRow) args() []any {
	return r.appendArgs(make([]any, 0, segmentInsertColumns))
}

// appendArgs appends args' values to dst, for rows inserted together
// without a slice of their own each.
func (r *segmentRow) appendArgs(dst []any) []any {
	return append(dst, r.id, r.text, r.speaker, r.speakerID, r.isUser, r.personID, r.start, r.end, r.translations, r.processed, r.provider)
}

// storedSegments reads a conversation's segments by position, and the
// highest position stored (-1 for none). Positions may have gaps: a live
// recording's merged tail is deleted where it stood (AppendSegments).
func storedSegments(ctx context.Context, tx *sql.Tx, conversationID string) (map[int]segmentRow, int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT idx, id, text, speaker, speaker_id, is_user, person_id, start_s, end_s,
		translations, speech_profile_processed, stt_provider FROM transcript_segments WHERE conversation_id = ?`, conversationID)
	if err != nil {
		return nil, 0, fmt.Errorf("read stored segments: %w", err)
	}
	defer rows.Close()
	out, last := map[int]segmentRow{}, -1
	for rows.Next() {
		var idx int
		var r segmentRow
		if err := rows.Scan(&idx, &r.id, &r.text, &r.speaker, &r.speakerID, &r.isUser, &r.personID, &r.start, &r.end,
			&r.translations, &r.processed, &r.provider); err != nil {
			return nil, 0, fmt.Errorf("read stored segments: %w", err)
		}
		out[idx], last = r, max(last, idx)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read stored segments: %w", err)
	}
	return out, last, nil
}

// actionItemRow is the part of an action_items row that a save writes.
type actionItemRow struct {
	description          string
	completed            int64
	createdAt, updatedAt string
	dueAt, completedAt   sql.NullString
	locked, deleted      int64
}

func newActionItemRow(a *appliance.ActionItem) actionItemRow {
	return actionItemRow{description: a.Description, completed: int64(boolInt(a.Completed)),
		createdAt: fmtTime(*a.CreatedAt), updatedAt: fmtTime(*a.UpdatedAt),
		dueAt: nullTime(a.DueAt), completedAt: nullTime(a.CompletedAt), locked: int64(boolInt(a.IsLocked))}
}

// storedActionItems reads the user's action items linked to a conversation,
// by id. INDEXED BY, because items added by hand have no conversation: once
// ANALYZE has counted their NULLs as one value matching most rows, the
// planner would rather scan the user's items (TestQueryPlans).
func storedActionItems(ctx context.Context, tx *sql.Tx, userID, conversationID string) (map[string]actionItemRow, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, description, completed, created_at, updated_at, due_at, completed_at,
		is_locked, deleted FROM action_items INDEXED BY action_items_conversation
		WHERE conversation_id = ? AND +user_id = ?`, conversationID, userID)
	if err != nil {
		return nil, fmt.Errorf("read stored action items: %w", err)
	}
	defer rows.Close()
	out := map[string]actionItemRow{}
	for rows.Next() {
		var id string
		var r actionItemRow
		if err := rows.Scan(&id, &r.description, &r.completed, &r.createdAt, &r.updatedAt, &r.dueAt, &r.completedAt,
			&r.locked, &r.deleted); err != nil {
			return nil, fmt.Errorf("read stored action items: %w", err)
		}
		out[id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read stored action items: %w", err)
	}
	return out, nil
}

func nullString(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}

func nullTime(t *time.Time) sql.NullString {
	if t == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: fmtTime(*t), Valid: true}
}
