package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	_ "github.com/mattn/go-sqlite3"
)

// sqliteFloor measures the least a create could cost on this machine: one
// transaction per conversation writing one conversation row and one row
// per segment, with the appliance's settings (WAL, synchronous=NORMAL, one
// writer connection) and the appliance's own keys (appliance.NewID: version
// 7 UUIDs, led by the time, so the primary-key indexes grow at their right
// edge), from `writers` goroutines for d. It returns transactions per second.
func sqliteFloor(ctx context.Context, path string, segments, writers int, d time.Duration) (float64, error) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix) // a kept folder's (-scale-data) last floor: each starts empty
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000&_journal_mode=WAL&_synchronous=NORMAL&_txlock=immediate")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE TABLE conversations (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at TEXT NOT NULL, title TEXT NOT NULL) STRICT`,
		`CREATE TABLE segments (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, idx INTEGER NOT NULL, text TEXT NOT NULL,
			speaker TEXT NOT NULL, start REAL NOT NULL, end REAL NOT NULL) STRICT`,
		`CREATE INDEX segments_conversation ON segments(conversation_id, idx)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return 0, err
		}
	}
	var done atomic.Int64
	var firstErr error
	var once sync.Once
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			text := "We shipped the first milestone last week, the second one slipped by about a week."
			for ctx.Err() == nil && time.Now().Before(deadline) {
				err := func() error {
					tx, err := db.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					defer tx.Rollback()
					id := appliance.NewID()
					if _, err := tx.Exec(`INSERT INTO conversations VALUES (?, 'u', ?, 'title')`, id, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
						return err
					}
					for i := range segments {
						if _, err := tx.Exec(`INSERT INTO segments VALUES (?, ?, ?, ?, 'SPEAKER_00', ?, ?)`,
							appliance.NewID(), id, i, text, float64(i), float64(i)+1); err != nil {
							return err
						}
					}
					return tx.Commit()
				}()
				if err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return 0, fmt.Errorf("floor transaction: %w", firstErr)
	}
	return float64(done.Load()) / time.Since(start).Seconds(), nil
}
