package api

import (
	"encoding/hex"
	"math/rand/v2"
)

// newRequestID names a request in the access log and the X-Request-Id
// header: 32 hex digits. echo's default generator reads crypto/rand
// through a pooled 4 KiB bufio.Reader, and the pool is emptied by every
// collection, which with the appliance's small heap is every few hundred
// requests: a new 4 KiB buffer for most requests, a tenth of a create's
// allocated bytes. The id only has to tell requests apart in the log, not
// be unguessable, so the runtime's per-thread generator serves.
func newRequestID() string {
	var raw [16]byte
	for i := 0; i < len(raw); i += 8 {
		v := rand.Uint64()
		for k := range 8 {
			raw[i+k] = byte(v >> (8 * k))
		}
	}
	var out [32]byte
	hex.Encode(out[:], raw[:])
	return string(out[:])
}
