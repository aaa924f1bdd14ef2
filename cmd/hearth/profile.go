package main

import (
	"fmt"
	"os"
	"runtime/pprof"
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
