package main

import (
	"log/slog"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The appliance's live Go heap is small: a few megabytes of caches and
// requests in flight (the database's pages live in SQLite's C heap). With
// the default GOGC=100 the collector then runs whenever 4 MB has been
// allocated, which under a stream of creates was 94 times a second, and
// each cycle stops and wakes every thread; creates ran 626–733/s at 100k
// conversations. Running it on a memory target instead lets the heap use
// the few megabytes the process had resident anyway: creates 866–959/s,
// RSS within a megabyte of before.
//
// A fixed GOMEMLIMIT alone would be unsafe: a live heap above it (a long
// recording decoded in memory) makes the collector run back to back. So
// the limit follows the live heap: gcTargetBase, or twice the live heap
// plus gcTargetHeadroom when that is more, re-read every gcTuneEvery; and
// GOGC=300 stays as the ceiling between collections.
//
// gcTargetBase was 16 MiB. Under creates the live heap was a few MiB, so
// the limit, not GOGC, decided when to collect, and the collector still
// cost ~100 µs of CPU a create (marking, sweeping, the threads it stops);
// at 32 MiB GOGC=300 decides: ~15–20 µs a create. Idle RSS is unchanged
// (the heap grows only while something allocates); after a burst of
// creates RSS is 8–10 MiB higher (docs/benchmarks.md, "Creates: fewer
// allocations and statements").
const (
	gcPercent        = 300
	gcTargetBase     = 32 << 20
	gcTargetHeadroom = 8 << 20
	gcTuneEvery      = 250 * time.Millisecond
)

// The appliance serves no heap profiles, and the runtime's sampling of
// allocations for them kept 1.4 MB of stack buckets under load, counted
// against the memory target like the heap: off, the heap gets that room
// and collects less often. Set while package variables initialise, before
// main runs, as the runtime asks.
var _ = func() int { runtime.MemProfileRate = 0; return 0 }()

// gcTuner keeps the memory limit in step with the live heap.
type gcTuner struct {
	stop  chan struct{}
	done  chan struct{}
	limit int64 // the limit in force
	every time.Duration
}

// startGCTuner sets GOGC and the first memory limit and keeps the limit
// following the live heap until stop. It does nothing when the owner set
// GOGC or GOMEMLIMIT: theirs wins.
func startGCTuner(logger *slog.Logger) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		logger.Info("garbage collector tuned by the environment", "GOGC", os.Getenv("GOGC"), "GOMEMLIMIT", os.Getenv("GOMEMLIMIT"))
		return func() {}
	}
	return newGCTuner(gcTuneEvery).start()
}

func newGCTuner(every time.Duration) *gcTuner {
	return &gcTuner{stop: make(chan struct{}), done: make(chan struct{}), every: every}
}

func (t *gcTuner) start() (stop func()) {
	t.adjust()
	prevPercent := debug.SetGCPercent(gcPercent)
	go t.run()
	return func() {
		close(t.stop)
		<-t.done
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(math.MaxInt64) // no limit
	}
}

func (t *gcTuner) run() {
	defer close(t.done)
	tick := time.NewTicker(t.every)
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case <-tick.C:
			t.adjust()
		}
	}
}

// adjust sets the limit for the live heap the last collection found.
func (t *gcTuner) adjust() {
	live, buckets := runtimeMemory()
	// The limit counts everything the runtime has mapped, including the
	// allocation profiler's 1.4 MB hash table, made when packages sampled
	// an allocation before MemProfileRate was 0: mapped but hardly
	// touched, it is not resident, and counting it took a quarter of the
	// heap's room between collections.
	limit := gcLimitFor(live) + int64(buckets)
	// Small moves are not worth a change: the limit is a target, and
	// setting it makes the runtime recompute its pacing.
	if t.limit != 0 && limit > t.limit*9/10 && limit < t.limit*11/10 {
		return
	}
	t.limit = limit
	debug.SetMemoryLimit(limit)
}

// gcLimitFor is the memory limit for a live heap of live bytes.
func gcLimitFor(live uint64) int64 {
	return max(int64(gcTargetBase), 2*int64(live)+gcTargetHeadroom)
}

// runtimeMemory is the heap the last collection marked live, and the
// memory the allocation profiler's buckets hold.
func runtimeMemory() (live, buckets uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/profiling/buckets:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		buckets = s[1].Value.Uint64()
	}
	return live, buckets
}
