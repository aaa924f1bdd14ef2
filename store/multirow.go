package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// Rows written together go in as one multi-row INSERT, through Exec: the
// driver (mattn/go-sqlite3) keeps the statements that Exec and Query
// compile in a per-connection cache (_stmt_cache_size, store.go), but not
// those of Prepare, which compiles afresh each time, and with them the
// search-index triggers an insert fires. A memory insert prepared per save
// cost more than the rest of the save; a conversation's twelve segments
// in one statement cost the driver one round trip instead of twelve.

// maxInsertRows bounds the rows of one statement, so that the texts (one
// per row count and table) stay few in the connection's statement cache.
const maxInsertRows = 16

// insertTexts holds the statement text of each (head, row count).
var insertTexts sync.Map // insertKey → string

type insertKey struct {
	head string
	n    int
}

// insertRows inserts rows of cols values each, taken in order from args,
// with head ("INSERT INTO t (a, b)") and as few statements as
// maxInsertRows allows.
func insertRows(ctx context.Context, tx *sql.Tx, head string, cols int, args []any) error {
	for len(args) > 0 {
		n := min(len(args)/cols, maxInsertRows)
		if _, err := tx.ExecContext(ctx, insertText(head, cols, n), args[:n*cols]...); err != nil {
			return err
		}
		args = args[n*cols:]
	}
	return nil
}

func insertText(head string, cols, n int) string {
	k := insertKey{head, n}
	if s, ok := insertTexts.Load(k); ok {
		return s.(string)
	}
	row := "(" + placeholders(cols) + ")"
	s := head + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
	insertTexts.Store(k, s)
	return s
}
