package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/mattn/go-sqlite3"
)

// Backup copies the database to path (created 0600, and must not exist)
// while the appliance keeps serving, with SQLite's online backup. It
// copies in steps and reports pages done of total; writes by a running
// appliance restart a stepped copy, so after two restarts the rest is
// copied in one step, one consistent snapshot that writers do not wait for
// (the database is in WAL mode).
func (db *DB) Backup(ctx context.Context, path string, progress func(done, total int)) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("create backup: %w", err)
	}
	f.Close()
	ok := false
	defer func() {
		if !ok {
			os.Remove(path)
		}
	}()
	dst, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		return fmt.Errorf("open backup: %w", err)
	}
	defer dst.Close()
	dconn, err := dst.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open backup: %w", err)
	}
	defer dconn.Close()
	sconn, err := db.reader.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer sconn.Close()
	err = dconn.Raw(func(d any) error {
		return sconn.Raw(func(s any) error {
			dc, dok := d.(*sqlite3.SQLiteConn)
			sc, sok := s.(*sqlite3.SQLiteConn)
			if !dok || !sok {
				return errors.New("backup needs SQLite connections")
			}
			b, err := dc.Backup("main", sc, "main")
			if err != nil {
				return fmt.Errorf("start backup: %w", err)
			}
			step, restarts, lastLeft := 256, 0, -1
			for {
				if err := ctx.Err(); err != nil {
					b.Finish()
					return err
				}
				done, err := b.Step(step)
				if err != nil {
					b.Finish()
					return fmt.Errorf("copy pages: %w", err)
				}
				total, left := b.PageCount(), b.Remaining()
				if progress != nil {
					progress(total-left, total)
				}
				if done {
					break
				}
				if lastLeft >= 0 && left > lastLeft {
					if restarts++; restarts >= 2 {
						step = -1 // the rest at once
					}
				}
				lastLeft = left
				if step > 0 {
					step = max(step, total/20)
				}
			}
			return b.Finish()
		})
	})
	if err != nil {
		return err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return err
	}
	ok = true
	return nil
}

// CheckBackup checks a database file about to be restored, and folds in
// the write-ahead log beside it (PATH-wal), as a Litestream-style copy of
// a live database has one: the log is checkpointed into the file, then
// SQLite's quick check runs and the schema version is read. A file that is
// no Hearth database, is damaged, or was written by a newer Hearth is
// refused. It writes to path: give it a copy.
func CheckBackup(ctx context.Context, path string) (int, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		return 0, fmt.Errorf("open backup: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return 0, fmt.Errorf("%s is not a SQLite database: %w", path, err)
	}
	if check != "ok" {
		return 0, fmt.Errorf("%s is damaged: %s", path, check)
	}
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return 0, fmt.Errorf("fold in the write-ahead log: %w", err)
	}
	var version int
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&version); err != nil {
		return 0, fmt.Errorf("%s is not a Hearth database (no schema version)", path)
	}
	latest, err := LatestVersion()
	if err != nil {
		return 0, err
	}
	if version > latest {
		return version, fmt.Errorf("%s has schema version %d, newer than this hearth's %d: upgrade hearth first", path, version, latest)
	}
	return version, nil
}
