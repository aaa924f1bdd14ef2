package localstt

import (
	"errors"
	"sync"
)

// holders counts the streams and jobs running on a route. A route the
// owner's settings replaced is retired: sessions already on it keep it,
// and the last of them to end frees its models.
type holders struct {
	mu      sync.Mutex
	n       int
	retired bool
	freed   bool
}

// errRetired is the answer of a retired route whose models are freed: a
// session pinned to the old routes passes over it to the next.
var errRetired = errors.New("the whisper model was replaced in the settings")

// hold counts one more user, unless the route's models are freed.
func (r *Route) hold() error {
	r.holders.mu.Lock()
	defer r.holders.mu.Unlock()
	if r.holders.freed {
		return configError(errRetired.Error(), errRetired)
	}
	r.holders.n++
	return nil
}

// release counts one user less; the last one out of a retired route
// frees its models.
func (r *Route) release() {
	r.holders.mu.Lock()
	defer r.holders.mu.Unlock()
	r.holders.n--
	r.freeIfDoneLocked()
}

// Retire frees the models once nothing runs on the route any more (at
// once when nothing does): the wiring calls it when a settings change
// replaced the route.
func (r *Route) Retire() {
	r.holders.mu.Lock()
	defer r.holders.mu.Unlock()
	r.holders.retired = true
	r.freeIfDoneLocked()
}

func (r *Route) freeIfDoneLocked() {
	if r.holders.retired && r.holders.n == 0 && !r.holders.freed {
		r.holders.freed = true
		r.Close() // every engine is back in the pool: none is in use
	}
}

// retiredErr is the route's reason not to serve once its models are freed.
func (r *Route) retiredErr() error {
	r.holders.mu.Lock()
	defer r.holders.mu.Unlock()
	if r.holders.freed {
		return configError(errRetired.Error(), errRetired)
	}
	return nil
}
