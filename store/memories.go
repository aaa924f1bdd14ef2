package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

const memoryColumns = `id, user_id, conversation_id, content, category, tags, visibility, created_at, updated_at,
	reviewed, user_review, manually_added, edited, is_locked`

// CreateMemories inserts memories in one transaction.
func (db *DB) CreateMemories(ctx context.Context, ms []*appliance.Memory) error {
	if len(ms) == 0 {
		return nil
	}
	return db.withTx(ctx, func(tx *sql.Tx) error { return insertMemories(ctx, tx, ms) })
}

// Memory returns one of the user's memories.
func (db *DB) Memory(ctx context.Context, userID, id string) (*appliance.Memory, error) {
	return scanMemory(db.queryRow(ctx, `SELECT `+memoryColumns+` FROM memories WHERE id = ? AND user_id = ? AND deleted = 0`, id, userID))
}

// memorySorts maps the reference's sort names to ORDER BY clauses.
var memorySorts = map[string]string{
	"":             "created_at DESC, id DESC",
	"created_desc": "created_at DESC, id DESC",
	"updated_desc": "updated_at DESC, id DESC",
	// scoring: manual first, then interesting/manual before system, newest first.
	"scoring_desc": "manually_added DESC, (category = 'system') ASC, created_at DESC, id DESC",
	"manual_first": "manually_added DESC, created_at DESC, id DESC",
}

// Memories lists the user's memories.
func (db *DB) Memories(ctx context.Context, userID string, f appliance.MemoryFilter) ([]*appliance.Memory, error) {
	order, ok := memorySorts[f.Sort]
	if !ok {
		return nil, appliance.Errorf(appliance.EINVALID, "unknown sort %q", f.Sort)
	}
	where, args := []string{"user_id = ?", "deleted = 0"}, []any{userID}
	if len(f.Categories) > 0 {
		where = append(where, "category IN ("+placeholders(len(f.Categories))+")")
		for _, c := range f.Categories {
			args = append(args, c)
		}
	}
	if f.Reviewed != nil {
		where, args = append(where, "reviewed = ?"), append(args, boolInt(*f.Reviewed))
	}
	if f.ManuallyAdded != nil {
		where, args = append(where, "manually_added = ?"), append(args, boolInt(*f.ManuallyAdded))
	}
	if f.UpdatedAfter != nil {
		where, args = append(where, "updated_at > ?"), append(args, fmtTime(*f.UpdatedAfter))
	}
	args = append(args, limitOr(f.Limit, 25), max(f.Offset, 0))
	rows, err := db.query(ctx, `SELECT `+memoryColumns+` FROM memories WHERE `+strings.Join(where, " AND ")+
		` ORDER BY `+order+` LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("list memories: %w", err)
	}
	return collect(rows, scanMemory)
}

// MemoriesByID returns the user's memories among ids, keyed by id.
func (db *DB) MemoriesByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.Memory, error) {
	out := map[string]*appliance.Memory{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.query(ctx, `SELECT `+memoryColumns+` FROM memories WHERE +user_id = ? AND +deleted = 0 AND id IN (`+
		placeholders(len(ids))+`)`, append([]any{userID}, anys(ids)...)...)
	if err != nil {
		return nil, fmt.Errorf("memories by id: %w", err)
	}
	ms, err := collect(rows, scanMemory)
	for _, m := range ms {
		out[m.ID] = m
	}
	return out, err
}

// UpdateMemory writes m's mutable fields.
func (db *DB) UpdateMemory(ctx context.Context, m *appliance.Memory) error {
	tags, err := json.Marshal(nonNil(m.Tags))
	if err != nil {
		return fmt.Errorf("encode tags: %w", err)
	}
	res, err := db.writer.ExecContext(ctx, `UPDATE memories SET content = ?, category = ?, tags = ?, visibility = ?,
		updated_at = ?, reviewed = ?, user_review = ?, edited = ?, is_locked = ?
		WHERE id = ? AND user_id = ? AND deleted = 0`,
		m.Content, m.Category, string(tags), string(m.Visibility), fmtTime(m.UpdatedAt), boolInt(m.Reviewed),
		nullBool(m.UserReview), boolInt(m.Edited), boolInt(m.IsLocked), m.ID, m.UserID)
	return affected(res, err, "Memory not found")
}

// DeleteMemory soft-deletes one memory.
func (db *DB) DeleteMemory(ctx context.Context, userID, id string) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE memories SET deleted = 1, updated_at = ? WHERE id = ? AND user_id = ? AND deleted = 0`,
		fmtTime(db.Now()), id, userID)
	return affected(res, err, "Memory not found")
}

func scanMemory(s scanner) (*appliance.Memory, error) {
	var m appliance.Memory
	var conv sql.NullString
	var tags, visibility, created, updated string
	var reviewed, manual, edited, locked int
	var ur sql.NullInt64
	if err := s.Scan(&m.ID, &m.UserID, &conv, &m.Content, &m.Category, &tags, &visibility, &created, &updated,
		&reviewed, &ur, &manual, &edited, &locked); err != nil {
		return nil, mapErr(err, "Memory")
	}
	if err := json.Unmarshal([]byte(tags), &m.Tags); err != nil {
		return nil, fmt.Errorf("decode tags: %w", err)
	}
	var err error
	if m.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if m.UpdatedAt, err = parseTime(updated); err != nil {
		return nil, err
	}
	m.ConversationID = nullStr(conv)
	m.Visibility = appliance.Visibility(visibility)
	m.Reviewed, m.ManuallyAdded, m.Edited, m.IsLocked = reviewed != 0, manual != 0, edited != 0, locked != 0
	if ur.Valid {
		b := ur.Int64 != 0
		m.UserReview = &b
	}
	return &m, nil
}

// collect scans every row with scan.
func collect[T any](rows *sql.Rows, scan func(scanner) (*T, error)) ([]*T, error) {
	defer rows.Close()
	out := []*T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// affected turns an UPDATE/DELETE result into ENOTFOUND when no row matched.
func affected(res sql.Result, err error, notFound string) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return appliance.Errorf(appliance.ENOTFOUND, "%s", notFound)
	}
	return nil
}

func nullBool(b *bool) any {
	if b == nil {
		return nil
	}
	return boolInt(*b)
}

func limitOr(limit, def int) int {
	if limit <= 0 {
		return def
	}
	return limit
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
