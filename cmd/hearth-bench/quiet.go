package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// quietLoad is the one-minute load average below which the machine counts
// as quiet: under one runnable task on average, nothing else competes with
// what a pass measures.
const quietLoad = 1.0

// loadAverage reads the one-minute load average from /proc/loadavg; -1
// where there is none (not Linux).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	return parseLoadAvg(string(b))
}

func parseLoadAvg(s string) float64 {
	f := strings.Fields(s)
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// waitQuiet waits until the load average is below quietLoad, checking
// every 5 s, for at most giveUp (0: not at all). It returns the load it
// last read and whether the machine was quiet; a pass measured on a busy
// machine still runs, and its report says so with the load.
func waitQuiet(ctx context.Context, giveUp time.Duration, logf func(string, ...any)) (load float64, quiet bool) {
	deadline := time.Now().Add(giveUp)
	for {
		load = loadAverage()
		if load < 0 {
			return load, false // unknown: say so rather than wait
		}
		if load < quietLoad {
			return load, true
		}
		if !time.Now().Before(deadline) || ctx.Err() != nil {
			if giveUp > 0 {
				logf("the machine is not quiet: load average %.2f after waiting %s; measuring anyway", load, giveUp)
			}
			return load, false
		}
		if sleepCtx(ctx, min(5*time.Second, time.Until(deadline))) != nil {
			return load, false
		}
	}
}

// loadNote renders a pass's load average for a report.
func loadNote(load float64, quiet bool) string {
	switch {
	case load < 0:
		return "load average unknown"
	case quiet:
		return fmt.Sprintf("load average %.2f (quiet)", load)
	default:
		return fmt.Sprintf("load average %.2f (NOT quiet: other work shared the cores)", load)
	}
}
