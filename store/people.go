package store

import (
	"context"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
)

// CreatePerson inserts p.
func (db *DB) CreatePerson(ctx context.Context, p *appliance.Person) error {
	_, err := db.writer.ExecContext(ctx, `INSERT INTO persons (id, user_id, name, created_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.UserID, p.Name, fmtTime(p.CreatedAt))
	return mapErr(err, "person")
}

// Persons lists the user's people, oldest first.
func (db *DB) Persons(ctx context.Context, userID string) ([]*appliance.Person, error) {
	rows, err := db.query(ctx, `SELECT id, user_id, name, created_at FROM persons WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list persons: %w", err)
	}
	return collect(rows, func(s scanner) (*appliance.Person, error) {
		var p appliance.Person
		var created string
		if err := s.Scan(&p.ID, &p.UserID, &p.Name, &created); err != nil {
			return nil, fmt.Errorf("scan person: %w", err)
		}
		var err error
		p.CreatedAt, err = parseTime(created)
		return &p, err
	})
}

// PersonNames maps the user's person ids to names; unknown ids are absent.
func (db *DB) PersonNames(ctx context.Context, userID string, ids []string) (map[string]string, error) {
	return db.names(ctx, "persons", userID, ids)
}

// FolderNames maps the user's folder ids to names; unknown ids are absent.
func (db *DB) FolderNames(ctx context.Context, userID string, ids []string) (map[string]string, error) {
	return db.names(ctx, "folders", userID, ids)
}

// names reads id→name from a per-user table. table is one of our constants,
// never user input.
func (db *DB) names(ctx context.Context, table, userID string, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := []any{userID}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := db.query(ctx, `SELECT id, name FROM `+table+` WHERE user_id = ? AND id IN (`+placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read %s names: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("scan %s name: %w", table, err)
		}
		out[id] = name
	}
	return out, rows.Err()
}
