// Package store keeps Hearth's data in one SQLite file (mattn/go-sqlite3 with
// FTS5 compiled in, sqlite-vec loaded on every connection). It implements
// appliance.Store and is the only package that imports database/sql.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	"github.com/mattn/go-sqlite3"

	"github.com/hearth-appliance/hearth/appliance"
)

// FileName is the database file inside the data directory.
const FileName = "hearth.db"

// applicationID marks the file as Hearth's ("HRTH") so other tools can tell.
const applicationID = 0x48525448

var _ appliance.Store = (*DB)(nil)

// Build with -tags sqlite_fts5 (the Makefile does); see buildtag_fts5.go.
var _ = fts5Enabled

// DB is the open database: one writer connection and a small read pool on
// the same WAL-mode file.
type DB struct {
	path   string
	writer *sql.DB
	reader *sql.DB
	reads  *stmtCache
	// vectors is the active embedding space (UseEmbeddingModel).
	vectors vectorIndex
	// bits is the KNN's in-memory copy of the sign bits (knncache.go).
	bits bitCache
	log  *slog.Logger
	// Now is the clock; tests replace it.
	Now func() time.Time
	// group shares commits between concurrent lifecycle writes.
	group groupCommit
	// searches counts the searches running, so that a search among others
	// runs its two retrievers one after the other (Search).
	searches atomic.Int32
	// keys and users keep recently read API keys and users (recent.go).
	keys  recent[appliance.Key]
	users recent[appliance.User]
	// signalSeen is the credentials signal's token when last read
	// (recent.go).
	signalMu   sync.Mutex
	signalSeen []byte
	signalFile *os.File
	// open keeps users' open action items for the create path (openitems.go).
	open openItems
	// terms counts the segments and conversation titles saying each word
	// searched (saidrank.go).
	terms termCounts
	// optimizedAt is when planner statistics were last refreshed (Unix s).
	optimizedAt atomic.Int64
	// ckpt copies the write-ahead log into the file in the background.
	ckpt *checkpointer
	// existed says whether the file held a database when Prepare ran.
	existed bool
	// closeOnce makes Close safe to call again (a deferred Close after an
	// explicit one); closeErr is the first call's result.
	closeOnce sync.Once
	closeErr  error
}

// Option tunes Open.
type Option func(*options)

type options struct {
	readConns int
	logger    *slog.Logger
}

// WithReadConns sets the size of the read pool (default 4).
func WithReadConns(n int) Option { return func(o *options) { o.readConns = n } }

// WithLogger sets the logger for migration messages.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

var registerVec sync.Once

// Open opens (creating if needed) the database in dir and applies pending
// migrations: Prepare, then Ready.
func Open(ctx context.Context, dir string, opts ...Option) (*DB, error) {
	db, err := Prepare(dir, opts...)
	if err != nil {
		return nil, err
	}
	if err := db.Ready(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Prepare makes the data folder and the database's pools without opening a
// connection, so that it costs no SQLite work; Ready, which may run on
// another goroutine, does that work. The server wires its parts to the DB
// while Ready runs and serves once it has returned. Nothing may use the DB
// before Ready has returned nil; Close it in any case.
func Prepare(dir string, opts ...Option) (*DB, error) {
	o := options{readConns: 4, logger: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(&o)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir %q: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	existed, err := privateFiles(path)
	if err != nil {
		return nil, err
	}
	registerWriter()
	writer, err := sql.Open(writerDriver, dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("open %q: %w", path, err)
	}
	// SQLite has one writer at a time; a single connection makes Go queue
	// writers instead of having SQLite bounce them with SQLITE_BUSY.
	writer.SetMaxOpenConns(1)
	writer.SetConnMaxIdleTime(0)

	reader, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("open %q for reading: %w", path, err)
	}
	reader.SetMaxOpenConns(o.readConns)
	reader.SetMaxIdleConns(o.readConns)
	reader.SetConnMaxLifetime(readerLifetime)

	db := &DB{path: path, writer: writer, reader: reader, reads: &stmtCache{db: reader, stmts: map[string]*sql.Stmt{}},
		log: o.logger, Now: time.Now, existed: existed}
	db.keys.clone, db.users.clone = copyKey, copyUser
	return db, nil
}

// Ready opens the connections Prepare did not: it applies pending
// migrations, refreshes planner statistics, starts the checkpointer and
// opens one read connection, whose schema load (about a millisecond for
// this schema, as much as the writer's) the first read would otherwise
// wait for. Call it once.
//
// In a database used before, the read connection opens beside the
// writer's work, on another core. It then holds the statistics of the last
// ANALYZE rather than those the optimize below may refresh after a crash,
// as any read connection does until it is replaced (readerLifetime). In a
// new file it opens last: the writer makes the file a WAL one, and a
// reader opening meanwhile would wait on the busy handler.
func (db *DB) Ready(ctx context.Context) error {
	// sqlite3_auto_extension registers sqlite-vec for every connection opened
	// afterwards, in every pool; it must run before the first connection
	// opens, which is here. It is also SQLite's initialisation.
	registerVec.Do(sqlitevec.Auto)
	if !db.existed {
		if err := db.prepareWriter(ctx); err != nil {
			return err
		}
		return db.warmReader(ctx)
	}
	warmed := make(chan error, 1)
	go func() { warmed <- db.warmReader(ctx) }()
	err := db.prepareWriter(ctx)
	if werr := <-warmed; err == nil {
		err = werr
	}
	return err
}

// Fresh reports whether Prepare found no database in the folder: Ready
// will create the schema.
func (db *DB) Fresh() bool { return !db.existed }

// prepareWriter is the writer's part of Ready.
func (db *DB) prepareWriter(ctx context.Context) error {
	if err := db.migrate(ctx); err != nil {
		return err
	}
	// Statistics before the read connections that open once serving has
	// started load them: without them the planner guesses, and its guesses
	// favour the per-user indexes, which read all of a user's rows to find
	// a few (a new file's migrations ANALYZE it; this refreshes statistics
	// that a crash kept the close-time optimize from refreshing). Not fatal:
	// it takes the write lock, which another process (the server, when
	// this is the CLI) may hold past the busy timeout.
	if err := db.optimize(ctx); err != nil {
		db.log.Warn("refreshing planner statistics at open", "err", err)
	}
	return db.startCheckpointer()
}

// warmReader opens a read connection and loads the schema in it; it stays
// in the pool's idle set for the first read.
func (db *DB) warmReader(ctx context.Context) error {
	conn, err := db.reader.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open a read connection: %w", err)
	}
	defer conn.Close()
	// Any table would load the schema; sqlite_schema is there in any file.
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil {
		return fmt.Errorf("open a read connection: %w", err)
	}
	return nil
}

// privateFiles makes the database owner-only before SQLite opens it:
// SQLite creates the -wal and -shm files with the database file's mode, so
// creating that one 0600 (and tightening an existing one) covers all three.
func privateFiles(path string) (existed bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return false, fmt.Errorf("open %q: %w", path, err)
	}
	if fi, err := f.Stat(); err == nil {
		existed = fi.Size() > 0
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("make %q private: %w", p, err)
		}
	}
	return existed, nil
}

// dsn builds the connection string. Settings live here, not in Exec calls,
// so that they apply to every pooled connection. mattn silently ignores
// misspelled keys, which is why store_test checks that they took effect.
//   - _busy_timeout first: journal_mode may need a lock on a busy file.
//   - WAL lets readers run while the writer writes.
//   - synchronous=NORMAL is durable across process crashes in WAL mode (only
//     an OS crash can lose the last commits), at a fraction of FULL's cost.
//   - _txlock=immediate makes every write transaction take the write lock at
//     BEGIN, so a read lock is never upgraded mid-transaction (no deadlock).
//   - a 1.5 MB page cache per read connection (four): the hot pages of a
//     search and a list; the four caches hold the same pages, and the OS's
//     page cache holds them all once, outside the appliance's RSS (4 MB
//     each gave no faster search at 100k memories, and 1.5 MB against 2
//     left search at 100k as fast, with 2 MiB less RSS, room the Go heap
//     took). The writer's: writerCacheKiB.
//   - the read pool is query_only, so a stray write through it fails loudly.
//   - each connection keeps its 128 most recent prepared statements:
//     compiling a statement (with the search-index triggers it fires)
//     cost more than running it.
func dsn(path string, readOnly bool) string {
	s := "file:" + path + "?_busy_timeout=5000&_journal_mode=WAL&_foreign_keys=on&_synchronous=NORMAL&_txlock=immediate&_stmt_cache_size=128"
	if readOnly {
		return s + "&_cache_size=-1500&_query_only=true"
	}
	return s + fmt.Sprintf("&_cache_size=-%d", writerCacheKiB)
}

// writerCacheKiB is the writer's page cache. It was 32 MB, then 12, while
// ids were random UUIDs: every insert landed on a different leaf of each
// key index, and once those leaves no longer fit, each create read several
// pages back. With time-ordered ids (appliance.NewID) inserts share the
// right edge of each index, and pages the cache lets go are still in the
// OS's page cache. Side by side at 100k conversations and memories, 3 MB
// ran creates as fast as 6 and 12 MB (534–653/s against 475–625/s and
// 467–514/s) with 4 and 10 MiB less RSS; on an empty folder 571–579/s
// against 545–558/s with 12 MB, RSS after the creates 50 MiB against 60.
const writerCacheKiB = 3000

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// Close closes both pools, the writer last so that its close checkpoints the
// WAL; before that it refreshes planner statistics, as SQLite recommends
// for a connection about to close.
func (db *DB) Close() error {
	db.closeOnce.Do(func() { db.closeErr = db.close() })
	return db.closeErr
}

func (db *DB) close() error {
	var errs []error
	db.closeGroup()
	db.closeSignal()
	if db.ckpt != nil {
		errs = append(errs, db.ckpt.close())
	}
	if db.writer != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := db.optimize(ctx); err != nil {
			db.log.Warn("refreshing planner statistics on close", "err", err)
		}
		cancel()
	}
	if db.reads != nil {
		db.reads.close()
	}
	if db.reader != nil {
		errs = append(errs, db.reader.Close())
	}
	if db.writer != nil {
		errs = append(errs, db.writer.Close())
	}
	db.bits.reset() // the sign bits outside the Go heap (offheap_unix.go)
	return errors.Join(errs...)
}

// Ping checks that both pools answer.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.writer.PingContext(ctx); err != nil {
		return fmt.Errorf("ping writer: %w", err)
	}
	if err := db.reader.PingContext(ctx); err != nil {
		return fmt.Errorf("ping reader: %w", err)
	}
	return nil
}

// withTx runs fn in a write transaction (BEGIN IMMEDIATE via the DSN) and
// commits when fn returns nil.
func (db *DB) withTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// timeFormat is fixed-width so that TEXT order is time order.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func fmtTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return fmtTime(*t)
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse stored time %q: %w", s, err)
	}
	return t.UTC(), nil
}

func parseTimePtr(s sql.NullString) (*time.Time, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := parseTime(s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// mapErr turns driver errors into appliance codes: no rows is ENOTFOUND and
// a constraint violation ECONFLICT. Other errors pass through (internal).
func mapErr(err error, what string) error {
	var se sqlite3.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return appliance.Errorf(appliance.ENOTFOUND, "%s not found", what)
	case errors.As(err, &se) && se.Code == sqlite3.ErrConstraint:
		return appliance.Errorf(appliance.ECONFLICT, "%s conflicts with an existing record", what)
	default:
		return err
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
