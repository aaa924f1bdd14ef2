//go:build linux && cgo

package store

/*
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// hs_tune_malloc fixes glibc's thresholds (see mallocTuned). It returns 0
// where there is no glibc (musl), 1 when both settings took.
static int hs_tune_malloc(int mmap_threshold, int trim_threshold) {
#if defined(__GLIBC__)
	return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
#else
	return 0;
#endif
}

// hs_malloc_is_mapped reports whether glibc serves an allocation of size
// bytes by its own mmap (its chunk header's IS_MMAPPED bit), for tests.
static int hs_malloc_is_mapped(size_t size) {
#if defined(__GLIBC__)
	void *p = malloc(size);
	if (p == NULL) return -1;
	int mapped = (((size_t *)p)[-1] & 2) != 0;
	free(p);
	return mapped;
#else
	return -1;
#endif
}
*/
import "C"

// SQLite and its extensions allocate from glibc's malloc. glibc serves
// each allocation of 128 KB or more by its own mmap, and hands the heap's
// free top back to the system once it passes a threshold; both thresholds
// move with what the process freed before. Under a stream of creates at
// 100k conversations that meant page faults and madvise calls on every
// large buffer: fixed at 4 MB and 8 MB, creates ran 744–750/s against
// 571–582/s on the same folder, for 1 MiB more RSS. (A process that had
// loaded and freed a speech model got the same effect by accident: its
// frees had raised both thresholds.)
const (
	mallocMmapThreshold = 4 << 20
	mallocTrimThreshold = 8 << 20
)

// mallocTuned reports whether the thresholds are in force.
var mallocTuned = C.hs_tune_malloc(mallocMmapThreshold, mallocTrimThreshold) == 1

// mallocIsMapped is hs_malloc_is_mapped: 1 mapped, 0 from the heap, -1
// not glibc.
func mallocIsMapped(size int) int { return int(C.hs_malloc_is_mapped(C.size_t(size))) }
