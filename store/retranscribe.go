package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
)

// "Transcribe again" jobs (migration 0030) and the one write that replaces
// a conversation's transcript with a new revision.

const retranscribeColumns = `id, user_id, route, conversation_ids, done, failed, status, error, created_at, updated_at`

// CreateRetranscribeJob stores a new job.
func (db *DB) CreateRetranscribeJob(ctx context.Context, j *appliance.RetranscribeJob) error {
	ids, err := json.Marshal(nonNil(j.ConversationIDs))
	if err != nil {
		return fmt.Errorf("encode conversation ids: %w", err)
	}
	_, err = db.writer.ExecContext(context.WithoutCancel(ctx), `INSERT INTO retranscribe_jobs (`+retranscribeColumns+`)
		VALUES (?,?,?,?,?,?,?,?,?,?)`, j.ID, j.UserID, j.Route, string(ids), j.Done, j.Failed, string(j.Status), j.Error,
		fmtTime(j.CreatedAt), fmtTime(j.UpdatedAt))
	if err != nil {
		return fmt.Errorf("create retranscribe job: %w", mapErr(err, "Job"))
	}
	return nil
}

// RetranscribeJob is one of the user's jobs; another user's is ENOTFOUND.
func (db *DB) RetranscribeJob(ctx context.Context, userID, id string) (*appliance.RetranscribeJob, error) {
	row := db.reader.QueryRowContext(ctx, `SELECT `+retranscribeColumns+` FROM retranscribe_jobs WHERE id = ? AND user_id = ?`, id, userID)
	return scanRetranscribeJob(row)
}

// RetranscribeJobs are the user's latest jobs, newest first.
func (db *DB) RetranscribeJobs(ctx context.Context, userID string, limit int) ([]*appliance.RetranscribeJob, error) {
	return db.retranscribeJobs(ctx, `SELECT `+retranscribeColumns+` FROM retranscribe_jobs WHERE user_id = ?
		ORDER BY created_at DESC LIMIT ?`, userID, limit)
}

// OpenRetranscribeJobs are every user's queued or running jobs, oldest
// first: the work a restart resumes.
func (db *DB) OpenRetranscribeJobs(ctx context.Context) ([]*appliance.RetranscribeJob, error) {
	return db.retranscribeJobs(ctx, `SELECT `+retranscribeColumns+` FROM retranscribe_jobs
		WHERE status IN ('queued', 'running') ORDER BY created_at`)
}

func (db *DB) retranscribeJobs(ctx context.Context, q string, args ...any) ([]*appliance.RetranscribeJob, error) {
	rows, err := db.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list retranscribe jobs: %w", err)
	}
	defer rows.Close()
	var out []*appliance.RetranscribeJob
	for rows.Next() {
		j, err := scanRetranscribeJob(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list retranscribe jobs: %w", err)
	}
	return out, nil
}

func scanRetranscribeJob(s scanner) (*appliance.RetranscribeJob, error) {
	var j appliance.RetranscribeJob
	var ids, status, created, updated string
	if err := s.Scan(&j.ID, &j.UserID, &j.Route, &ids, &j.Done, &j.Failed, &status, &j.Error, &created, &updated); err != nil {
		return nil, mapErr(err, "Job")
	}
	if err := json.Unmarshal([]byte(ids), &j.ConversationIDs); err != nil {
		return nil, fmt.Errorf("decode job's conversation ids: %w", err)
	}
	j.Status = appliance.RetranscribeStatus(status)
	var err error
	if j.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if j.UpdatedAt, err = parseTime(updated); err != nil {
		return nil, err
	}
	return &j, nil
}

// SetRetranscribeStatus moves a job from one of the states in from to to,
// with why (for failed); a job in another state is ECONFLICT.
func (db *DB) SetRetranscribeStatus(ctx context.Context, userID, id string, from []appliance.RetranscribeStatus,
	to appliance.RetranscribeStatus, why string) error {
	ctx = context.WithoutCancel(ctx)
	return db.withTx(ctx, func(tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM retranscribe_jobs WHERE id = ? AND user_id = ?`, id, userID).Scan(&status)
		if err != nil {
			return mapErr(err, "Job")
		}
		ok := false
		for _, f := range from {
			ok = ok || string(f) == status
		}
		if !ok {
			return appliance.Errorf(appliance.ECONFLICT, "The job is %s", status)
		}
		_, err = tx.ExecContext(ctx, `UPDATE retranscribe_jobs SET status = ?, error = ?, updated_at = ? WHERE id = ?`,
			string(to), why, fmtTime(db.Now()), id)
		return err
	})
}

// SkipRetranscribe moves a running job past a conversation it could not
// transcribe again (the conversation keeps its transcript): done and
// failed go up by one, if done is still at.
func (db *DB) SkipRetranscribe(ctx context.Context, userID, jobID string, at int, why string) error {
	ctx = context.WithoutCancel(ctx)
	return db.withTx(ctx, func(tx *sql.Tx) error {
		return advanceJob(ctx, tx, userID, jobID, at, why, fmtTime(db.Now()))
	})
}

// advanceJob moves a running job's done from at to at+1 (counting a
// failure when why is set); a job cancelled, or moved on, meanwhile is
// ECONFLICT, which rolls back the transaction it is part of.
func advanceJob(ctx context.Context, tx *sql.Tx, userID, jobID string, at int, why, now string) error {
	failed := 0
	if why != "" {
		failed = 1
	}
	res, err := tx.ExecContext(ctx, `UPDATE retranscribe_jobs SET done = done + 1, failed = failed + ?,
		error = CASE WHEN ? = '' THEN error ELSE ? END, updated_at = ?
		WHERE id = ? AND user_id = ? AND status = 'running' AND done = ?`,
		failed, why, why, now, jobID, userID, at)
	if err != nil {
		return fmt.Errorf("advance retranscribe job: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return appliance.Errorf(appliance.ECONFLICT, "The job was cancelled or moved on")
	}
	return nil
}

// SaveRetranscribed replaces a completed conversation's transcript,
// structure and action items with a new revision, and the memories
// extracted from the previous one (not those the owner added or edited)
// with memories, in one transaction that also moves the job on from at: a
// reader sees the old revision or the new one, never a mix, and a job
// resumed after a crash neither redoes nor skips the conversation.
func (db *DB) SaveRetranscribed(ctx context.Context, jobID string, at int, c *appliance.Conversation, memories []*appliance.Memory) error {
	ctx = context.WithoutCancel(ctx)
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM conversations WHERE id = ? AND user_id = ? AND deleted = 0`,
			c.ID, c.UserID).Scan(&status)
		if err != nil {
			return mapErr(err, "Conversation")
		}
		if status != string(appliance.StatusCompleted) && status != string(appliance.StatusFailed) {
			return appliance.Errorf(appliance.ECONFLICT, "Conversation is %s", status)
		}
		if err := advanceJob(ctx, tx, c.UserID, jobID, at, "", fmtTime(db.Now())); err != nil {
			return err
		}
		if err := writeConversation(ctx, tx, c); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET deleted = 1, updated_at = ?
			WHERE user_id = ? AND conversation_id = ? AND deleted = 0 AND manually_added = 0 AND edited = 0`,
			fmtTime(db.Now()), c.UserID, c.ID); err != nil {
			return fmt.Errorf("drop the previous revision's memories: %w", err)
		}
		return insertMemories(ctx, tx, memories)
	})
	if err != nil {
		return fmt.Errorf("save retranscribed conversation %s: %w", c.ID, err)
	}
	return nil
}

// RecordedConversationIDs are the user's completed conversations, oldest
// first: what "all of a user's" covers (those without kept audio are
// passed over by the job).
func (db *DB) RecordedConversationIDs(ctx context.Context, userID string) ([]string, error) {
	rows, err := db.reader.QueryContext(ctx, `SELECT id FROM conversations WHERE user_id = ? AND deleted = 0
		AND status IN ('completed', 'failed') ORDER BY created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("list conversation ids: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list conversation ids: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
