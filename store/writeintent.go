package store

import (
	"context"
	"sync/atomic"
	"time"
)

// Write intents let the group commit wait for a write it knows is on its
// way. A create spends most of its time before its save (the pipeline),
// so concurrent creates reached the writer one by one: about 1.05 writes a
// commit at 4 concurrent creates, each paying alone for BEGIN, COMMIT and
// the WAL frames of the pages every create touches. A caller that will
// save announces it first (ExpectWrite); while announced saves are still
// on their way the writer holds a gathering batch open, for at most
// maxGather, so that they share one commit. Nothing waits when no save is
// announced beyond those already taken (one create at a time, the
// indexer's writes), and callers still return only after their commit.

// maxGather bounds how long a batch is held open for announced saves.
const maxGather = 2 * time.Millisecond

// writeIntent is one announced save; taken once its job reaches the
// writer or its caller is done, whichever comes first.
type writeIntent struct {
	taken atomic.Bool
}

type intentKey struct{}

// ExpectWrite announces that the caller will save a processed
// conversation (SaveProcessedFiled) with the returned context. done must
// be called when the caller no longer will (after the save, or on any
// path that skips it).
func (db *DB) ExpectWrite(ctx context.Context) (context.Context, func()) {
	w := &writeIntent{}
	db.group.expected.Add(1)
	return context.WithValue(ctx, intentKey{}, w), func() { db.group.take(w) }
}

// take counts w as arrived (or abandoned), once.
func (g *groupCommit) take(w *writeIntent) {
	if w != nil && w.taken.CompareAndSwap(false, true) {
		g.expected.Add(-1)
	}
}

func intentOf(ctx context.Context) *writeIntent {
	w, _ := ctx.Value(intentKey{}).(*writeIntent)
	return w
}
