package store

import (
	"slices"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// keyCacheTTL is how long a key read by KeyByHash is answered from memory.
// Every request with an API key reads its key, and after each commit of
// the writer a read connection finds its page cache cold, so the lookup
// cost ~40 µs of a create's ~1.3 ms of CPU. A revoke or a user's removal
// through this DB drops the cache at once; the TTL bounds how long a
// change made by another process on the same file (`hearth keys revoke`
// while the server runs) goes unseen.
const keyCacheTTL = time.Second

// keyCacheMax bounds the cache: only keys that exist enter it (a miss is
// never kept, so guessing secrets cannot fill it), and a household has a
// few dozen at most.
const keyCacheMax = 1024

// keyCache keeps recently read keys by the hash of their secret.
type keyCache struct {
	mu  sync.Mutex
	now func() time.Time // nil: time.Now
	// gen counts invalidations: a read that began before one must not
	// store what it read, which may predate the change.
	gen    uint64
	byHash map[string]cachedKey
}

type cachedKey struct {
	key     appliance.Key
	expires time.Time
}

func (c *keyCache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// get returns a copy of the cached key and the generation to pass to put
// when it missed.
func (c *keyCache) get(hash string) (*appliance.Key, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byHash[hash]
	if !ok || !c.clock().Before(e.expires) {
		return nil, c.gen
	}
	return copyKey(&e.key), c.gen
}

// put keeps k unless the cache was invalidated since gen was read.
func (c *keyCache) put(hash string, k *appliance.Key, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.byHash == nil || len(c.byHash) >= keyCacheMax {
		c.byHash = map[string]cachedKey{}
	}
	c.byHash[hash] = cachedKey{key: *copyKey(k), expires: c.clock().Add(keyCacheTTL)}
}

// invalidate forgets every key; called after a write that may revoke or
// remove one has committed.
func (c *keyCache) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.byHash = nil
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
