package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
)

// BindFirebase binds a Firebase uid to a user. Binding it again to the same
// user changes nothing; a uid bound to another user is ECONFLICT, an unknown
// user ENOTFOUND.
func (db *DB) BindFirebase(ctx context.Context, a appliance.FirebaseAccount) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		var owner string
		err := tx.QueryRowContext(ctx, `SELECT user_id FROM firebase_accounts WHERE firebase_uid = ?`, a.UID).Scan(&owner)
		switch {
		case err == nil && owner == a.UserID:
			return nil
		case err == nil:
			return appliance.Errorf(appliance.ECONFLICT, "Firebase uid %s is bound to another user (%s)", a.UID, owner)
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("read firebase binding: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO firebase_accounts (firebase_uid, user_id, created_at)
			SELECT ?, id, ? FROM users WHERE id = ?`, a.UID, fmtTime(a.CreatedAt), a.UserID)
		if err != nil {
			return mapErr(err, "firebase binding")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return appliance.Errorf(appliance.ENOTFOUND, "User not found")
		}
		return nil
	})
}

// UnbindFirebase removes a Firebase uid's binding; with userID set, only
// when it is bound to that user. Nothing to remove is ENOTFOUND.
func (db *DB) UnbindFirebase(ctx context.Context, userID, firebaseUID string) error {
	res, err := db.writer.ExecContext(ctx, `DELETE FROM firebase_accounts WHERE firebase_uid = ? AND (? = '' OR user_id = ?)`,
		firebaseUID, userID, userID)
	if err != nil {
		return fmt.Errorf("unbind firebase uid: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return appliance.Errorf(appliance.ENOTFOUND, "Firebase uid %s is not bound", firebaseUID)
	}
	return nil
}

// FirebaseUser returns the id of the user a Firebase uid is bound to;
// ENOTFOUND when it is bound to none.
func (db *DB) FirebaseUser(ctx context.Context, firebaseUID string) (string, error) {
	var userID string
	err := db.queryRow(ctx, `SELECT user_id FROM firebase_accounts WHERE firebase_uid = ?`, firebaseUID).Scan(&userID)
	if err != nil {
		return "", mapErr(err, "firebase binding")
	}
	return userID, nil
}

// FirebaseAccounts lists every binding, by user then age.
func (db *DB) FirebaseAccounts(ctx context.Context) ([]appliance.FirebaseAccount, error) {
	rows, err := db.query(ctx, `SELECT firebase_uid, user_id, created_at FROM firebase_accounts ORDER BY user_id, created_at, firebase_uid`)
	if err != nil {
		return nil, fmt.Errorf("list firebase bindings: %w", err)
	}
	defer rows.Close()
	var out []appliance.FirebaseAccount
	for rows.Next() {
		var a appliance.FirebaseAccount
		var created string
		if err := rows.Scan(&a.UID, &a.UserID, &created); err != nil {
			return nil, fmt.Errorf("scan firebase binding: %w", err)
		}
		if a.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
