package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a fake `hearth` when HEARTH_BENCH_FAKE is set,
// so that the whole driver (spawn, health wait, CLI, load, SIGINT, cleanup)
// is tested without the real server.
func TestMain(m *testing.M) {
	if os.Getenv("HEARTH_BENCH_FAKE") != "" {
		os.Exit(fakeHearth(os.Args[1:]))
	}
	os.Exit(m.Run())
}

const fakeKey = "hk_dev_fake0123"

func fakeHearth(args []string) int {
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "fake hearth: no command")
		return 2
	}
	cmd := args[0]
	if cmd != "serve" && len(args) >= 2 {
		cmd += " " + args[1]
		args = args[2:]
	} else {
		args = args[1:]
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	data := fs.String("data", "", "")
	addr := fs.String("addr", "", "")
	name := fs.String("name", "", "")
	user := fs.String("user", "", "")
	kind := fs.String("kind", "", "")
	scopes := fs.String("scopes", "", "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if os.Getenv("HEARTH_RATE_LIMIT_BOOST") != "0" {
		fmt.Fprintln(os.Stderr, "fake hearth: HEARTH_RATE_LIMIT_BOOST is not 0")
		return 3
	}
	if *data == "" {
		fmt.Fprintln(os.Stderr, "fake hearth: --data required")
		return 2
	}
	switch cmd {
	case "users add":
		if *name == "" {
			return 2
		}
		if err := os.WriteFile(filepath.Join(*data, "user"), []byte("u-42"), 0o600); err != nil {
			return 1
		}
		fmt.Println("created user", *name)
		fmt.Println("u-42")
		return 0
	case "keys create":
		u, _ := os.ReadFile(filepath.Join(*data, "user"))
		okDev := *kind == "dev" && *scopes == "conversations:read,conversations:write,memories:read,memories:write"
		okMCP := *kind == "mcp" && *scopes == ""
		if string(u) != *user || !(okDev || okMCP) {
			fmt.Fprintf(os.Stderr, "fake hearth: bad keys create: user %q kind %q scopes %q\n", *user, *kind, *scopes)
			return 1
		}
		fmt.Println("key created; it is shown once:")
		if okMCP {
			fmt.Println(fakeMCPKey)
		} else {
			fmt.Println(fakeKey)
		}
		return 0
	case "serve":
		return fakeServe(*data, *addr)
	}
	fmt.Fprintln(os.Stderr, "fake hearth: unknown command", cmd)
	return 2
}

func fakeServe(data, addr string) int {
	marker := os.Getenv("HEARTH_FAKE_MARKER")
	mode := os.Getenv("HEARTH_FAKE_MODE")
	if mode == "crash" {
		fmt.Fprintln(os.Stderr, "boom: cannot open database")
		return 1
	}
	if _, err := os.Stat(data); err != nil {
		fmt.Fprintln(os.Stderr, "data dir:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	time.Sleep(30 * time.Millisecond) // "startup work"
	api := &fakeAPI{key: fakeKey, convs: map[string]createRequest{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if mode == "unhealthy" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "ok")
	})
	mux.Handle("/", api)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	if marker != "" {
		os.WriteFile(filepath.Join(marker, "stopped"), []byte("sigint "+strconv.Itoa(len(api.convs))), 0o600)
	}
	return 0
}

// fakeEnv makes the test binary act as hearth for child processes and
// isolates the temp dir; it returns the temp dir and the marker dir.
func fakeEnv(t *testing.T, mode string) (tmp, marker string) {
	tmp, marker = t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HEARTH_BENCH_FAKE", "1")
	t.Setenv("HEARTH_FAKE_MARKER", marker)
	t.Setenv("HEARTH_FAKE_MODE", mode)
	return tmp, marker
}

func self(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path:", err)
	}
	return exe
}

func assertCleanedUp(t *testing.T, tmp, marker string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(tmp, "hearth-bench-*"))
	if len(left) != 0 {
		t.Errorf("temp data dirs left behind: %v", left)
	}
	b, err := os.ReadFile(filepath.Join(marker, "stopped"))
	if err != nil || !strings.HasPrefix(string(b), "sigint") {
		t.Errorf("server was not stopped with SIGINT (marker %q, %v)", b, err)
	}
}

func TestRunEndToEndWithFakeHearth(t *testing.T) {
	exe := self(t)
	tmp, marker := fakeEnv(t, "")
	out := filepath.Join(t.TempDir(), "report.md")
	cfg, err := parseFlags([]string{"-hearth", exe, "-duration", "200ms", "-concurrency", "4", "-segments", "5", "-out", out}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\nstderr:\n%s", err, stderr.String())
	}
	md := stdout.String()
	t.Logf("report:\n%s", md)
	for _, want := range []string{
		"| scenario | requests | errors | req/s | p50 | p90 | p99 | max |",
		"- start-to-healthy: ", "- idle RSS: ", "- RSS after load: ", "- machine: ", "- command: `",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, name := range []string{"from-segments", "get"} {
		row := tableRow(md, name)
		if len(row) != 8 {
			t.Fatalf("no row for %s in\n%s", name, md)
		}
		if n, _ := strconv.Atoi(row[1]); n == 0 {
			t.Errorf("%s: no requests", name)
		}
		if row[2] != "0" {
			t.Errorf("%s: %s errors\n%s", name, row[2], stderr.String())
		}
	}
	if f, err := os.ReadFile(out); err != nil || string(f) != md {
		t.Errorf("-out file differs from stdout (%v)", err)
	}
	assertCleanedUp(t, tmp, marker)
}

func tableRow(md, name string) []string {
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| "+name+" |") {
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			return cells
		}
	}
	return nil
}

func TestRunInterruptCleansUp(t *testing.T) {
	exe := self(t)
	tmp, marker := fakeEnv(t, "")
	cfg, err := parseFlags([]string{"-hearth", exe, "-duration", "1m", "-concurrency", "2"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(1500*time.Millisecond, cancel) // during the first scenario
	var stdout, stderr bytes.Buffer
	start := time.Now()
	err = run(ctx, cfg, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("run after cancel: %v", err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("interrupted run took %v", took)
	}
	assertCleanedUp(t, tmp, marker)
}

func TestStartServerFailures(t *testing.T) {
	exe := self(t)
	t.Run("crash", func(t *testing.T) {
		fakeEnv(t, "crash")
		addr, _ := resolveAddr("127.0.0.1:0")
		_, err := startServer(context.Background(), exe, t.TempDir(), addr, 10*time.Second)
		if err == nil || !strings.Contains(err.Error(), "exited before becoming healthy") || !strings.Contains(err.Error(), "boom") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("unhealthy", func(t *testing.T) {
		_, marker := fakeEnv(t, "unhealthy")
		addr, _ := resolveAddr("127.0.0.1:0")
		start := time.Now()
		_, err := startServer(context.Background(), exe, t.TempDir(), addr, 300*time.Millisecond)
		if err == nil || !strings.Contains(err.Error(), "did not answer 200") || !strings.Contains(err.Error(), "503") {
			t.Errorf("err = %v", err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("gave up after %v", took)
		}
		if _, err := os.Stat(filepath.Join(marker, "stopped")); err != nil {
			t.Errorf("unhealthy server not stopped: %v", err)
		}
	})
	t.Run("missing binary", func(t *testing.T) {
		_, err := startServer(context.Background(), filepath.Join(t.TempDir(), "nope"), t.TempDir(), "127.0.0.1:1", time.Second)
		if err == nil {
			t.Error("no error for a missing binary")
		}
	})
	t.Run("cli failure", func(t *testing.T) {
		fakeEnv(t, "")
		_, err := runCLI(context.Background(), exe, "keys", "create", "--data", t.TempDir(), "--user", "nobody", "--kind", "dev", "--scopes", "x")
		if err == nil || !strings.Contains(err.Error(), "bad keys create") {
			t.Errorf("err = %v", err)
		}
		var ee interface{ ExitCode() int }
		if !errors.As(err, &ee) {
			t.Errorf("exit status not wrapped: %v", err)
		}
	})
}

func TestReadRSSSelf(t *testing.T) {
	rss := readRSS(os.Getpid())
	if _, err := os.Stat("/proc/self/status"); err != nil {
		if rss != -1 {
			t.Errorf("no /proc but rss %d", rss)
		}
		return
	}
	if rss <= 0 {
		t.Errorf("readRSS(self) = %d", rss)
	}
	if peak := readPeakRSS(os.Getpid()); peak < rss {
		t.Errorf("peak %d < rss %d", peak, rss)
	}
}
