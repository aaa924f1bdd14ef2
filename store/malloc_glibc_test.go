//go:build linux && cgo

package store

import "testing"

// glibc serves a 3 MB allocation from its heap, not by a mmap of its own:
// the threshold is 4 MB instead of glibc's default 128 KB.
func TestMallocThresholds(t *testing.T) {
	if mallocIsMapped(64) == -1 {
		t.Skip("not glibc: the thresholds are glibc's")
	}
	if !mallocTuned {
		t.Fatal("mallopt refused the thresholds")
	}
	if got := mallocIsMapped(3 << 20); got != 0 {
		t.Fatalf("a 3 MB allocation is mapped on its own (%d): the mmap threshold is not 4 MB", got)
	}
	if got := mallocIsMapped(16 << 20); got != 1 {
		t.Fatalf("a 16 MB allocation comes from the heap (%d): the test cannot tell mapped from not", got)
	}
}
