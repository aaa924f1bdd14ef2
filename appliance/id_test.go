package appliance

import (
	"testing"

	"github.com/google/uuid"
)

func TestNewID_SortsByCreation(t *testing.T) {
	prev := ""
	seen := map[string]bool{}
	for i := 0; i < 10000; i++ {
		id := NewID()
		u, err := uuid.Parse(id)
		if err != nil {
			t.Fatalf("NewID %q: %v", id, err)
		}
		if u.Version() != 7 || u.Variant() != uuid.RFC4122 {
			t.Fatalf("NewID %q: version %d variant %v", id, u.Version(), u.Variant())
		}
		if seen[id] {
			t.Fatalf("NewID repeated %q", id)
		}
		seen[id] = true
		// Monotonic within the process, so an index on it only grows
		// at its end.
		if id <= prev {
			t.Fatalf("NewID %q after %q", id, prev)
		}
		prev = id
	}
}
