package store_test

import (
	"context"
	"math/rand/v2"
	"sort"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSaveProcessedCPU measures the from-segments write alone (the
// processed conversation, its 12 segments, 2 action items and 2 memories,
// in one group commit), without the indexing it causes: the CPU the
// process spent per save (cpu-µs/op, from getrusage, so other load on the
// machine inflates it less than the wall time) and the wall time of a
// save. One saver: each save is its own transaction.
//
//	go test -tags sqlite_fts5 -run XXX -bench SaveProcessedCPU -benchtime 3000x ./store
func BenchmarkSaveProcessedCPU(b *testing.B) {
	ctx := context.Background()
	db := benchDB(ctx, b)
	r := rand.New(rand.NewPCG(11, 12))
	now := time.Now()
	n := 0
	var lat []time.Duration
	cpu0 := processCPU()
	b.ResetTimer()
	for b.Loop() {
		c, ms := benchConversation(r, n, "u1", now)
		n++
		t0 := time.Now()
		createOne(b, db, c, ms)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	cpu := processCPU() - cpu0
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(lat)), "cpu-µs/op")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "write-p50-ms")
}

// processCPU is the user and system CPU this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
