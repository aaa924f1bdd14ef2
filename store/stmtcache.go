package store

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStmts bounds the statement cache. Queries are built from our own
// constants, and the variable parts (IN lists up to a page) give a few dozen
// distinct texts at most; anything beyond the bound runs unprepared.
const maxCachedStmts = 256

// stmtCache keeps prepared read statements by SQL text. Preparing a wide
// SELECT costs as much as running it; database/sql re-prepares a cached
// statement on each pooled connection once and reuses it after.
type stmtCache struct {
	mu    sync.Mutex
	db    *sql.DB
	stmts map[string]*sql.Stmt
}

func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	if len(c.stmts) >= maxCachedStmts {
		return nil, nil
	}
	s, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = s
	return s, nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.stmts {
		s.Close()
	}
	c.stmts = nil
}

// query runs a read on the read pool through the statement cache.
func (db *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := db.reads.get(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return db.reader.QueryContext(ctx, query, args...)
	}
	return s.QueryContext(ctx, args...)
}

// queryRow is query for one row; its error surfaces at Scan, as with sql.DB.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := db.reads.get(ctx, query)
	if err != nil || s == nil {
		// An unpreparable query fails the same way unprepared, with its error.
		return db.reader.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}
