package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Setting reads a setting ("" when unset).
func (db *DB) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := db.queryRow(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, nil
}

// SetSetting writes a setting; an empty value removes it.
func (db *DB) SetSetting(ctx context.Context, key, value string) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		var err error
		if value == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM settings WHERE key = ?`, key)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
		}
		if err != nil {
			return fmt.Errorf("write setting %s: %w", key, err)
		}
		return nil
	})
}

// SetConsolePassword stores a user's password hash and ends their other
// sessions (a changed password signs every browser out).
func (db *DB) SetConsolePassword(ctx context.Context, userID, hash string, at time.Time) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO console_passwords (user_id, hash, updated_at)
			SELECT id, ?, ? FROM users WHERE id = ?
			ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`, hash, fmtTime(at), userID)
		if err != nil {
			return fmt.Errorf("store password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return appliance.Errorf(appliance.ENOTFOUND, "User not found")
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM console_sessions WHERE user_id = ?`, userID)
		return err
	})
}

// ConsolePassword returns a user's password hash ("" when none is set).
func (db *DB) ConsolePassword(ctx context.Context, userID string) (string, error) {
	var h string
	err := db.queryRow(ctx, `SELECT hash FROM console_passwords WHERE user_id = ?`, userID).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	return h, nil
}

// HasConsolePasswords reports whether anyone can sign in yet.
func (db *DB) HasConsolePasswords(ctx context.Context) (bool, error) {
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM console_passwords`).Scan(&n); err != nil {
		return false, fmt.Errorf("count passwords: %w", err)
	}
	return n > 0, nil
}

// CreateConsoleSession stores a session by its token's hash.
func (db *DB) CreateConsoleSession(ctx context.Context, s *appliance.ConsoleSession) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		// Expired sessions go as new ones come.
		if _, err := tx.ExecContext(ctx, `DELETE FROM console_sessions WHERE expires_at < ?`, fmtTime(s.CreatedAt)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO console_sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
			s.TokenHash, s.UserID, s.CSRF, fmtTime(s.CreatedAt), fmtTime(s.ExpiresAt))
		if err != nil {
			return fmt.Errorf("store session: %w", err)
		}
		return nil
	})
}

// ConsoleSession finds a live session by its token's hash (ENOTFOUND when
// there is none or it expired).
func (db *DB) ConsoleSession(ctx context.Context, tokenHash string, now time.Time) (*appliance.ConsoleSession, error) {
	s := &appliance.ConsoleSession{TokenHash: tokenHash}
	var created, expires string
	err := db.queryRow(ctx, `SELECT user_id, csrf, created_at, expires_at FROM console_sessions WHERE token_hash = ? AND expires_at > ?`,
		tokenHash, fmtTime(now)).Scan(&s.UserID, &s.CSRF, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "No session")
	}
	if err != nil {
		return nil, fmt.Errorf("read session: %w", err)
	}
	if s.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if s.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, err
	}
	return s, nil
}

// DeleteConsoleSession ends a session.
func (db *DB) DeleteConsoleSession(ctx context.Context, tokenHash string) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM console_sessions WHERE token_hash = ?`, tokenHash)
		return err
	})
}
