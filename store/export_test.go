package store

import "context"

// QueryString runs a one-value query on the read pool (tests only).
func (db *DB) QueryString(ctx context.Context, q string) (string, error) {
	var s string
	err := db.reader.QueryRowContext(ctx, q).Scan(&s)
	return s, err
}
