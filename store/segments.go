package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
)

// AssignSpeaker gives a conversation's segments a person and keeps the
// assignment. The owner (appliance.SelfPersonID) makes the segments
// is_user; any other person id must be one of the user's people, or is
// created under the name given. It returns how many segments changed.
func (db *DB) AssignSpeaker(ctx context.Context, a appliance.SpeakerAssignment) (int, error) {
	changed := 0
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		if err := liveConversation(ctx, tx, a.UserID, a.ConversationID); err != nil {
			return err
		}
		var person any // NULL for the owner
		isUser := 1
		if !a.Self() {
			person, isUser = a.PersonID, 0
			if err := ensurePerson(ctx, tx, a); err != nil {
				return err
			}
		}
		for _, sid := range a.SegmentIDs {
			res, err := tx.ExecContext(ctx, `UPDATE transcript_segments SET person_id = ?, is_user = ?
				WHERE conversation_id = ? AND id = ?`, person, isUser, a.ConversationID, sid)
			if err != nil {
				return fmt.Errorf("assign segment %s: %w", sid, err)
			}
			n, _ := res.RowsAffected()
			changed += int(n)
		}
		ids, err := json.Marshal(a.SegmentIDs)
		if err != nil {
			return fmt.Errorf("encode segment ids: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO speaker_assignments
			(user_id, conversation_id, speaker_id, person_id, person_name, segment_ids, created_at) VALUES (?,?,?,?,?,?,?)`,
			a.UserID, a.ConversationID, a.SpeakerID, a.PersonID, a.PersonName, string(ids), fmtTime(a.CreatedAt))
		if err != nil {
			return fmt.Errorf("keep speaker assignment: %w", err)
		}
		return nil
	})
	return changed, err
}

// SpeakerAssignments lists a conversation's assignments, oldest first.
func (db *DB) SpeakerAssignments(ctx context.Context, userID, convID string) ([]*appliance.SpeakerAssignment, error) {
	rows, err := db.query(ctx, `SELECT speaker_id, person_id, person_name, segment_ids, created_at FROM speaker_assignments
		WHERE user_id = ? AND conversation_id = ? ORDER BY id`, userID, convID)
	if err != nil {
		return nil, fmt.Errorf("list speaker assignments: %w", err)
	}
	return collect(rows, func(s scanner) (*appliance.SpeakerAssignment, error) {
		a := &appliance.SpeakerAssignment{UserID: userID, ConversationID: convID}
		var ids, created string
		if err := s.Scan(&a.SpeakerID, &a.PersonID, &a.PersonName, &ids, &created); err != nil {
			return a, fmt.Errorf("scan speaker assignment: %w", err)
		}
		if err := json.Unmarshal([]byte(ids), &a.SegmentIDs); err != nil {
			return a, fmt.Errorf("decode segment ids: %w", err)
		}
		var err error
		a.CreatedAt, err = parseTime(created)
		return a, err
	})
}

// ensurePerson checks that the assignment's person is the user's, creating
// it when the client named a person the appliance has not met.
func ensurePerson(ctx context.Context, tx *sql.Tx, a appliance.SpeakerAssignment) error {
	var owner string
	err := tx.QueryRowContext(ctx, `SELECT user_id FROM persons WHERE id = ?`, a.PersonID).Scan(&owner)
	switch {
	case err == sql.ErrNoRows:
		if a.PersonName == "" {
			return appliance.Errorf(appliance.ENOTFOUND, "Person not found")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO persons (id, user_id, name, created_at) VALUES (?, ?, ?, ?)`,
			a.PersonID, a.UserID, a.PersonName, fmtTime(a.CreatedAt))
		return mapErr(err, "person")
	case err != nil:
		return fmt.Errorf("read person: %w", err)
	case owner != a.UserID:
		// Another user's person id is as unknown here as a made-up one.
		return appliance.Errorf(appliance.ENOTFOUND, "Person not found")
	}
	return nil
}

// SetSegmentTranslations stores translations of a conversation's segments,
// by segment id; a segment no longer there (merged away) is skipped.
func (db *DB) SetSegmentTranslations(ctx context.Context, userID, convID string, tr map[string][]appliance.Translation) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if err := liveConversation(ctx, tx, userID, convID); err != nil {
			return err
		}
		for sid, ts := range tr {
			b, err := json.Marshal(nonNil(ts))
			if err != nil {
				return fmt.Errorf("encode translations: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE transcript_segments SET translations = ? WHERE conversation_id = ? AND id = ?`,
				string(b), convID, sid); err != nil {
				return fmt.Errorf("store translations of %s: %w", sid, err)
			}
		}
		return nil
	})
}

// AddPhoto attaches a photo to an in_progress recording. A recording that
// has ended is ECONFLICT: the photo belongs to the next one.
func (db *DB) AddPhoto(ctx context.Context, userID, convID string, p appliance.Photo) error {
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode photo: %w", err)
	}
	return db.withTx(ctx, func(tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM conversations WHERE id = ? AND user_id = ? AND deleted = 0`,
			convID, userID).Scan(&status)
		if err == sql.ErrNoRows {
			return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
		} else if err != nil {
			return fmt.Errorf("read conversation: %w", err)
		}
		if status != string(appliance.StatusInProgress) {
			return appliance.Errorf(appliance.ECONFLICT, "Conversation is %s, not in progress", status)
		}
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET photos = json_insert(photos, '$[#]', json(?)), updated_at = ? WHERE id = ?`,
			string(b), fmtTime(db.Now()), convID)
		if err != nil {
			return fmt.Errorf("add photo: %w", err)
		}
		return nil
	})
}

// liveConversation checks that a conversation is the user's and not deleted.
func liveConversation(ctx context.Context, tx *sql.Tx, userID, convID string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM conversations WHERE id = ? AND user_id = ? AND deleted = 0`, convID, userID).Scan(&one)
	if err == sql.ErrNoRows {
		return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
	} else if err != nil {
		return fmt.Errorf("read conversation: %w", err)
	}
	return nil
}

// segmentInsert is the head of a segment insert; a row's values are
// segmentRow.args followed by the conversation and the position.
const segmentInsert = `INSERT INTO transcript_segments (id, text, speaker, speaker_id, is_user, person_id, start_s, end_s, translations,
	speech_profile_processed, stt_provider, conversation_id, idx)`

const segmentInsertColumns = 13

// insertSegmentRows inserts segment rows, segmentInsertColumns values each.
func insertSegmentRows(ctx context.Context, tx *sql.Tx, args []any) error {
	return insertRows(ctx, tx, segmentInsert, segmentInsertColumns, args)
}
