package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// headerMagic starts every SQLite database file.
const headerMagic = "SQLite format 3\x00"

// Current says, from the database file's first 100 bytes alone, whether
// the folder holds a Hearth database whose schema is this build's latest:
// SQLite's magic, Hearth's application id and a user_version the
// migrations stamped with the latest version. It reads no schema: opening
// a connection loads all of it (some 145 objects, about a millisecond a
// connection), so a server can answer once Current holds and leave the
// connections to after serving starts. False, nil means "ask Ready": a new
// file, one without Hearth's id, one last migrated by a build that did not
// stamp it, or one with a write-ahead log left by a crash (the log may
// hold a newer first page than the file). A file that is not a database
// is an error.
func (db *DB) Current() (bool, error) {
	if !db.existed {
		return false, nil
	}
	if fi, err := os.Stat(db.path + "-wal"); err == nil && fi.Size() > 0 {
		return false, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("check %q: %w", db.path, err)
	}
	f, err := os.Open(db.path)
	if err != nil {
		return false, fmt.Errorf("check %q: %w", db.path, err)
	}
	defer f.Close()
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || !bytes.Equal(h[:16], []byte(headerMagic)) {
		return false, fmt.Errorf("check %q: the file is not a database", db.path)
	}
	if binary.BigEndian.Uint32(h[68:72]) != applicationID {
		return false, nil // Ready decides, as it always has
	}
	latest, err := latestVersion()
	if err != nil {
		return false, err
	}
	return int(binary.BigEndian.Uint32(h[60:64])) == latest, nil
}

// latestVersion is the highest migration's number, from the names alone.
func latestVersion() (int, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return 0, err
	}
	latest := 0
	for _, n := range names {
		num, _, _ := strings.Cut(path.Base(n), "_")
		if v, err := strconv.Atoi(num); err == nil {
			latest = max(latest, v)
		}
	}
	return latest, nil
}
