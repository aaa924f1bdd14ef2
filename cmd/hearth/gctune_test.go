package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCLimitFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, 32 << 20},
		{2 << 20, 32 << 20},
		{12 << 20, 32 << 20},
		{13 << 20, 34 << 20},
		{40 << 20, 88 << 20},
		{1 << 30, 2<<30 + 8<<20},
	} {
		if got := gcLimitFor(tc.live); got != tc.want {
			t.Errorf("gcLimitFor(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}

// The tuner sets GOGC=300 and a 32 MiB limit (plus the profiler's buckets)
// while the live heap is small,
// raises the limit when a large heap is live (so the collector never runs
// back to back under it), lowers it again when that heap is gone, and
// restores the defaults when stopped.
func TestGCTuner_LimitFollowsTheLiveHeap(t *testing.T) {
	currentLimit := func() int64 { return debug.SetMemoryLimit(-1) } // a negative limit only reads it
	waitLimit := func(what string, ok func(int64) bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !ok(currentLimit()); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: limit %d bytes", what, currentLimit())
			}
			runtime.GC() // the live heap is what the last collection marked
		}
	}
	stop := newGCTuner(10 * time.Millisecond).start()
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	if pct := debug.SetGCPercent(gcPercent); pct != gcPercent {
		t.Fatalf("GOGC = %d while tuned, want %d", pct, gcPercent)
	}
	runtime.GC()
	// The limit for the heap live now, before the big allocation: the
	// profiler's buckets are added to it (see adjust; they only grow, by a
	// bucket when a P takes its last sample). The package's earlier tests
	// can leave a few megabytes live, and their goroutines can still
	// allocate, so the live heap is allowed 2 MiB more than it has now.
	// The tuner leaves a limit alone while the new one is within a tenth
	// of it, so a limit set on the way down may stay up to a tenth above.
	live, buckets := runtimeMemory()
	small := (gcLimitFor(live+2<<20) + int64(buckets)) * 11 / 10
	isSmall := func(l int64) bool { return l >= gcTargetBase && l <= small }
	waitLimit("small heap", isSmall)

	big := make([]byte, 96<<20)
	for i := range big {
		big[i] = byte(i)
	}
	waitLimit("96 MiB live", func(l int64) bool { return l >= 2*96<<20 })
	runtime.KeepAlive(big)
	big = nil
	waitLimit("heap freed", isSmall)

	stop()
	stopped = true
	if l := currentLimit(); l != math.MaxInt64 {
		t.Errorf("limit after stop: %d, want none", l)
	}
	if pct := debug.SetGCPercent(100); pct != 100 {
		t.Errorf("GOGC after stop: %d, want 100", pct)
	}
}

// The appliance records no allocation samples (no heap profile is served;
// their buckets counted against the memory target).
func TestNoAllocationSampling(t *testing.T) {
	if runtime.MemProfileRate != 0 {
		t.Fatalf("MemProfileRate %d, want 0", runtime.MemProfileRate)
	}
	// Samples taken while packages initialised, before the rate was set,
	// stay. The runtime also takes one last sample on each P the first time
	// it allocates after the rate changed, so up to GOMAXPROCS new samples
	// are the runtime noticing the change; at the default rate (one per
	// 512 KiB) these 64 MB would add about 120.
	before := sampledAllocations()
	keep := make([][]byte, 0, 1000)
	for range 1000 {
		keep = append(keep, make([]byte, 64<<10))
	}
	added, most := sampledAllocations()-before, int64(runtime.GOMAXPROCS(0))
	if added > most {
		t.Fatalf("64 MB of allocations added %d samples, want at most %d (one per P)", added, most)
	}
	runtime.KeepAlive(keep)
}

// sampledAllocations counts the allocations the heap profile has recorded.
func sampledAllocations() int64 {
	for range 3 { // a sample is published two collections after its allocation
		runtime.GC()
	}
	var records []runtime.MemProfileRecord
	n, ok := runtime.MemProfile(nil, true)
	for !ok {
		records = make([]runtime.MemProfileRecord, n+16)
		n, ok = runtime.MemProfile(records, true)
	}
	var total int64
	for _, r := range records[:n] {
		total += r.AllocObjects
	}
	return total
}
