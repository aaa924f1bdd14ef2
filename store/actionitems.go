package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

const actionItemColumns = `id, user_id, conversation_id, description, completed, created_at, updated_at, due_at, completed_at, is_locked`

// CreateActionItems inserts items in one transaction.
func (db *DB) CreateActionItems(ctx context.Context, items []*appliance.ActionItem) error {
	if len(items) == 0 {
		return nil
	}
	return db.withTx(ctx, func(tx *sql.Tx) error {
		// Exec, not a prepared statement: see multirow.go.
		for _, a := range items {
			if _, err := tx.ExecContext(ctx, `INSERT INTO action_items (`+actionItemColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?)`,
				a.ID, a.UserID, a.ConversationID, a.Description, boolInt(a.Completed),
				fmtTimePtr(a.CreatedAt), fmtTimePtr(a.UpdatedAt), fmtTimePtr(a.DueAt), fmtTimePtr(a.CompletedAt), boolInt(a.IsLocked)); err != nil {
				return mapErr(err, "action item")
			}
		}
		return nil
	})
}

// ActionItem returns one of the user's action items.
func (db *DB) ActionItem(ctx context.Context, userID, id string) (*appliance.ActionItem, error) {
	return scanActionItem(db.queryRow(ctx, `SELECT `+actionItemColumns+` FROM action_items WHERE id = ? AND user_id = ? AND deleted = 0`, id, userID))
}

// ActionItems lists the user's action items, newest first.
func (db *DB) ActionItems(ctx context.Context, userID string, f appliance.ActionItemFilter) ([]*appliance.ActionItem, error) {
	where, args := []string{"user_id = ?", "deleted = 0"}, []any{userID}
	if f.ConversationID != nil {
		where, args = append(where, "conversation_id = ?"), append(args, *f.ConversationID)
	}
	if f.Completed != nil {
		where, args = append(where, "completed = ?"), append(args, boolInt(*f.Completed))
	}
	if !f.IncludeLocked {
		where = append(where, "is_locked = 0")
	}
	where, args = timeBound(where, args, "created_at >= ?", f.StartDate)
	where, args = timeBound(where, args, "created_at <= ?", f.EndDate)
	where, args = timeBound(where, args, "due_at >= ?", f.DueStart)
	where, args = timeBound(where, args, "due_at <= ?", f.DueEnd)
	args = append(args, limitOr(f.Limit, 100), max(f.Offset, 0))
	rows, err := db.query(ctx, `SELECT `+actionItemColumns+` FROM action_items WHERE `+strings.Join(where, " AND ")+
		` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("list action items: %w", err)
	}
	return collect(rows, scanActionItem)
}

// ActionItemsByID returns the user's action items among ids, keyed by id.
func (db *DB) ActionItemsByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.ActionItem, error) {
	out := map[string]*appliance.ActionItem{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.query(ctx, `SELECT `+actionItemColumns+` FROM action_items WHERE +user_id = ? AND +deleted = 0 AND id IN (`+
		placeholders(len(ids))+`)`, append([]any{userID}, anys(ids)...)...)
	if err != nil {
		return nil, fmt.Errorf("action items by id: %w", err)
	}
	items, err := collect(rows, scanActionItem)
	for _, a := range items {
		out[a.ID] = a
	}
	return out, err
}

// UpdateActionItem writes a's mutable fields.
func (db *DB) UpdateActionItem(ctx context.Context, a *appliance.ActionItem) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE action_items SET description = ?, completed = ?, updated_at = ?, due_at = ?,
		completed_at = ?, is_locked = ? WHERE id = ? AND user_id = ? AND deleted = 0`,
		a.Description, boolInt(a.Completed), fmtTimePtr(a.UpdatedAt), fmtTimePtr(a.DueAt), fmtTimePtr(a.CompletedAt),
		boolInt(a.IsLocked), a.ID, a.UserID)
	return affected(res, err, "Action item not found")
}

// DeleteActionItem soft-deletes one action item.
func (db *DB) DeleteActionItem(ctx context.Context, userID, id string) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE action_items SET deleted = 1, updated_at = ? WHERE id = ? AND user_id = ? AND deleted = 0`,
		fmtTime(db.Now()), id, userID)
	return affected(res, err, "Action item not found")
}

// timeBound adds a time condition when t is set.
func timeBound(where []string, args []any, cond string, t *time.Time) ([]string, []any) {
	if t == nil {
		return where, args
	}
	return append(where, cond), append(args, fmtTime(*t))
}

func scanActionItem(s scanner) (*appliance.ActionItem, error) {
	var a appliance.ActionItem
	var conv, due, completedAt sql.NullString
	var created, updated string
	var completed, locked int
	if err := s.Scan(&a.ID, &a.UserID, &conv, &a.Description, &completed, &created, &updated, &due, &completedAt, &locked); err != nil {
		return nil, mapErr(err, "Action item")
	}
	ct, err := parseTime(created)
	if err != nil {
		return nil, err
	}
	ut, err := parseTime(updated)
	if err != nil {
		return nil, err
	}
	a.CreatedAt, a.UpdatedAt = &ct, &ut
	if a.DueAt, err = parseTimePtr(due); err != nil {
		return nil, err
	}
	if a.CompletedAt, err = parseTimePtr(completedAt); err != nil {
		return nil, err
	}
	a.ConversationID = nullStr(conv)
	a.Completed, a.IsLocked = completed != 0, locked != 0
	return &a, nil
}
