package recordings

import (
	"strings"
	"testing"
)

func TestSafeID(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"ada", true}, {"A-z_09", true}, {strings.Repeat("a", 128), true},
		{"", false}, {strings.Repeat("a", 129), false}, {"..", false}, {"a/b", false}, {"a.b", false},
		{"a b", false}, {"é", false}, {"a\\b", false},
	} {
		if got := safeID(c.id); got != c.ok {
			t.Errorf("safeID(%q) = %v", c.id, got)
		}
	}
}
