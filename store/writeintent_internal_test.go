package store

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"
)

// TestAnnouncedWritesShareACommit: two announced writes form one batch
// (one transaction) though the second comes after the writer took the
// first, and a write with
// nothing announced, or after an announcement was given up, is not held.
// The batch is held up to an hour here, so a wrong wait hangs the test
// instead of passing slowly.
func TestAnnouncedWritesShareACommit(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.group.gather = time.Hour

	write := func(ctx context.Context, intent *writeIntent) *sql.Tx {
		var in *sql.Tx
		err := db.withGroupTxIntent(ctx, intent, func(tx *sql.Tx) error {
			in = tx
			_, err := tx.ExecContext(ctx, `SELECT 1`)
			return err
		})
		if err != nil {
			t.Error(err)
		}
		return in
	}

	ctxA, doneA := db.ExpectWrite(ctx)
	ctxB, doneB := db.ExpectWrite(ctx)
	txs := make([]*sql.Tx, 2)
	var wg sync.WaitGroup
	wg.Go(func() { txs[0] = write(ctxA, intentOf(ctxA)) })
	// B only once the writer has taken A: without the announcement A
	// would have been committed alone.
	for db.group.expected.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	txs[1] = write(ctxB, intentOf(ctxB))
	wg.Wait()
	doneA()
	doneB()
	if txs[0] == nil || txs[0] != txs[1] {
		t.Errorf("announced writes ran in transactions %p and %p, want one", txs[0], txs[1])
	}
	if n := db.group.expected.Load(); n != 0 {
		t.Errorf("after both writes %d announced saves still expected", n)
	}

	// Nothing announced: a lone write commits at once.
	write(ctx, nil)

	// Announced, then given up without a write: not waited for.
	_, doneC := db.ExpectWrite(ctx)
	doneC()
	doneC() // a second call changes nothing
	write(ctx, nil)
	if n := db.group.expected.Load(); n != 0 {
		t.Errorf("after a given-up announcement %d saves still expected", n)
	}
}
