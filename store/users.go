package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// CreateUser inserts u with the default folders every user starts with.
func (db *DB) CreateUser(ctx context.Context, u *appliance.User) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, name, time_zone, created_at) VALUES (?, ?, ?, ?)`,
			u.ID, u.Name, u.TimeZone, fmtTime(u.CreatedAt)); err != nil {
			return mapErr(err, "user")
		}
		for _, f := range appliance.NewDefaultFolders(u.ID, u.CreatedAt) {
			if err := insertFolder(ctx, tx, f); err != nil {
				return err
			}
		}
		return nil
	})
}

// User returns the user with id. A user read in the last recentTTL comes
// from memory (recent.go).
func (db *DB) User(ctx context.Context, id string) (*appliance.User, error) {
	ok := db.recentChecked()
	u, gen := db.users.get(id)
	if u != nil && ok {
		return u, nil
	}
	row := db.queryRow(ctx, `SELECT id, name, time_zone, created_at FROM users WHERE id = ?`, id)
	u, err := scanUser(row)
	if err != nil {
		return nil, err
	}
	if ok {
		db.users.put(id, u, gen)
	}
	return u, nil
}

// Users returns every user, oldest first.
func (db *DB) Users(ctx context.Context) ([]*appliance.User, error) {
	rows, err := db.query(ctx, `SELECT id, name, time_zone, created_at FROM users ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	var us []*appliance.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		us = append(us, u)
	}
	return us, rows.Err()
}

type scanner interface{ Scan(dest ...any) error }

func scanUser(s scanner) (*appliance.User, error) {
	var u appliance.User
	var created string
	if err := s.Scan(&u.ID, &u.Name, &u.TimeZone, &created); err != nil {
		return nil, mapErr(err, "user")
	}
	var err error
	if u.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	return &u, nil
}

// CreateKey inserts k; k.Hash must already be set.
func (db *DB) CreateKey(ctx context.Context, k *appliance.Key) error {
	scopes, err := json.Marshal(k.Scopes)
	if err != nil {
		return fmt.Errorf("encode scopes: %w", err)
	}
	_, err = db.writer.ExecContext(ctx, `INSERT INTO api_keys (id, user_id, kind, name, hash, display, scopes, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.UserID, string(k.Kind), k.Name, k.Hash, k.Display, string(scopes), fmtTime(k.CreatedAt))
	return mapErr(err, "key")
}

const keyColumns = `id, user_id, kind, name, hash, display, scopes, created_at, last_used_at, revoked_at`

// KeyByHash returns the key whose secret hashes to hash. A key read in
// the last recentTTL comes from memory (recent.go), so its LastUsedAt may
// be that much behind.
func (db *DB) KeyByHash(ctx context.Context, hash string) (*appliance.Key, error) {
	ok := db.recentChecked()
	k, gen := db.keys.get(hash)
	if k != nil && ok {
		return k, nil
	}
	row := db.queryRow(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE hash = ?`, hash)
	k, err := scanKey(row)
	if err != nil {
		return nil, err
	}
	if ok {
		db.keys.put(hash, k, gen)
	}
	return k, nil
}

// Keys lists a user's keys, newest first, revoked ones included.
func (db *DB) Keys(ctx context.Context, userID string) ([]*appliance.Key, error) {
	rows, err := db.query(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE user_id = ? ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	var ks []*appliance.Key
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, err
		}
		ks = append(ks, k)
	}
	return ks, rows.Err()
}

// RevokeKey marks the user's key revoked; revoking twice keeps the first time.
func (db *DB) RevokeKey(ctx context.Context, userID, keyID string, at time.Time) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND user_id = ?`,
		fmtTime(at), keyID, userID)
	// After the write, so that no read begun before it stays cached.
	db.signalCredentialsChanged()
	if err != nil {
		return fmt.Errorf("revoke key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return appliance.Errorf(appliance.ENOTFOUND, "key %s not found", keyID)
	}
	return nil
}

// TouchKey records the time of a key's latest use.
func (db *DB) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	_, err := db.writer.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?`, fmtTime(at), keyID)
	if err != nil {
		return fmt.Errorf("touch key: %w", err)
	}
	return nil
}

func scanKey(s scanner) (*appliance.Key, error) {
	var k appliance.Key
	var kind, scopes, created string
	var lastUsed, revoked sql.NullString
	if err := s.Scan(&k.ID, &k.UserID, &kind, &k.Name, &k.Hash, &k.Display, &scopes, &created, &lastUsed, &revoked); err != nil {
		return nil, mapErr(err, "key")
	}
	k.Kind = appliance.KeyKind(kind)
	if err := json.Unmarshal([]byte(scopes), &k.Scopes); err != nil {
		return nil, fmt.Errorf("decode scopes of key %s: %w", k.ID, err)
	}
	var err error
	if k.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if k.LastUsedAt, err = parseTimePtr(lastUsed); err != nil {
		return nil, err
	}
	if k.RevokedAt, err = parseTimePtr(revoked); err != nil {
		return nil, err
	}
	return &k, nil
}
