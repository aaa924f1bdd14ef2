package store

import "context"

// ExecRaw runs a statement on the writer (tests only), to plant rows that
// the store's own methods would never write.
func (db *DB) ExecRaw(ctx context.Context, q string, args ...any) error {
	_, err := db.writer.ExecContext(ctx, q, args...)
	return err
}
