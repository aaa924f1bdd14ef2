package store

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// recentTTL is how long a key or user read by KeyByHash or User is
// answered from memory. Every request with an API key reads its key, and
// every create its user, and after each commit of the writer a read
// connection finds its page cache cold: the two lookups cost ~40 µs each of
// a create's ~1.5 ms of CPU. A revoke or a user's removal through this DB
// drops both caches at once, in every process on the database (the signal
// file below); the TTL is a backstop should the signal fail. Users are
// never edited, only created and removed.
const recentTTL = time.Second

// recentMax bounds a cache: only rows that exist enter it (a miss is never
// kept, so guessing secrets cannot fill it), and a household has a few
// dozen keys and users at most.
const recentMax = 1024

// recent keeps recently read rows by a lookup key.
type recent[V any] struct {
	clone func(*V) *V // a copy callers may change freely

	mu  sync.Mutex
	now func() time.Time // nil: time.Now
	// gen counts invalidations: a read that began before one must not
	// store what it read, which may predate the change.
	gen  uint64
	rows map[string]recentRow[V]
}

type recentRow[V any] struct {
	v       *V
	expires time.Time
}

func (c *recent[V]) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// get returns a copy of the cached row and the generation to pass to put
// when it missed.
func (c *recent[V]) get(key string) (*V, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.rows[key]
	if !ok || !c.clock().Before(e.expires) {
		return nil, c.gen
	}
	return c.clone(e.v), c.gen
}

// put keeps v unless the cache was invalidated since gen was read.
func (c *recent[V]) put(key string, v *V, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.rows == nil || len(c.rows) >= recentMax {
		c.rows = map[string]recentRow[V]{}
	}
	c.rows[key] = recentRow[V]{v: c.clone(v), expires: c.clock().Add(recentTTL)}
}

// invalidate forgets every row; called after a write that may revoke or
// remove one has committed.
func (c *recent[V]) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.rows = nil
}

// copyKey keeps callers from sharing the cache's scopes or times.
func copyKey(k *appliance.Key) *appliance.Key {
	cp := *k
	cp.Scopes = slices.Clone(k.Scopes)
	if k.LastUsedAt != nil {
		t := *k.LastUsedAt
		cp.LastUsedAt = &t
	}
	if k.RevokedAt != nil {
		t := *k.RevokedAt
		cp.RevokedAt = &t
	}
	return &cp
}

func copyUser(u *appliance.User) *appliance.User {
	cp := *u
	return &cp
}

// The caches are shared with other processes on the same database through
// a small file beside it: every revoke and user removal, in any process,
// writes a fresh random token into it, and every cached answer first
// checks that the token is the one last seen (recentChecked). So `hearth keys revoke` run while the
// server runs is refused on the key's next request, as before the caches.

// credentialsSignal is the signal file's name: the database's path plus
// this suffix.
const credentialsSignal = "-credentials-changed"

// recentChecked drops both caches when another process (or this one)
// signalled a change since the last check. It reports whether the caches
// may be used: false when the signal cannot be read. The signal file is
// kept open: a change replaces it (a rename), which leaves the open one
// without a link, so most checks are one fstat, not a read (~1 µs).
func (db *DB) recentChecked() bool {
	db.signalMu.Lock()
	defer db.signalMu.Unlock()
	if db.signalFile != nil {
		if linked(db.signalFile) {
			return true
		}
		db.signalFile.Close()
		db.signalFile = nil
	}
	f, err := os.Open(db.path + credentialsSignal)
	if errors.Is(err, fs.ErrNotExist) {
		// Never signalled: an empty signal is made so that it can be kept
		// open like any other, or every request would ask the file system
		// for a missing name (~12 µs a create). A signal written meanwhile
		// wins (O_EXCL), and one that cannot be made (a read-only folder)
		// leaves the check as it was.
		f, err = os.OpenFile(db.path+credentialsSignal, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			f, err = os.Open(db.path + credentialsSignal)
		}
	}
	var token []byte
	switch {
	case errors.Is(err, fs.ErrNotExist): // never signalled
		err = nil
	case err == nil:
		token, err = io.ReadAll(f)
	}
	if err != nil || !bytes.Equal(token, db.signalSeen) {
		db.keys.invalidate()
		db.users.invalidate()
		db.signalSeen = token
	}
	if f != nil && err == nil {
		db.signalFile = f
	} else if f != nil {
		f.Close()
	}
	return err == nil
}

// closeSignal releases the signal file; Close calls it.
func (db *DB) closeSignal() {
	db.signalMu.Lock()
	defer db.signalMu.Unlock()
	if db.signalFile != nil {
		db.signalFile.Close()
		db.signalFile = nil
	}
}

// signalCredentialsChanged tells every process on this database, this one
// included, that a key was revoked or a user removed; call it after the
// change committed.
func (db *DB) signalCredentialsChanged() {
	db.keys.invalidate()
	db.users.invalidate()
	var b [16]byte
	rand.Read(b[:])
	token := []byte(hex.EncodeToString(b[:]))
	tmp := fmt.Sprintf("%s%s.%s", db.path, credentialsSignal, token)
	err := os.WriteFile(tmp, token, 0o600)
	if err == nil {
		err = os.Rename(tmp, db.path+credentialsSignal)
	}
	if err != nil {
		os.Remove(tmp)
		// The other processes see the change when their cached copies
		// expire (recentTTL).
		db.log.Warn("signal a revoked key or removed user to other processes", "err", err)
	}
}
