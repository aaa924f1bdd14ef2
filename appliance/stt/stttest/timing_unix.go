//go:build unix

package stttest

import (
	"fmt"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The speech routes' benchmarks against their engines' command-line tools
// (whisper-cli, pocketsphinx_continuous) report ratios measured on a
// machine that may be busy; these helpers are what they share.

// ReportRatios reports the median of per-iteration ratios and their range.
func ReportRatios(b *testing.B, name string, r []float64) {
	if len(r) == 0 {
		return
	}
	slices.Sort(r)
	b.ReportMetric(r[(len(r)-1)/2], name+"-ratio-p50")
	b.ReportMetric(r[0], name+"-ratio-min")
	b.ReportMetric(r[len(r)-1], name+"-ratio-max")
}

// SelfCPU is this process's user and system CPU time.
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// LoadAverage is the one-minute load average, -1 where unreadable.
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	var l float64
	if _, err := fmt.Sscanf(string(b), "%f", &l); err != nil {
		return -1
	}
	return l
}
