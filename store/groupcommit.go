package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit: the lifecycle's writes (processed conversations, appended
// live segments) arrive from many requests at once, and each would pay for
// its own transaction's commit (the WAL append). Writes that are waiting
// when the writer frees up share one transaction instead, each in its own
// savepoint, so one failing write rolls back alone. A caller returns only
// after the shared commit, so durability is exactly as before.

// maxGroup bounds the writes that share one commit.
const maxGroup = 32

var errClosed = errors.New("store closed")

type groupCommit struct {
	once     sync.Once
	jobs     chan *commitJob
	stop     chan struct{}
	done     chan struct{}
	expected atomic.Int64  // announced saves not yet taken (writeintent.go)
	gather   time.Duration // how long a batch waits for them; 0: maxGather
}

type commitJob struct {
	fn     func(tx *sql.Tx) error
	err    chan error
	intent *writeIntent // the announcement this job fulfils, if any
}

// withGroupTx runs fn in a write transaction that it may share with other
// waiting writes, and returns once that transaction has committed (or fn's
// own error, after its part was rolled back).
func (db *DB) withGroupTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return db.withGroupTxIntent(ctx, nil, fn)
}

// withGroupTxIntent is withGroupTx for the write announced as intent.
func (db *DB) withGroupTxIntent(ctx context.Context, intent *writeIntent, fn func(tx *sql.Tx) error) error {
	g := &db.group
	g.once.Do(func() {
		g.jobs, g.stop, g.done = make(chan *commitJob), make(chan struct{}), make(chan struct{})
		go db.groupLoop()
	})
	j := &commitJob{fn: fn, err: make(chan error, 1), intent: intent}
	select {
	case g.jobs <- j:
	case <-ctx.Done():
		return ctx.Err()
	case <-g.stop:
		return errClosed
	}
	// Once taken, the job's fate is its transaction's: wait for it even if
	// ctx ends (its statements observe ctx themselves).
	return <-j.err
}

func (db *DB) groupLoop() {
	g := &db.group
	defer close(g.done)
	for {
		var first *commitJob
		select {
		case first = <-g.jobs:
		case <-g.stop:
			return
		}
		g.take(first.intent)
		batch := []*commitJob{first}
		var held *time.Timer
	gather:
		for len(batch) < maxGroup {
			select {
			case j := <-g.jobs:
				g.take(j.intent)
				batch = append(batch, j)
				continue
			default:
			}
			if g.expected.Load() <= 0 {
				break // nothing announced is still on its way
			}
			if held == nil {
				held = time.NewTimer(cmp.Or(g.gather, maxGather))
			}
			select {
			case j := <-g.jobs:
				g.take(j.intent)
				batch = append(batch, j)
			case <-held.C:
				break gather
			case <-g.stop:
				break gather
			}
		}
		if held != nil {
			held.Stop()
		}
		db.commitGroup(batch)
	}
}

// commitGroup runs a batch in one transaction, each job in a savepoint.
func (db *DB) commitGroup(batch []*commitJob) {
	errs := make([]error, len(batch))
	finish := func(commitErr error) {
		for i, j := range batch {
			if errs[i] == nil {
				errs[i] = commitErr
			}
			j.err <- errs[i]
		}
	}
	tx, err := db.writer.BeginTx(context.Background(), nil)
	if err != nil {
		finish(fmt.Errorf("begin: %w", err))
		return
	}
	ok := 0
	for i, j := range batch {
		if len(batch) == 1 {
			if errs[i] = runJob(j, tx); errs[i] == nil {
				ok++
			}
			continue
		}
		sp := &savepoints[i]
		if _, err := tx.Exec(sp.begin); err != nil {
			errs[i] = fmt.Errorf("savepoint: %w", err)
			continue
		}
		if errs[i] = runJob(j, tx); errs[i] != nil {
			tx.Exec(sp.rollback)
		} else {
			ok++
		}
		tx.Exec(sp.release)
	}
	if ok == 0 {
		tx.Rollback()
		finish(nil)
		return
	}
	if err := tx.Commit(); err != nil {
		for i := range errs {
			errs[i] = nil // nothing of the batch was kept
		}
		finish(fmt.Errorf("commit: %w", err))
		return
	}
	finish(nil)
}

// savepoints are the statements of each job's savepoint in a batch, built
// once rather than three strings a job.
var savepoints = func() (sp [maxGroup]struct{ begin, rollback, release string }) {
	for i := range sp {
		name := fmt.Sprintf("g%d", i)
		sp[i].begin, sp[i].rollback, sp[i].release = "SAVEPOINT "+name, "ROLLBACK TO "+name, "RELEASE "+name
	}
	return sp
}()

// runJob runs one job, turning a panic into its error so that the shared
// transaction and the other jobs survive it.
func runJob(j *commitJob, tx *sql.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write panicked: %v", r)
		}
	}()
	return j.fn(tx)
}

// closeGroup stops the group-commit loop; writes waiting to be taken fail.
func (db *DB) closeGroup() {
	g := &db.group
	g.once.Do(func() { // never started: later writes fail at once
		g.stop, g.done = make(chan struct{}), make(chan struct{})
		close(g.done)
	})
	close(g.stop)
	<-g.done
}
