package api

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestEmbeddedShare: /healthz says 1 only when every item is embedded;
// clients wait for exactly that.
func TestEmbeddedShare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		embedded, total int
		want            float64
	}{
		{0, 0, 1},
		{10, 10, 1},
		{0, 10, 0},
		{9999, 10000, 0.999}, // rounded, this would read as caught up
		{1, 3, 0.333},
		{2, 3, 0.666},
		{12, 10, 1}, // a count read between two writes never exceeds 1
	} {
		if got := embeddedShare(appliance.IndexProgress{Embedded: tc.embedded, Total: tc.total}); got != tc.want {
			t.Errorf("%d of %d: share %v, want %v", tc.embedded, tc.total, got, tc.want)
		}
	}
}
