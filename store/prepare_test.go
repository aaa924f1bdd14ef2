package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/store"
)

// TestPrepare_OpensNothingUntilReady: the server wires its parts to a
// prepared DB while Ready loads the schema on another goroutine, so
// Prepare must open no connection; Ready leaves the writer and one read
// connection open, the read one idle with its schema loaded for the first
// read. Alike in a new folder and in one used before (where the read
// connection opens beside the writer's work).
func TestPrepare_OpensNothingUntilReady(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	for _, folder := range []string{"new", "used"} {
		db, err := store.Prepare(dir)
		if err != nil {
			t.Fatal(err)
		}
		if w, r, _ := db.OpenConns(); w != 0 || r != 0 {
			t.Errorf("%s folder: after Prepare %d writer and %d read connections are open, want none", folder, w, r)
		}
		if err := db.Ready(ctx); err != nil {
			t.Fatalf("%s folder: Ready: %v", folder, err)
		}
		if w, r, idle := db.OpenConns(); w != 1 || r != 1 || idle != 1 {
			t.Errorf("%s folder: after Ready %d writer, %d read (%d idle) connections, want 1, 1 (1 idle)", folder, w, r, idle)
		}
		mustUser(t, db, "u-"+folder)
		if _, err := db.User(ctx, "u-"+folder); err != nil {
			t.Errorf("%s folder: a user written after Ready cannot be read: %v", folder, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReady_FailsOnAFileThatIsNotADatabase: Ready says why, and the DB
// still closes.
func TestReady_FailsOnAFileThatIsNotADatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	junk := make([]byte, 8192)
	for i := range junk {
		junk[i] = byte(i*7 + 3)
	}
	if err := os.WriteFile(filepath.Join(dir, store.FileName), junk, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.Prepare(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Ready(context.Background()); err == nil {
		t.Error("Ready on a file that is not a database succeeded")
	}
	if err := db.Close(); err != nil {
		t.Logf("close after a failed Ready: %v", err)
	}
	if _, err := store.Open(context.Background(), dir); err == nil {
		t.Error("Open on a file that is not a database succeeded")
	}
}
