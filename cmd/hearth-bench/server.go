package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// serverEnv is added to the server's (and the CLI's) environment: rate
// limits off, otherwise the per-key limits would throttle the benchmark.
var serverEnv = []string{"HEARTH_RATE_LIMIT_BOOST=0"}

// server is a running `hearth serve` child process.
type server struct {
	bin            string
	addr           string
	cmd            *exec.Cmd
	log            *tailBuffer
	exited         chan struct{} // closed once cmd.Wait returned
	waitErr        error         // valid after exited is closed
	startToHealthy time.Duration
}

// healthPollInterval is how often a starting server is asked for /healthz:
// 1 ms, so that a start of a few milliseconds (the echo floor's, see
// startup.go) is not rounded up to the next poll.
const healthPollInterval = time.Millisecond

// startServer spawns `hearth serve` and waits until GET /healthz answers 200,
// polling every millisecond for at most giveUp. On any failure the process
// is gone when startServer returns.
func startServer(ctx context.Context, bin, dataDir, addr string, giveUp time.Duration) (*server, error) {
	return startHealthy(ctx, bin, []string{"serve", "--data", dataDir, "--addr", addr}, addr, giveUp)
}

// startHealthy spawns bin with args and waits until GET /healthz on addr
// answers 200, as startServer does.
func startHealthy(ctx context.Context, bin string, args []string, addr string, giveUp time.Duration) (*server, error) {
	s := &server{
		bin:    bin,
		addr:   addr,
		log:    newTailBuffer(64 << 10),
		exited: make(chan struct{}),
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), serverEnv...)
	cmd.Stdout = s.log
	cmd.Stderr = s.log
	cmd.WaitDelay = 2 * time.Second // do not hang on output pipes held by grandchildren
	setProcAttr(cmd)
	s.cmd = cmd

	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()

	probe := &http.Client{
		Timeout:   time.Second,
		Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
	}
	url := "http://" + addr + "/healthz"
	deadline := time.NewTimer(giveUp)
	defer deadline.Stop()
	tick := time.NewTicker(healthPollInterval)
	defer tick.Stop()
	for {
		resp, err := probe.Get(url)
		if err == nil {
			drain(resp)
			if resp.StatusCode == http.StatusOK {
				s.startToHealthy = time.Since(t0)
				return s, nil
			}
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("%s exited before becoming healthy (%v)%s", filepath.Base(bin), s.waitErr, s.logTail())
		case <-deadline.C:
			s.stop(5 * time.Second)
			return nil, fmt.Errorf("%s did not answer 200 on %s within %s (last error: %v)%s", filepath.Base(bin), url, giveUp, healthErr(resp, err), s.logTail())
		case <-ctx.Done():
			s.stop(15 * time.Second)
			return nil, fmt.Errorf("interrupted while waiting for %s", url)
		case <-tick.C:
		}
	}
}

func healthErr(resp *http.Response, err error) string {
	if err != nil {
		return err.Error()
	}
	return "status " + resp.Status
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// exitStatus describes how the process ended, once it has.
func (s *server) exitStatus() string {
	select {
	case <-s.exited:
	default:
		return "still running"
	}
	if s.waitErr == nil {
		return "exit status 0"
	}
	return s.waitErr.Error()
}

// stop sends SIGINT, waits up to grace and kills the process (group) after
// that. It returns how long the graceful part took. It is safe to call more
// than once.
func (s *server) stop(grace time.Duration) (time.Duration, error) {
	select {
	case <-s.exited:
		return 0, nil
	default:
	}
	t0 := time.Now()
	if err := interruptProcess(s.cmd.Process); err != nil {
		// Cannot interrupt (e.g. no signals on this OS): go straight to kill.
		grace = 0
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-s.exited:
		return time.Since(t0), nil
	case <-t.C:
	}
	killProcess(s.cmd.Process)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		return time.Since(t0), fmt.Errorf("server pid %d did not exit even after SIGKILL", s.pid())
	}
	return time.Since(t0), fmt.Errorf("server did not stop within %s of SIGINT and was killed%s", grace, s.logTail())
}

func (s *server) logTail() string {
	t := strings.TrimSpace(s.log.String())
	if t == "" {
		return ""
	}
	lines := strings.Split(t, "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return "\n--- server output (tail) ---\n" + strings.Join(lines, "\n") + "\n---"
}

// cli runs a hearth subcommand and returns the last non-empty line of its
// stdout (where `users add` and `keys create` print the id / key).
func (s *server) cli(ctx context.Context, args ...string) (string, error) {
	return runCLI(ctx, s.bin, args...)
}

func runCLI(ctx context.Context, bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), serverEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.WaitDelay = 2 * time.Second
	name := "hearth " + strings.Join(args[:min(2, len(args))], " ")
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return "", context.Canceled
		}
		return "", fmt.Errorf("%s: %w\nstdout: %s\nstderr: %s", name, err, strings.TrimSpace(stdout.String()), strings.TrimSpace(stderr.String()))
	}
	line := lastLine(stdout.String())
	if line == "" {
		return "", fmt.Errorf("%s printed nothing on stdout (stderr: %s)", name, strings.TrimSpace(stderr.String()))
	}
	return line, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// readRSS returns VmRSS of pid in bytes, or -1 when unavailable (non-Linux).
func readRSS(pid int) int64 { return readProcStatusKB(pid, "VmRSS:") }

// readAnonRSS returns RssAnon of pid in bytes, or -1: the process's own
// memory, without the file pages it maps (SQLite's memory-mapped reads
// show in VmRSS but are the kernel's page cache, shared and reclaimable).
func readAnonRSS(pid int) int64 { return readProcStatusKB(pid, "RssAnon:") }

// readPeakRSS returns VmHWM (peak resident set) of pid in bytes, or -1.
func readPeakRSS(pid int) int64 { return readProcStatusKB(pid, "VmHWM:") }

func readProcStatusKB(pid int, field string) int64 {
	if runtime.GOOS != "linux" {
		return -1
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	return parseStatusKB(f, field)
}

func parseStatusKB(r interface{ Read([]byte) (int, error) }, field string) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, field) {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, field))
		if len(f) == 0 {
			return -1
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return -1
		}
		return kb * 1024
	}
	return -1
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
