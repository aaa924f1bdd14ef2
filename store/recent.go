package store

import (
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
// drops both caches at once; the TTL bounds how long a change made by
// another process on the same file (`hearth keys revoke` while the server
// runs) goes unseen. Users are never edited, only created and removed.
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
