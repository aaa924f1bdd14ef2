package store_test

import (
	"context"
	"encoding/binary"
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

// TestCurrent_ReadsTheHeaderAlone: Current says a folder's database is this
// build's, from the file's header, only when Ready would find nothing to
// do; otherwise the server asks Ready before serving.
func TestCurrent_ReadsTheHeaderAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// used is a folder whose database a clean close left behind.
	used := func(t *testing.T) string {
		dir := t.TempDir()
		db, err := store.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		mustUser(t, db, "u")
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// setHeader writes a big-endian field of the file's header, as another
	// build or another program would have left it.
	setHeader := func(t *testing.T, dir string, offset int64, v uint32) {
		f, err := os.OpenFile(filepath.Join(dir, store.FileName), os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt(binary.BigEndian.AppendUint32(nil, v), offset); err != nil {
			t.Fatal(err)
		}
	}
	latest, err := store.LatestVersion()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		folder  func(t *testing.T) string
		want    bool
		wantErr bool
		// after is Current once Ready has run and the DB closed: a
		// foreign file keeps its id, and another connection still holds
		// the log.
		after bool
	}{
		{"new folder", func(t *testing.T) string { return t.TempDir() }, false, false, true},
		{"closed cleanly", used, true, false, true},
		{"stamped by no build (an older one)", func(t *testing.T) string {
			dir := used(t)
			setHeader(t, dir, 60, 0)
			return dir
		}, false, false, true},
		{"a migration pending", func(t *testing.T) string {
			dir := used(t)
			setHeader(t, dir, 60, uint32(latest-1))
			return dir
		}, false, false, true},
		{"another program's database", func(t *testing.T) string {
			dir := used(t)
			setHeader(t, dir, 68, 0x12345678)
			return dir
		}, false, false, false},
		{"a write-ahead log left behind", func(t *testing.T) string {
			dir := used(t)
			db, err := store.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			mustUser(t, db, "u2") // in the log until a checkpoint
			return dir
		}, false, false, false},
		{"not a database", func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, store.FileName), []byte("hello, not a database at all"), 0o600); err != nil {
				t.Fatal(err)
			}
			return dir
		}, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := store.Prepare(tc.folder(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			got, err := db.Current()
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("Current() = %v, %v; want %v (error: %v)", got, err, tc.want, tc.wantErr)
			}
			if w, r, _ := db.OpenConns(); w != 0 || r != 0 {
				t.Errorf("Current opened %d writer and %d read connections, want none", w, r)
			}
			if tc.wantErr {
				return
			}
			// Whatever Current said, Ready brings the file up to date and
			// stamps it, so that the next start can tell from the header.
			if err := db.Ready(ctx); err != nil {
				t.Fatalf("Ready: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			again, err := store.Prepare(filepath.Dir(db.Path()))
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if ok, err := again.Current(); ok != tc.after || err != nil {
				t.Errorf("after Ready and Close: Current() = %v, %v; want %v", ok, err, tc.after)
			}
		})
	}
}
