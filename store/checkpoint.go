package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Checkpoints copy the write-ahead log back into the database file. SQLite
// runs one in the committing connection once the log holds 1,000 pages:
// the writer then copies ~4 MB and syncs the file while every create
// waits behind it. Under a stream of creates that was every tenth of a
// second, and removing it ran creates 15–20 % faster. Here a checkpointer
// with its own connection copies the log in the background (PASSIVE: it
// never blocks the writer or a reader), and the writer's own checkpoint
// is kept only as a backstop for a log the checkpointer could not keep
// short (writerAutoCheckpoint).
//
// A background checkpoint that keeps up leaves the next write free to
// start the log again from its beginning, so the -wal file stays the size
// of a few seconds of writes.

// writerAutoCheckpoint is the log length (pages) at which the writer
// checkpoints in line anyway. A checkpoint started there finds most pages
// already copied; its purpose is to bound the log when readers or a
// constant stream of commits keep the background ones from finishing.
const writerAutoCheckpoint = 4000

// checkpointEvery is how often the checkpointer looks at the log while
// writes arrive; checkpointIdle is how far it backs off when none do.
const (
	checkpointEvery = 100 * time.Millisecond
	checkpointIdle  = 5 * time.Second
)

// writerDriver is the driver of the writer pool: mattn's, with settings
// that mattn's DSN has no key for applied to every connection it opens:
//   - the writer's checkpoint threshold (writerAutoCheckpoint);
//   - temp_store=MEMORY, which keeps savepoint journals in memory. Each
//     write of a group commit runs in a savepoint, and a savepoint journals
//     the pages it changes that earlier writes of the group had already
//     changed; past 64 KiB SQLite spilled that journal to a new temporary
//     file, created, written and deleted about once per group (50 times a
//     second under creates). The journal is bounded by one group's pages.
const writerDriver = "sqlite3_hearth_writer"

var registerWriterDriver sync.Once

func registerWriter() {
	registerWriterDriver.Do(func() {
		sql.Register(writerDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec(fmt.Sprintf("PRAGMA wal_autocheckpoint=%d; PRAGMA temp_store=MEMORY", writerAutoCheckpoint), nil)
			return err
		}})
	})
}

// checkpointer runs background checkpoints until Close.
type checkpointer struct {
	conn *sql.DB
	stop chan struct{}
	done chan struct{}
	// logPages and backfilled are what the last checkpoint reported: the
	// log's length and how much of it is in the database file.
	logPages, backfilled int
}

// startCheckpointer opens the checkpointer's connection and starts it.
func (db *DB) startCheckpointer() error {
	conn, err := sql.Open("sqlite3", "file:"+db.path+"?_busy_timeout=5000&_journal_mode=WAL&_synchronous=NORMAL&_cache_size=-256")
	if err != nil {
		return fmt.Errorf("open checkpointer: %w", err)
	}
	conn.SetMaxOpenConns(1)
	conn.SetConnMaxIdleTime(0)
	db.ckpt = &checkpointer{conn: conn, stop: make(chan struct{}), done: make(chan struct{})}
	go db.ckpt.run(db)
	return nil
}

func (c *checkpointer) run(db *DB) {
	defer close(c.done)
	wait := checkpointEvery
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		busy, err := c.checkpoint()
		switch {
		case err != nil:
			db.log.Warn("background checkpoint", "err", err)
			wait = checkpointIdle
		case busy:
			wait = checkpointEvery
		default:
			wait = min(wait*2, checkpointIdle)
		}
		t.Reset(wait)
	}
}

// checkpoint copies what it can of the log. It reports whether the log
// is busy: pages were written since the last look, or some are left that
// readers still need.
func (c *checkpointer) checkpoint() (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var blocked, logPages, backfilled int
	err := c.conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&blocked, &logPages, &backfilled)
	var serr sqlite3.Error
	if errors.As(err, &serr) && serr.Code == sqlite3.ErrBusy {
		return true, nil // another checkpoint (the writer's, another process's) is running
	}
	if err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	// A log that was started again from its beginning is shorter, or as
	// long but with new pages; either way the counts moved.
	moved := logPages != c.logPages || backfilled != c.backfilled
	c.logPages, c.backfilled = logPages, backfilled
	return moved || backfilled < logPages, nil
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	close(c.stop)
	<-c.done
	return c.conn.Close()
}
