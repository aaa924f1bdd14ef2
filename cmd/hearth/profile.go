package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// startCPUProfile writes a Go CPU profile of the whole serve run to the
// file HEARTH_CPU_PROFILE names, for finding where the time goes under the
// load driver (docs/benchmarks.md shows how). It is a developer's tool: no
// flag, nothing happens unless the variable is set.
func startCPUProfile() (stop func(), err error) {
	path := os.Getenv("HEARTH_CPU_PROFILE")
	if path == "" {
		return func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("HEARTH_CPU_PROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("HEARTH_CPU_PROFILE: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// heapProfileEvery is how often HEARTH_HEAP_PROFILE is written again.
const heapProfileEvery = 5 * time.Second

// startHeapProfile writes a Go heap profile to the file HEARTH_HEAP_PROFILE
// names whenever the heap is larger than it has been, looking every few
// seconds: the profile at the peak says what the live sessions held (one
// at exit would show them gone). A developer's tool like the CPU profile.
func startHeapProfile() (stop func()) {
	path := os.Getenv("HEARTH_HEAP_PROFILE")
	if path == "" {
		return func() {}
	}
	// Sampling is off in the appliance (gctune.go); from here on it is
	// at the runtime's default.
	runtime.MemProfileRate = 512 << 10
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(heapProfileEvery)
		defer t.Stop()
		var peak uint64
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc <= peak {
				continue
			}
			peak = ms.HeapAlloc
			if f, err := os.Create(path); err == nil {
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}()
	return func() { close(done) }
}
