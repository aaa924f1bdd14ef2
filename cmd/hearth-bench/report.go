package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// report collects everything the markdown output shows.
type report struct {
	cfg            config
	command        string
	machine        string
	started        time.Time
	startToHealthy time.Duration
	idleRSS        int64 // bytes, -1 = n/a
	afterRSS       int64
	afterAnonRSS   int64
	peakRSS        int64
	shutdown       time.Duration // SIGINT until exit
	exitStatus     string
	results        []result
	interrupted    bool
	seeded         string // what was seeded before the MCP scenarios
	listen         string // the socket scenario's section, when it ran
}

func (r *report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## hearth-bench\n\n")
	if r.interrupted {
		fmt.Fprintf(&b, "**Interrupted — partial results.**\n\n")
	}
	fmt.Fprintf(&b, "Duration %s per scenario, concurrency %d, %d segments per created conversation.\n\n",
		r.cfg.duration, r.cfg.concurrency, r.cfg.segments)
	b.WriteString("| scenario | requests | errors | req/s | p50 | p90 | p99 | max |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, res := range r.results {
		if res.skipped != "" {
			fmt.Fprintf(&b, "| %s | skipped: %s | | | | | | |\n", res.name, res.skipped)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f | %s | %s | %s | %s |\n",
			res.name, res.requests, res.errors, res.rate(),
			fmtDur(res.percentile(50)), fmtDur(res.percentile(90)), fmtDur(res.percentile(99)), fmtDur(res.percentile(100)))
	}
	b.WriteString(r.listen)
	b.WriteString("\n")
	for _, res := range r.results {
		if res.skipped != "" || (res.indexWait == 0 && res.indexErr == "") {
			continue
		}
		if res.indexErr != "" {
			fmt.Fprintf(&b, "- %s including indexing: the search index did not catch up (%s)\n", res.name, res.indexErr)
			continue
		}
		fmt.Fprintf(&b, "- %s including indexing: %d done in %s, and the search index caught up %s later (/healthz): %.1f/s\n",
			res.name, res.operations-res.errors, fmtDur(res.elapsed), fmtDur(res.indexWait), res.indexedRate())
	}
	fmt.Fprintf(&b, "- start-to-healthy: %s (spawn until the first 200 from /healthz, polled every %s)\n", fmtDur(r.startToHealthy), healthPollInterval)
	fmt.Fprintf(&b, "- idle RSS: %s (1 s after healthy)\n", fmtBytes(r.idleRSS))
	if r.seeded != "" {
		fmt.Fprintf(&b, "- %s\n", r.seeded)
	}
	fmt.Fprintf(&b, "- RSS after load: %s (peak %s); anonymous, without mapped file pages: %s\n", fmtBytes(r.afterRSS), fmtBytes(r.peakRSS),
		fmtBytes(r.afterAnonRSS))
	if r.exitStatus != "" {
		fmt.Fprintf(&b, "- shutdown: %s from SIGINT to exit (%s)\n", fmtDur(r.shutdown), r.exitStatus)
	}
	fmt.Fprintf(&b, "- machine: %s\n", r.machine)
	fmt.Fprintf(&b, "- date: %s, driver built with %s\n", r.started.Format(time.RFC3339), runtime.Version())
	fmt.Fprintf(&b, "- driver: %s\n", driverProcsNote(r.cfg.driverProcs))
	fmt.Fprintf(&b, "- command: `%s`\n", r.command)
	b.WriteString("\nLatency is per HTTP request, send to last body byte, over all requests including failed ones; req/s is requests over the scenario's wall time.\n")
	var samples []string
	for _, res := range r.results {
		for _, s := range res.errorSamples {
			samples = append(samples, fmt.Sprintf("- %s: %s", res.name, strings.ReplaceAll(s, "\n", " ")))
		}
	}
	if len(samples) > 0 {
		b.WriteString("\nFirst errors:\n\n")
		b.WriteString(strings.Join(samples, "\n"))
		b.WriteString("\n")
	}
	return b.String()
}

// fmtDur prints a latency in milliseconds with enough precision for both
// sub-millisecond GETs and multi-second pipeline runs.
func fmtDur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.1f ms", ms)
	default:
		return fmt.Sprintf("%.0f ms", ms)
	}
}

func fmtBytes(n int64) string {
	if n < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// machineInfo describes the host: CPU count, GOOS/GOARCH and the CPU model
// from /proc/cpuinfo when there is one.
func machineInfo() string {
	s := fmt.Sprintf("%d CPUs, %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	if m := cpuModel("/proc/cpuinfo"); m != "" {
		s += ", " + m
	}
	return s
}

func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// driverProcsNote says how many Go processors the workers had, since a
// driver that shares the server's cores takes from what it measures.
func driverProcsNote(procs int) string {
	if procs == 0 {
		return fmt.Sprintf("workers on all %d Go processors (-driver-procs 0)", runtime.GOMAXPROCS(0))
	}
	return fmt.Sprintf("workers on %d Go processor(s) during each scenario (-driver-procs %d)", procs, procs)
}
