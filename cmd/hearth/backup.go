package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/store"
)

// runBackup takes a consistent copy of the database while the appliance
// keeps serving, with progress on stderr.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("backup", stderr)
	data := fs.String("data", "", "the appliance's data directory")
	out := fs.String("out", "", "the backup file to write (must not exist)")
	withAudio := fs.Bool("audio", false, "also copy the conversations' kept audio (DATA/recordings) into the folder FILE.recordings")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageErr("--out is required")
	}
	db, err := openStore(ctx, *data, false)
	if err != nil {
		return err
	}
	defer db.Close()
	t0 := time.Now()
	last := -1
	err = db.Backup(ctx, *out, func(done, total int) {
		if pct := 100 * done / max(total, 1); pct/10 != last/10 || done == total {
			last = pct
			fmt.Fprintf(stderr, "backup: %3d%% (%d of %d pages)\n", pct, done, total)
		}
	})
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "backup: %s written in %s\n", fmtSize(st.Size()), time.Since(t0).Round(time.Millisecond))
	if *withAudio {
		// After the database: a recording whose conversation is in the
		// copy is in the folder too (files are only ever appended to).
		n, size, err := copyTree(filepath.Join(*data, recordingsDir), *out+audioSuffix)
		if err != nil {
			return fmt.Errorf("backup audio: %w", err)
		}
		fmt.Fprintf(stderr, "backup: %d recordings (%s) copied to %s\n", n, fmtSize(size), *out+audioSuffix)
	}
	fmt.Fprintln(stdout, *out)
	return nil
}

// audioSuffix names the folder beside a backup that holds its audio.
const audioSuffix = ".recordings"

// copyTree copies the files under src into dst (created; a file already
// there is kept), owner-only, and returns how many files and bytes it
// copied. A missing src copies nothing.
func copyTree(src, dst string) (n int, size int64, err error) {
	err = filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && path == src {
				return filepath.SkipAll
			}
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if _, err := os.Stat(to); err == nil {
			return nil
		}
		if err := copyFile(path, to); err != nil {
			return err
		}
		if info, err := d.Info(); err == nil {
			size += info.Size()
		}
		n++
		return nil
	})
	return n, size, err
}

// runRestore puts a backup in place of a stopped appliance's database. The
// database it replaces is kept beside it, never deleted.
func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("restore", stderr)
	data := fs.String("data", "", "the appliance's data directory (its appliance must be stopped)")
	var file string
	if len(args) > 0 && !isFlag(args[0]) {
		file, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	}
	if file == "" || *data == "" {
		return usageErr("usage: hearth restore FILE --data DIR")
	}
	if err := os.MkdirAll(*data, 0o700); err != nil {
		return err
	}
	unlock, err := lockData(*data)
	if err != nil {
		return inUseHint(err)
	}
	defer unlock()
	dbPath := filepath.Join(*data, store.FileName)
	// The backup is checked on a copy beside the database, with its
	// write-ahead log when it has one (a Litestream-style copy of a live
	// database), so that a refused file changes nothing.
	staged := dbPath + ".restoring"
	clean := func() {
		for _, sfx := range []string{"", "-wal", "-shm"} {
			os.Remove(staged + sfx)
		}
	}
	clean()
	defer clean()
	if err := copyFile(file, staged); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if _, err := os.Stat(file + "-wal"); err == nil {
		if err := copyFile(file+"-wal", staged+"-wal"); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	version, err := store.CheckBackup(ctx, staged)
	if err != nil {
		return errors.New(strings.NewReplacer(staged, file).Replace(err.Error())) // name the file the owner gave
	}
	if _, err := os.Stat(dbPath); err == nil {
		aside := dbPath + ".before-restore-" + time.Now().UTC().Format("20060102T150405Z")
		if err := os.Rename(dbPath, aside); err != nil {
			return fmt.Errorf("keep the current database: %w", err)
		}
		for _, sfx := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(dbPath + sfx); err == nil {
				if err := os.Rename(dbPath+sfx, aside+sfx); err != nil {
					return fmt.Errorf("keep the current database: %w", err)
				}
			}
		}
		fmt.Fprintf(stderr, "restore: the current database is kept as %s\n", aside)
	}
	if err := os.Rename(staged, dbPath); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	// A backup made with --audio has its recordings beside it: they join
	// the data folder's (a file already there is kept).
	if n, _, err := copyTree(file+audioSuffix, filepath.Join(*data, recordingsDir)); err != nil {
		return fmt.Errorf("restore audio: %w", err)
	} else if n > 0 {
		fmt.Fprintf(stderr, "restore: %d recordings restored\n", n)
	}
	fmt.Fprintf(stderr, "restore: %s restored (schema version %d); start the appliance to use it\n", file, version)
	fmt.Fprintln(stdout, dbPath)
	return nil
}

func isFlag(s string) bool { return len(s) > 0 && s[0] == '-' }

// copyFile copies src to a new private file dst, synced to disk.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func fmtSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
}
