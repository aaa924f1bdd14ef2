package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// CreateSignInCode stores a one-time code for its user, replacing any
// code the user still had: only the newest invite or reset works.
func (db *DB) CreateSignInCode(ctx context.Context, c *appliance.SignInCode) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM console_codes WHERE user_id = ? OR expires_at < ?`, c.UserID, fmtTime(c.CreatedAt)); err != nil {
			return fmt.Errorf("replace sign-in code: %w", err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO console_codes (code_hash, user_id, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
			c.Hash, c.UserID, string(c.Kind), fmtTime(c.CreatedAt), fmtTime(c.ExpiresAt))
		return mapErr(err, "user")
	})
}

// RedeemSignInCode uses a live code once: the code is deleted, the user's
// password becomes passwordHash (their browsers are signed out) and the
// user's id is returned. ENOTFOUND when no live code has that hash.
func (db *DB) RedeemSignInCode(ctx context.Context, codeHash, passwordHash string, now time.Time) (string, error) {
	var userID string
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `DELETE FROM console_codes WHERE code_hash = ? AND expires_at > ? RETURNING user_id`,
			codeHash, fmtTime(now)).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			return appliance.Errorf(appliance.ENOTFOUND, "No such code")
		}
		if err != nil {
			return fmt.Errorf("redeem sign-in code: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO console_passwords (user_id, hash, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`, userID, passwordHash, fmtTime(now)); err != nil {
			return fmt.Errorf("store password: %w", err)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM console_sessions WHERE user_id = ?`, userID)
		return err
	})
	return userID, err
}

// ClearConsolePassword removes a user's password and signs their browsers
// out (a reset: the old password stops working at once).
func (db *DB) ClearConsolePassword(ctx context.Context, userID string) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM console_passwords WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("clear password: %w", err)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM console_sessions WHERE user_id = ?`, userID)
		return err
	})
}

// Members lists every user with whether they can sign in and when their
// outstanding code expires, oldest first; roles are the caller's to set.
func (db *DB) Members(ctx context.Context, now time.Time) ([]*appliance.Member, error) {
	rows, err := db.query(ctx, `SELECT u.id, u.name, u.created_at, p.user_id IS NOT NULL,
			(SELECT MAX(c.expires_at) FROM console_codes c WHERE c.user_id = u.id AND c.expires_at > ?)
		FROM users u LEFT JOIN console_passwords p ON p.user_id = u.id ORDER BY u.created_at, u.id`, fmtTime(now))
	if err != nil {
		return nil, fmt.Errorf("list members: %w", err)
	}
	defer rows.Close()
	var ms []*appliance.Member
	for rows.Next() {
		m := &appliance.Member{Role: appliance.RoleMember}
		var created string
		var expires sql.NullString
		if err := rows.Scan(&m.ID, &m.Name, &created, &m.CanSignIn, &expires); err != nil {
			return nil, fmt.Errorf("list members: %w", err)
		}
		if m.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if m.CodeExpiresAt, err = parseTimePtr(expires); err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// DeleteUser removes a user and everything of theirs: conversations,
// memories, keys, sessions, voices (the foreign keys cascade; the search
// index's rows go with the records they index).
func (db *DB) DeleteUser(ctx context.Context, userID string) error {
	// Their keys went with them (recent.go).
	defer db.signalCredentialsChanged()
	return db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, userID)
		if err != nil {
			return fmt.Errorf("delete user: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return appliance.Errorf(appliance.ENOTFOUND, "User not found")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_docs WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("delete user's search index: %w", err)
		}
		// The count the cascade's deletes of their action items just bumped
		// (openitems.go): no foreign key, or that bump would fail.
		if _, err := tx.ExecContext(ctx, `DELETE FROM action_item_changes WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("delete user's action item count: %w", err)
		}
		return nil
	})
}

// AuditKept is how many lines the audit trail keeps: years of a
// household's changes, and a bound on what a member repeating a refused
// call can make it hold.
const AuditKept = 10_000

// RecordAudit appends a line to the audit trail, dropping the oldest
// beyond AuditKept.
func (db *DB) RecordAudit(ctx context.Context, e *appliance.AuditEntry) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO audit_log (at, user_id, user_name, action, target, refused) VALUES (?, ?, ?, ?, ?, ?)`,
			fmtTime(e.At), e.UserID, e.UserName, e.Action, e.Target, e.Refused)
		if err != nil {
			return fmt.Errorf("record audit: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("record audit: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM audit_log WHERE id <= ?`, id-AuditKept); err != nil {
			return fmt.Errorf("trim audit: %w", err)
		}
		return nil
	})
}

// AuditLog returns the newest limit lines of the audit trail, newest first.
func (db *DB) AuditLog(ctx context.Context, limit int) ([]*appliance.AuditEntry, error) {
	rows, err := db.query(ctx, `SELECT id, at, user_id, user_name, action, target, refused FROM audit_log ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("read audit: %w", err)
	}
	defer rows.Close()
	out := []*appliance.AuditEntry{}
	for rows.Next() {
		e := &appliance.AuditEntry{}
		var at string
		if err := rows.Scan(&e.ID, &at, &e.UserID, &e.UserName, &e.Action, &e.Target, &e.Refused); err != nil {
			return nil, fmt.Errorf("read audit: %w", err)
		}
		if e.At, err = parseTime(at); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
