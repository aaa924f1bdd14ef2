package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CountUserItems counts a user's conversations and memories as their lists
// show them: not deleted, and for conversations not discarded (locked ones
// count: they are the owner's, only hidden from developer keys). Memories
// are counted on their list index alone; conversations need their rows
// for discarded, which the planner reaches through the user's list index
// or, when one user owns every row, by a scan that reads the same rows.
func (db *DB) CountUserItems(ctx context.Context, userID string) (conversations, memories int, err error) {
	err = db.queryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM conversations WHERE user_id = ? AND deleted = 0 AND discarded = 0),
		(SELECT COUNT(*) FROM memories WHERE user_id = ? AND deleted = 0)`, userID, userID).Scan(&conversations, &memories)
	if err != nil {
		return 0, 0, fmt.Errorf("count items: %w", err)
	}
	return conversations, memories, nil
}

// DatabaseBytes is the database's size on disk: the file and its
// write-ahead log, which holds recent writes until a checkpoint.
func (db *DB) DatabaseBytes() (int64, error) {
	var total int64
	for _, p := range []string{db.path, db.path + "-wal"} {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) && p != db.path {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("database size: %w", err)
		}
		total += st.Size()
	}
	return total, nil
}
