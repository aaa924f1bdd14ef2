//go:build unix

package pocketsphinx_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// BenchmarkPocketSphinxAgainstCLI compares the route with Debian's
// pocketsphinx_continuous on the same Festival sentence and model, with
// the model's load treated alike on both sides, interleaved (the two
// sides alternate within an iteration; the ratios are taken within it):
//
//   - cold: the load included on both sides (the route: New, Transcribe,
//     Close in this process, whose first utterance loads the decoder; the
//     CLI: its whole run);
//   - warm: the load left out on both sides (the route: a Transcribe on a
//     decoder already loaded; the CLI: its run less a run on a tenth of a
//     second of silence, which is its load).
//
// Wall time and CPU time are both reported: CPU is what contention from
// other work on the machine moves least.
func BenchmarkPocketSphinxAgainstCLI(b *testing.B) {
	need(b, "pocketsphinx_continuous (Debian pocketsphinx)", tool("pocketsphinx_continuous"))
	need(b, "PocketSphinx (libpocketsphinx-dev, pocketsphinx-en-us)", pocketsphinx.Available)
	audio := speech(b, sentences[0], 16000)
	dir := b.TempDir()
	wav, empty := filepath.Join(dir, "s.wav"), filepath.Join(dir, "empty.wav")
	writeWAV(b, wav, audio)
	writeWAV(b, empty, make([]int16, 1600))
	cli := func(path string) (wall, cpu time.Duration) {
		cmd := exec.Command("pocketsphinx_continuous", "-infile", path, "-logfn", "/dev/null")
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("pocketsphinx_continuous: %v\n%s", err, out)
		}
		return time.Since(t0), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	transcribe := func(r *pocketsphinx.Route) {
		if _, err := r.Transcribe(context.Background(), audio, stt.Config{Language: "en"}); err != nil {
			b.Fatal(err)
		}
	}
	compare := func(b *testing.B, route, theCLI func() (wall, cpu time.Duration)) {
		var wall, cpu []float64
		for i := range b.N {
			var rw, rc, cw, cc time.Duration
			if i%2 == 0 {
				rw, rc = route()
				cw, cc = theCLI()
			} else {
				cw, cc = theCLI()
				rw, rc = route()
			}
			wall, cpu = append(wall, rw.Seconds()/cw.Seconds()), append(cpu, rc.Seconds()/cc.Seconds())
			b.Logf("%d: route %s wall %s CPU, CLI %s wall %s CPU, load average %.2f", i, rw.Round(time.Millisecond), rc.Round(time.Millisecond),
				cw.Round(time.Millisecond), cc.Round(time.Millisecond), loadAverage())
		}
		reportRatios(b, "wall", wall)
		reportRatios(b, "cpu", cpu)
	}
	b.Run("cold", func(b *testing.B) {
		compare(b, func() (time.Duration, time.Duration) {
			c0, t0 := selfCPU(), time.Now()
			r, err := pocketsphinx.New(pocketsphinx.Config{Decoders: 1})
			if err != nil {
				b.Fatal(err)
			}
			transcribe(r)
			r.Close()
			return time.Since(t0), selfCPU() - c0
		}, func() (time.Duration, time.Duration) { return cli(wav) })
	})
	b.Run("warm", func(b *testing.B) {
		r := route(b, pocketsphinx.Config{Decoders: 1})
		transcribe(r) // loads the decoder
		compare(b, func() (time.Duration, time.Duration) {
			c0, t0 := selfCPU(), time.Now()
			transcribe(r)
			return time.Since(t0), selfCPU() - c0
		}, func() (time.Duration, time.Duration) {
			w, c := cli(wav)
			lw, lc := cli(empty)
			return w - lw, c - lc
		})
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
