package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
)

// Every create whose transcript has tasks compares them with the user's
// newest open action items (the built-in extractor leaves out a task that
// repeats one). Read afresh, that list cost a create more than writing its
// twelve segments: a read connection starts with a cold page cache after
// every write. So the list is kept per user, with the count of changes to
// the user's items it was read at (action_item_changes, migration 0035:
// triggers count every insert, update and delete, whichever process makes
// it), and a create reads only that count while it is unchanged.

// maxOpenLists bounds the users whose list is kept; past it all are
// forgotten and read again.
const maxOpenLists = 256

type openItems struct {
	mu    sync.Mutex
	lists map[openKey]*openList
}

type openKey struct {
	user  string
	limit int
}

// openList is a user's newest open items as read at one count of changes.
type openList struct {
	changes int64
	convs   []string // each item's conversation, "" for none
	texts   []string
}

// OpenActionItemTexts are the descriptions of the user's newest limit open,
// unlocked action items, leaving out those of conversation except (which
// is about to replace its own), in no particular order.
func (db *DB) OpenActionItemTexts(ctx context.Context, userID, except string, limit int) ([]string, error) {
	k := openKey{userID, limitOr(limit, 100)}
	if l := db.open.get(k); l != nil {
		var n int64
		if err := db.queryRow(ctx, `SELECT COALESCE((SELECT n FROM action_item_changes WHERE user_id = ?), 0)`, userID).Scan(&n); err != nil {
			return nil, fmt.Errorf("open action items: %w", err)
		}
		if n == l.changes {
			return l.without(except), nil
		}
	}
	l, err := db.readOpenItems(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("open action items: %w", err)
	}
	db.open.put(k, l)
	return l.without(except), nil
}

// readOpenItems reads the list and its count of changes in one statement,
// so both are of the same snapshot. The items come back as one value (the
// unit separator between items, the record separator between an item's
// conversation and description; either character inside a description is
// replaced by a space, where it can only be noise to the word
// comparison): stepping 200 rows one by one through the driver cost as
// much as SQLite's reading them. Unordered: the caller compares each with
// each. INDEXED BY: the planner prefers action_items_user for its two
// equalities, and that index sends each row to the table.
func (db *DB) readOpenItems(ctx context.Context, k openKey) (*openList, error) {
	l := &openList{}
	var joined sql.NullString
	err := db.queryRow(ctx, `SELECT COALESCE((SELECT n FROM action_item_changes WHERE user_id = ?), 0),
			group_concat(COALESCE(conversation_id, '') || char(30) ||
				replace(replace(description, char(31), ' '), char(30), ' '), char(31))
		FROM (SELECT conversation_id, description, created_at, id FROM action_items INDEXED BY action_items_open
			WHERE user_id = ? AND deleted = 0 AND completed = 0 AND is_locked = 0
			ORDER BY created_at DESC, id DESC LIMIT ?)`, k.user, k.user, k.limit).Scan(&l.changes, &joined)
	if err != nil || !joined.Valid {
		return l, err
	}
	for _, item := range strings.Split(joined.String, "\x1f") {
		conv, text, _ := strings.Cut(item, "\x1e")
		l.convs, l.texts = append(l.convs, conv), append(l.texts, text)
	}
	return l, nil
}

// without is the list's descriptions but those of conversation except, a
// new slice each time (the kept one is shared).
func (l *openList) without(except string) []string {
	out := make([]string, 0, len(l.texts))
	for i, t := range l.texts {
		if except != "" && l.convs[i] == except {
			continue
		}
		out = append(out, t)
	}
	return out
}

func (o *openItems) get(k openKey) *openList {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lists[k]
}

func (o *openItems) put(k openKey, l *openList) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lists == nil || len(o.lists) >= maxOpenLists {
		o.lists = map[openKey]*openList{}
	}
	o.lists[k] = l
}
