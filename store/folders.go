package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

const folderColumns = `id, user_id, name, description, color, is_default, created_at, icon, position, is_system, category_mapping`

// CreateFolder inserts f after the user's other folders (f.Order is set).
func (db *DB) CreateFolder(ctx context.Context, f *appliance.Folder) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(position) + 1, 0) FROM folders WHERE user_id = ?`, f.UserID).
			Scan(&f.Order); err != nil {
			return fmt.Errorf("folder position: %w", err)
		}
		return insertFolder(ctx, tx, f)
	})
}

func insertFolder(ctx context.Context, tx *sql.Tx, f *appliance.Folder) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO folders (`+folderColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		f.ID, f.UserID, f.Name, f.Description, f.Color, boolInt(f.IsDefault), fmtTime(f.CreatedAt),
		f.Icon, f.Order, boolInt(f.IsSystem), f.CategoryMapping)
	return mapErr(err, "folder")
}

// SystemFolder returns the user's system folder for a folder category
// (appliance.FolderCategory), or ENOTFOUND when the user has none.
func (db *DB) SystemFolder(ctx context.Context, userID, categoryMapping string) (*appliance.Folder, error) {
	return scanFolder(db.queryRow(ctx, `SELECT `+folderColumns+` FROM folders
		WHERE user_id = ? AND is_system = 1 AND category_mapping = ? ORDER BY position LIMIT 1`, userID, categoryMapping))
}

// Folder returns one of the user's folders.
func (db *DB) Folder(ctx context.Context, userID, id string) (*appliance.Folder, error) {
	return scanFolder(db.queryRow(ctx, `SELECT `+folderColumns+` FROM folders WHERE id = ? AND user_id = ?`, id, userID))
}

// Folders lists the user's folders in their order.
func (db *DB) Folders(ctx context.Context, userID string) ([]*appliance.Folder, error) {
	rows, err := db.query(ctx, `SELECT `+folderColumns+` FROM folders WHERE user_id = ? ORDER BY position, created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list folders: %w", err)
	}
	return collect(rows, scanFolder)
}

// UpdateFolder writes f's name, description and color.
func (db *DB) UpdateFolder(ctx context.Context, f *appliance.Folder) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE folders SET name = ?, description = ?, color = ? WHERE id = ? AND user_id = ?`,
		f.Name, f.Description, f.Color, f.ID, f.UserID)
	return affected(res, err, "Folder not found")
}

// DeleteFolder removes a folder; its conversations stay, with no folder.
func (db *DB) DeleteFolder(ctx context.Context, userID, id string) error {
	res, err := db.writer.ExecContext(ctx, `DELETE FROM folders WHERE id = ? AND user_id = ?`, id, userID)
	return affected(res, err, "Folder not found")
}

// SetConversationFolder moves a conversation into a folder (nil: out of any).
func (db *DB) SetConversationFolder(ctx context.Context, userID, conversationID string, folderID *string) error {
	return db.updateConversation(ctx, userID, conversationID, `folder_id = ?`, folderID)
}

func scanFolder(s scanner) (*appliance.Folder, error) {
	var f appliance.Folder
	var created string
	var isDefault, isSystem int
	if err := s.Scan(&f.ID, &f.UserID, &f.Name, &f.Description, &f.Color, &isDefault, &created,
		&f.Icon, &f.Order, &isSystem, &f.CategoryMapping); err != nil {
		return nil, mapErr(err, "Folder")
	}
	f.IsDefault, f.IsSystem = isDefault != 0, isSystem != 0
	var err error
	f.CreatedAt, err = parseTime(created)
	return &f, err
}

const goalColumns = `id, user_id, title, goal_type, target_value, current_value, min_value, max_value, unit, is_active, created_at, updated_at`

// CreateGoal inserts g and keeps at most MaxActiveGoals active, deactivating the oldest.
func (db *DB) CreateGoal(ctx context.Context, g *appliance.Goal) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO goals (`+goalColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
			g.ID, g.UserID, g.Title, g.GoalType, g.TargetValue, g.CurrentValue, g.MinValue, g.MaxValue, g.Unit,
			boolInt(g.IsActive), fmtTime(g.CreatedAt), fmtTime(g.UpdatedAt)); err != nil {
			return mapErr(err, "goal")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO goal_history (goal_id, value, recorded_at) VALUES (?, ?, ?)`,
			g.ID, g.CurrentValue, fmtTime(g.CreatedAt)); err != nil {
			return fmt.Errorf("record goal progress: %w", err)
		}
		_, err := tx.ExecContext(ctx, `UPDATE goals SET is_active = 0, updated_at = ? WHERE user_id = ? AND is_active = 1 AND id NOT IN
			(SELECT id FROM goals WHERE user_id = ? AND is_active = 1 ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
			fmtTime(g.CreatedAt), g.UserID, g.UserID, appliance.MaxActiveGoals)
		if err != nil {
			return fmt.Errorf("deactivate old goals: %w", err)
		}
		return nil
	})
}

// Goal returns one of the user's goals.
func (db *DB) Goal(ctx context.Context, userID, id string) (*appliance.Goal, error) {
	return scanGoal(db.queryRow(ctx, `SELECT `+goalColumns+` FROM goals WHERE id = ? AND user_id = ?`, id, userID))
}

// Goals lists the user's goals, newest first.
func (db *DB) Goals(ctx context.Context, userID string, includeInactive bool, limit int) ([]*appliance.Goal, error) {
	q := `SELECT ` + goalColumns + ` FROM goals WHERE user_id = ?`
	if !includeInactive {
		q += ` AND is_active = 1`
	}
	rows, err := db.query(ctx, q+` ORDER BY created_at DESC, id LIMIT ?`, userID, limitOr(limit, 10))
	if err != nil {
		return nil, fmt.Errorf("list goals: %w", err)
	}
	return collect(rows, scanGoal)
}

// UpdateGoal writes g; a changed current value is recorded in the history.
func (db *DB) UpdateGoal(ctx context.Context, g *appliance.Goal) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		var prev float64
		if err := tx.QueryRowContext(ctx, `SELECT current_value FROM goals WHERE id = ? AND user_id = ?`, g.ID, g.UserID).Scan(&prev); err != nil {
			return mapErr(err, "Goal")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE goals SET title = ?, target_value = ?, current_value = ?, min_value = ?, max_value = ?,
			unit = ?, is_active = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
			g.Title, g.TargetValue, g.CurrentValue, g.MinValue, g.MaxValue, g.Unit, boolInt(g.IsActive), fmtTime(g.UpdatedAt),
			g.ID, g.UserID); err != nil {
			return fmt.Errorf("update goal: %w", err)
		}
		if prev != g.CurrentValue {
			if _, err := tx.ExecContext(ctx, `INSERT INTO goal_history (goal_id, value, recorded_at) VALUES (?, ?, ?)`,
				g.ID, g.CurrentValue, fmtTime(g.UpdatedAt)); err != nil {
				return fmt.Errorf("record goal progress: %w", err)
			}
		}
		return nil
	})
}

// GoalHistory returns a goal's recorded values since a time, oldest first.
func (db *DB) GoalHistory(ctx context.Context, userID, id string, since time.Time) ([]appliance.GoalProgress, error) {
	if _, err := db.Goal(ctx, userID, id); err != nil {
		return nil, err
	}
	rows, err := db.query(ctx, `SELECT value, recorded_at FROM goal_history WHERE goal_id = ? AND recorded_at >= ? ORDER BY recorded_at`,
		id, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("goal history: %w", err)
	}
	defer rows.Close()
	out := []appliance.GoalProgress{}
	for rows.Next() {
		var p appliance.GoalProgress
		var at string
		if err := rows.Scan(&p.Value, &at); err != nil {
			return nil, fmt.Errorf("scan goal history: %w", err)
		}
		if p.RecordedAt, err = parseTime(at); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// DeleteGoal removes a goal and its history.
func (db *DB) DeleteGoal(ctx context.Context, userID, id string) error {
	res, err := db.writer.ExecContext(ctx, `DELETE FROM goals WHERE id = ? AND user_id = ?`, id, userID)
	return affected(res, err, "Goal not found")
}

func scanGoal(s scanner) (*appliance.Goal, error) {
	var g appliance.Goal
	var unit sql.NullString
	var created, updated string
	var active int
	if err := s.Scan(&g.ID, &g.UserID, &g.Title, &g.GoalType, &g.TargetValue, &g.CurrentValue, &g.MinValue, &g.MaxValue,
		&unit, &active, &created, &updated); err != nil {
		return nil, mapErr(err, "Goal")
	}
	g.Unit, g.IsActive = nullStr(unit), active != 0
	var err error
	if g.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	g.UpdatedAt, err = parseTime(updated)
	return &g, err
}
