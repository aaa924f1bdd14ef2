package store

import "context"

// DocsSaying is docsSaying (tests only).
func (db *DB) DocsSaying(ctx context.Context, table, term string) (int64, error) {
	return db.docsSaying(ctx, table, term)
}
