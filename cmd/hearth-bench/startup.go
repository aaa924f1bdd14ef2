package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Start-up kinds, measured in turn within every round.
const (
	startFloor   = "echo floor"
	startFresh   = "hearth, empty data folder"
	startRestart = "hearth, restart"
)

// startSample is one start: time to the first 200 on /healthz, then the
// memory held a second later, idle.
type startSample struct {
	healthy   time.Duration
	rss, anon int64
	load      float64
}

// runStartup measures `hearth serve`'s start to healthy and idle memory
// against the echo floor (cmd/hearth-bench/echofloor: a Go HTTP server on
// the same framework that does nothing else), interleaved: every round
// starts the floor, hearth on an empty data folder (first start: the
// schema is created) and hearth on a folder it has used before (a
// restart), in an order that rotates, so that load from elsewhere falls on
// all three alike. Ratios are taken within a round, then their median.
func runStartup(ctx context.Context, cfg config, hearth string, stdout, stderr io.Writer) error {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "hearth-bench: "+format+"\n", args...) }
	tmp, err := os.MkdirTemp("", "hearth-bench-startup-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	floor := cfg.echoFloor
	if floor == "" {
		floor = filepath.Join(tmp, "echofloor")
		logf("building the echo floor")
		build := exec.CommandContext(ctx, "go", "build", "-o", floor, "github.com/hearth-appliance/hearth/cmd/hearth-bench/echofloor")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("building the echo floor (or pass -echo-floor): %w\n%s", err, out)
		}
	}
	restartDir := filepath.Join(tmp, "restart")
	if err := os.Mkdir(restartDir, 0o700); err != nil {
		return err
	}
	if _, err := startOnce(ctx, hearth, []string{"serve", "--data", restartDir, "--addr"}); err != nil {
		return fmt.Errorf("first start of the restart folder: %w", err)
	}
	load0, quiet0 := waitQuiet(ctx, cfg.quietWait, logf)
	kinds := []string{startFloor, startFresh, startRestart}
	samples := map[string][]startSample{}
	var ratios = map[string][]float64{}
	started := time.Now()
	for round := range cfg.startupRounds {
		got := map[string]startSample{}
		for i := range kinds {
			kind := kinds[(round+i)%len(kinds)]
			var args []string
			bin := hearth
			switch kind {
			case startFloor:
				bin, args = floor, []string{"-addr"}
			case startFresh:
				dir := filepath.Join(tmp, fmt.Sprintf("fresh-%d", round))
				if err := os.Mkdir(dir, 0o700); err != nil {
					return err
				}
				args = []string{"serve", "--data", dir, "--addr"}
			case startRestart:
				args = []string{"serve", "--data", restartDir, "--addr"}
			}
			s, err := startOnce(ctx, bin, args)
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", round+1, kind, err)
			}
			got[kind] = s
			samples[kind] = append(samples[kind], s)
		}
		_ = os.RemoveAll(filepath.Join(tmp, fmt.Sprintf("fresh-%d", round)))
		for _, k := range []string{startFresh, startRestart} {
			ratios[k] = append(ratios[k], float64(got[k].healthy)/float64(got[startFloor].healthy))
		}
		logf("round %d/%d: floor %s, empty folder %s, restart %s (load %.2f)", round+1, cfg.startupRounds,
			fmtDur(got[startFloor].healthy), fmtDur(got[startFresh].healthy), fmtDur(got[startRestart].healthy), loadAverage())
	}
	out := startupReport(cfg, samples, ratios, load0, quiet0, loadAverage(), time.Since(started))
	fmt.Fprint(stdout, out)
	if cfg.out != "" {
		return os.WriteFile(cfg.out, []byte(out), 0o644)
	}
	return nil
}

// startOnce starts bin with args, which end in the flag that takes the
// address, plus a free loopback address, waits for
// its first 200 on /healthz, lets it idle a second, reads its memory and
// stops it.
func startOnce(ctx context.Context, bin string, args []string) (startSample, error) {
	addr, err := resolveAddr("127.0.0.1:0")
	if err != nil {
		return startSample{}, err
	}
	load := loadAverage()
	srv, err := startHealthy(ctx, bin, append(slices.Clone(args), addr), addr, 30*time.Second)
	if err != nil {
		return startSample{}, err
	}
	s := startSample{healthy: srv.startToHealthy, load: load}
	if err := sleepCtx(ctx, time.Second); err == nil {
		s.rss, s.anon = readRSS(srv.pid()), readAnonRSS(srv.pid())
	}
	if _, err := srv.stop(15 * time.Second); err != nil {
		return s, err
	}
	return s, ctx.Err()
}

func startupReport(cfg config, samples map[string][]startSample, ratios map[string][]float64, load0 float64, quiet0 bool, load1 float64, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Start to healthy against the echo floor\n\n")
	fmt.Fprintf(&b, "- machine: %s\n- command: `%s`\n- %d rounds, each starting the floor, hearth on an empty data folder and hearth on a used one, in rotating order; took %s\n",
		machineInfo(), commandLine(os.Args), cfg.startupRounds, took.Round(time.Second))
	fmt.Fprintf(&b, "- before the first round: %s; after the last: load average %.2f\n\n", loadNote(load0, quiet0), load1)
	fmt.Fprintf(&b, "| start | p50 | min | max | p50 of ratio to the floor (same round) | idle RSS p50 | of it anonymous | load average during |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, kind := range []string{startFloor, startFresh, startRestart} {
		ss := samples[kind]
		if len(ss) == 0 {
			continue
		}
		var ds []time.Duration
		var rss, anon []int64
		lo, hi := ss[0].load, ss[0].load
		for _, s := range ss {
			ds = append(ds, s.healthy)
			rss, anon = append(rss, s.rss), append(anon, s.anon)
			lo, hi = min(lo, s.load), max(hi, s.load)
		}
		slices.Sort(ds)
		slices.Sort(rss)
		slices.Sort(anon)
		ratio := "1 (the floor)"
		if r := ratios[kind]; len(r) > 0 {
			slices.Sort(r)
			ratio = fmt.Sprintf("%.2f× (%.2f–%.2f)", r[(len(r)-1)/2], r[0], r[len(r)-1])
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %.2f–%.2f |\n", kind,
			fmtDur(percentile(ds, 50)), fmtDur(ds[0]), fmtDur(ds[len(ds)-1]), ratio,
			fmtBytes(rss[(len(rss)-1)/2]), fmtBytes(anon[(len(anon)-1)/2]), lo, hi)
	}
	fmt.Fprintf(&b, "\nStart to healthy is from exec to the first 200 on GET /healthz, polled every %s. Idle RSS is read a second after that; "+
		"the rest of RSS beside the anonymous part is file pages (the binary and its libraries), shared with the page cache and reclaimable.\n", healthPollInterval)
	return b.String()
}
