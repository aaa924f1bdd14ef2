package localstt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
)

// BenchmarkWhisperAgainstCLI compares the route with whisper-cli built
// from the same whisper.cpp source, like for like and interleaved:
//
//   - cold: a model loaded and one clip transcribed (the route: New,
//     Transcribe, Close in this process, wall and this process's CPU; the
//     CLI: its whole run, load included, wall and its CPU). The route's
//     process is not new after the first iteration: what the library sets
//     up once per process (OpenMP's threads) is the CLI's cost alone;
//     the spread across iterations shows it;
//   - warm: one more clip on a model already loaded and used (the route:
//     a Transcribe after a first one; the CLI: a run with 4 clips less a
//     run with 1, over 3).
//
// Each iteration runs both sides, in alternating order, so that load from
// elsewhere falls on both; the ratios are taken within an iteration and
// reported as their median with the spread. OpenMP must be pinned alike
// on both sides (make bench-whisper sets OMP_WAIT_POLICY=passive and
// OMP_NUM_THREADS): libgomp reads them when this process starts, and
// spinning threads that wait on each other under contention decided the
// earlier figures.
func BenchmarkWhisperAgainstCLI(b *testing.B) {
	needWhisper(b)
	if os.Getenv("OMP_WAIT_POLICY") == "" || os.Getenv("OMP_NUM_THREADS") == "" {
		b.Skip("run with OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 (make bench-whisper): both sides' OpenMP threads pinned alike")
	}
	path, cli := benchModel(b), whisperCLI(b)
	out, _ := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ggerganov/whisper.cpp/bindings/go").Output()
	wav := filepath.Join(strings.TrimSpace(string(out)), "samples", "jfk.wav")
	audio := jfk(b)

	routeCall := func(r *localstt.Route) {
		var e *stt.Error
		if _, err := r.Transcribe(context.Background(), audio, stt.Config{Language: "en"}); err != nil &&
			!(os.Getenv("HEARTH_TEST_WHISPER_MODEL") == "" && errors.As(err, &e) && strings.Contains(e.Reason, "no words")) {
			b.Fatal(err)
		}
	}
	newRoute := func() *localstt.Route {
		r, err := localstt.New(localstt.Config{Model: path, Workers: 1, Threads: benchThreads})
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	// runCLI runs the CLI on clips copies of the clip and returns its
	// wall time, CPU time and printed transcription time (total less load).
	runCLI := func(clips int) (wall, cpu, work time.Duration) {
		args := []string{"-m", path, "-l", "en", "-t", fmt.Sprint(benchThreads), "-bs", "1", "-mc", "0"}
		for range clips {
			args = append(args, "-f", wav)
		}
		cmd := exec.Command(cli, args...)
		t0 := time.Now()
		o, err := cmd.CombinedOutput()
		wall = time.Since(t0)
		if err != nil {
			b.Fatalf("%v %s", err, o)
		}
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		work = cliTiming(string(o), "total time") - cliTiming(string(o), "load time")
		return wall, cpu, work
	}

	b.Run("cold", func(b *testing.B) {
		var wall, cpu []float64
		for i := range b.N {
			var rw, rc, cw, cc time.Duration
			route := func() {
				c0, t0 := selfCPU(), time.Now()
				r := newRoute()
				routeCall(r)
				r.Close()
				rw, rc = time.Since(t0), selfCPU()-c0
			}
			theCLI := func() { cw, cc, _ = runCLI(1) }
			if i%2 == 0 {
				route()
				theCLI()
			} else {
				theCLI()
				route()
			}
			wall, cpu = append(wall, rw.Seconds()/cw.Seconds()), append(cpu, rc.Seconds()/cc.Seconds())
			b.Logf("cold %d: route %s wall %s CPU, CLI %s wall %s CPU, load average %.2f", i, rw.Round(time.Millisecond), rc.Round(time.Millisecond),
				cw.Round(time.Millisecond), cc.Round(time.Millisecond), loadAverage())
		}
		reportRatios(b, "wall", wall)
		reportRatios(b, "cpu", cpu)
	})

	b.Run("warm", func(b *testing.B) {
		r := newRoute()
		defer r.Close()
		routeCall(r) // the route's first call, as the CLI's first clip
		var ratios []float64
		for i := range b.N {
			var rw, cw time.Duration
			route := func() {
				t0 := time.Now()
				routeCall(r)
				rw = time.Since(t0)
			}
			theCLI := func() {
				_, _, one := runCLI(1)
				_, _, four := runCLI(4)
				cw = (four - one) / 3
			}
			if i%2 == 0 {
				route()
				theCLI()
			} else {
				theCLI()
				route()
			}
			ratios = append(ratios, rw.Seconds()/cw.Seconds())
			b.Logf("warm %d: route %s, CLI %s per clip (printed times), load average %.2f", i, rw.Round(time.Millisecond), cw.Round(time.Millisecond), loadAverage())
		}
		reportRatios(b, "wall", ratios)
	})
}

// reportRatios reports the median of per-iteration ratios and their range.
func reportRatios(b *testing.B, name string, r []float64) {
	if len(r) == 0 {
		return
	}
	slices.Sort(r)
	b.ReportMetric(r[(len(r)-1)/2], name+"-ratio-p50")
	b.ReportMetric(r[0], name+"-ratio-min")
	b.ReportMetric(r[len(r)-1], name+"-ratio-max")
}

// selfCPU is this process's user and system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage is the one-minute load average, -1 where unreadable.
func loadAverage() float64 {
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
