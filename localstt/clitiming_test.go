//go:build unix

package localstt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
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
//   - warm: five clips on one loaded model, per clip (see below).
//
// Each iteration runs both sides, in alternating order, so that load from
// elsewhere falls on both; the ratios are taken within an iteration and
// reported as their median with the spread. OpenMP must be pinned alike
// on both sides (make bench-speech sets OMP_WAIT_POLICY=passive and
// OMP_NUM_THREADS): libgomp reads them when this process starts, and
// spinning threads that wait on each other under contention decided the
// earlier figures.
func BenchmarkWhisperAgainstCLI(b *testing.B) {
	needWhisper(b)
	if os.Getenv("OMP_WAIT_POLICY") == "" || os.Getenv("OMP_NUM_THREADS") == "" {
		b.Skip("run with OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 (make bench-speech): both sides' OpenMP threads pinned alike")
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
				c0, t0 := stttest.SelfCPU(), time.Now()
				r := newRoute()
				routeCall(r)
				r.Close()
				rw, rc = time.Since(t0), stttest.SelfCPU()-c0
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
				cw.Round(time.Millisecond), cc.Round(time.Millisecond), stttest.LoadAverage())
		}
		stttest.ReportRatios(b, "wall", wall)
		stttest.ReportRatios(b, "cpu", cpu)
	})

	// warm: five clips on one loaded model, per clip. Wall: the route's
	// five calls against the CLI's printed total less load for five clips
	// (the first, colder call is in both). CPU: the four calls after the
	// first, the route's own against the CLI's five-clip run less its
	// one-clip run (load and first call cancel).
	b.Run("warm", func(b *testing.B) {
		const clips = 5
		var wall, cpu []float64
		for i := range b.N {
			var rw, rc, cw, cc time.Duration
			route := func() {
				r := newRoute()
				defer r.Close()
				t0 := time.Now()
				routeCall(r)
				c1 := stttest.SelfCPU()
				for range clips - 1 {
					routeCall(r)
				}
				rw, rc = time.Since(t0)/clips, (stttest.SelfCPU()-c1)/(clips-1)
			}
			theCLI := func() {
				_, cpu1, _ := runCLI(1)
				_, cpuN, work := runCLI(clips)
				cw, cc = work/clips, (cpuN-cpu1)/(clips-1)
			}
			if i%2 == 0 {
				route()
				theCLI()
			} else {
				theCLI()
				route()
			}
			wall, cpu = append(wall, rw.Seconds()/cw.Seconds()), append(cpu, rc.Seconds()/cc.Seconds())
			b.Logf("warm %d: per clip, route %s wall %s CPU, CLI %s wall (printed) %s CPU, load average %.2f", i, rw.Round(time.Millisecond),
				rc.Round(time.Millisecond), cw.Round(time.Millisecond), cc.Round(time.Millisecond), stttest.LoadAverage())
		}
		stttest.ReportRatios(b, "wall", wall)
		stttest.ReportRatios(b, "cpu", cpu)
	})
}
