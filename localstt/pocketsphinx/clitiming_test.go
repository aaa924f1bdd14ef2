//go:build unix

package pocketsphinx_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
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
				cw.Round(time.Millisecond), cc.Round(time.Millisecond), stttest.LoadAverage())
		}
		stttest.ReportRatios(b, "wall", wall)
		stttest.ReportRatios(b, "cpu", cpu)
	}
	b.Run("cold", func(b *testing.B) {
		compare(b, func() (time.Duration, time.Duration) {
			c0, t0 := stttest.SelfCPU(), time.Now()
			r, err := pocketsphinx.New(pocketsphinx.Config{Decoders: 1})
			if err != nil {
				b.Fatal(err)
			}
			transcribe(r)
			r.Close()
			return time.Since(t0), stttest.SelfCPU() - c0
		}, func() (time.Duration, time.Duration) { return cli(wav) })
	})
	b.Run("warm", func(b *testing.B) {
		r := route(b, pocketsphinx.Config{Decoders: 1})
		transcribe(r) // loads the decoder
		compare(b, func() (time.Duration, time.Duration) {
			c0, t0 := stttest.SelfCPU(), time.Now()
			transcribe(r)
			return time.Since(t0), stttest.SelfCPU() - c0
		}, func() (time.Duration, time.Duration) {
			w, c := cli(wav)
			lw, lc := cli(empty)
			return w - lw, c - lc
		})
	})
}
