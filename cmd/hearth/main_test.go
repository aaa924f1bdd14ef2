package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hearthBin is the real binary, built once by TestMain; the end-to-end tests
// drive it exactly as a user or another tool would.
var hearthBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hearth-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hearthBin = filepath.Join(dir, "hearth")
	build := hearthBuild(hearthBin)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building hearth for the end-to-end tests: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs one hearth command and returns stdout, stderr and the exit code.
func cli(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, hearthBin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run hearth %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// lastLine is the contract for machine-readable CLI output.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := cli(t, args...)
	if code != 0 {
		t.Fatalf("hearth %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
	}
	return lastLine(out)
}

// server is a running `hearth serve`.
type server struct {
	cmd  *exec.Cmd
	base string
	logs *logBuffer
	done chan error
}

// logBuffer is a server's stderr, read by tests while it is written
// (a live session's end is waited for in its log).
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(s)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServe runs `hearth serve --addr 127.0.0.1:0` and learns the port from
// its "hearth serving" log line.
func startServe(t *testing.T, data string, env ...string) *server {
	t.Helper()
	cmd := exec.Command(hearthBin, "serve", "--data", data, "--addr", "127.0.0.1:0", "--log-format", "json")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, logs: &logBuffer{}, done: make(chan error, 1)}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.logs.WriteString(line + "\n")
			var rec struct {
				Msg string `json:"msg"`
				URL string `json:"url"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "hearth serving" {
				urls <- rec.URL
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case s.base = <-urls:
	case err := <-s.done:
		t.Fatalf("hearth serve exited before serving: %v\n%s", err, s.logs)
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("hearth serve did not start within 20s\n%s", s.logs)
	}
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *server) stop(t *testing.T) {
	t.Helper()
	if s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("hearth serve exited with %v after SIGINT\n%s", err, s.logs)
		}
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		t.Errorf("hearth serve did not stop within 15s of SIGINT")
	}
}

var client = &http.Client{Timeout: 30 * time.Second}

func (s *server) call(t *testing.T, method, path, auth, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestEndToEnd(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")

	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace", "--time-zone", "Europe/London")
	if !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(uid) {
		t.Fatalf("users add printed %q, want a uid", uid)
	}
	devKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev", "--name", "e2e",
		"--scopes", "conversations:read,conversations:write")
	if !regexp.MustCompile(`^hearth_dev_[0-9a-f]{32}$`).MatchString(devKey) {
		t.Fatalf("keys create printed %q", devKey)
	}
	mcpKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "mcp")
	if !regexp.MustCompile(`^hearth_mcp_[0-9a-f]{32}$`).MatchString(mcpKey) {
		t.Fatalf("mcp key %q", mcpKey)
	}
	// Only a hash is stored: the raw key is nowhere in the data folder.
	db, err := os.ReadFile(filepath.Join(data, "hearth.db"))
	if err != nil {
		t.Fatal(err)
	}
	wal, _ := os.ReadFile(filepath.Join(data, "hearth.db-wal"))
	if bytes.Contains(append(db, wal...), []byte(devKey[len("hearth_dev_"):])) {
		t.Fatal("the raw key secret is stored in the database")
	}

	srv := startServe(t, data)
	if code, body := srv.call(t, "GET", "/healthz", "", ""); code != 200 || !strings.Contains(body, `"model":"builtin-hash-384-v2"`) {
		t.Fatalf("healthz: %d %s", code, body)
	}

	// Create, read, rename, discard and delete through the developer API.
	code, body := srv.call(t, "POST", "/v1/dev/user/conversations/from-segments", devKey, `{"transcript_segments":[
		{"text":"I need to book the flights to Lisbon for the design conference in March.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":4},
		{"text":"Great, and the hotel near the venue is cheaper if we book this week.","speaker":"SPEAKER_01","start":4.2,"end":8}],
		"client_session_id":"e2e-1"}`)
	if code != 200 {
		t.Fatalf("create: %d %s", code, body)
	}
	var created struct {
		ID        string `json:"id"`
		Status    string `json:"status"`
		Discarded bool   `json:"discarded"`
	}
	json.Unmarshal([]byte(body), &created)
	if created.ID == "" || created.Status != "completed" || created.Discarded {
		t.Fatalf("create response %s", body)
	}
	code, body = srv.call(t, "GET", "/v1/dev/user/conversations/"+created.ID+"?include_transcript=true", devKey, "")
	if code != 200 || !strings.Contains(body, `"speaker_name":"Ada Lovelace"`) || !strings.Contains(body, `"title":"`) {
		t.Fatalf("get: %d %s", code, body)
	}
	if code, body = srv.call(t, "PATCH", "/v1/dev/user/conversations/"+created.ID, devKey, `{"title":"Lisbon Trip"}`); code != 200 || !strings.Contains(body, `"title":"Lisbon Trip"`) {
		t.Fatalf("patch: %d %s", code, body)
	}
	if code, _ = srv.call(t, "GET", "/v1/dev/user/conversations/"+created.ID, mcpKey, ""); code != 401 {
		t.Fatalf("mcp key on dev API: %d, want 401", code)
	}
	if code, _ = srv.call(t, "GET", "/v1/memories", devKey, ""); code != 404 {
		t.Fatalf("/v1/memories: %d, want 404", code)
	}

	// ID tokens from the CLI authenticate the identity-provider surfaces.
	token := mustCLI(t, "token", "--data", data, "--user", uid, "--ttl", "10m")
	if code, body = srv.call(t, "POST", "/v1/conversations", token, `{}`); code != 404 || !strings.Contains(body, "Conversation in progress not found") {
		t.Fatalf("end recording with token: %d %s", code, body)
	}

	// Revoking a key takes effect at once on the running server.
	out, _, _ := cli(t, "keys", "list", "--data", data, "--user", uid)
	var devKeyID string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 3 && f[1] == "dev" {
			devKeyID = f[0]
			if strings.Contains(line, devKey) {
				t.Fatal("keys list shows the full key")
			}
		}
	}
	if devKeyID == "" {
		t.Fatalf("keys list did not show the dev key:\n%s", out)
	}
	mustCLI(t, "keys", "revoke", "--data", data, "--user", uid, "--key", devKeyID)
	if code, body = srv.call(t, "GET", "/v1/dev/user/conversations", devKey, ""); code != 401 {
		t.Fatalf("revoked key: %d %s, want 401", code, body)
	}

	// Data survives a restart.
	srv.stop(t)
	key2 := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")
	srv2 := startServe(t, data)
	if code, body = srv2.call(t, "GET", "/v1/dev/user/conversations/"+created.ID, key2, ""); code != 200 || !strings.Contains(body, "Lisbon Trip") {
		t.Fatalf("after restart: %d %s", code, body)
	}
}

func TestCLIUsageErrors(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	mustCLI(t, "users", "add", "--data", data, "--name", "Someone") // a folder that holds an appliance
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, 2, "Usage"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"users", "add", "--data", data}, 2, "--name is required"},
		{[]string{"users", "add", "--data", data, "--name", "x", "--time-zone", "Mars/Olympus"}, 2, "--time-zone"},
		{[]string{"users", "invite", "--data", data}, 2, "give --name for a new member or --user"},
		{[]string{"users", "invite", "--data", data, "--name", "Newcomer"}, 2, "claim it with the setup code first"},
		{[]string{"users", "remove", "--data", data}, 2, "--user is required"},
		{[]string{"users", "transfer-owner", "--data", data, "--user", "ghost"}, 2, "No member by that id"},
		{[]string{"users", "reset", "--data", data, "--user", "ghost"}, 2, "No member by that id"},
		{[]string{"keys", "create", "--data", data}, 2, "--user is required"},
		{[]string{"keys", "create", "--data", data, "--user", "ghost"}, 2, `no user "ghost"`},
		{[]string{"keys", "create", "--data", data, "--user", "x", "--kind", "admin"}, 2, "--kind must be dev, mcp or stt"},
		{[]string{"keys", "create", "--data", data, "--user", "x", "--scopes", "everything"}, 2, "invalid scopes"},
		{[]string{"token", "--data", data}, 2, "--user is required"},
		{[]string{"serve", "--data", data, "--addr", "nonsense"}, 2, "is not HOST:PORT"},
		{[]string{"serve", "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"service", "dance", "--data", data}, 2, "valid: install, uninstall, start, stop, restart, status, run"},
	} {
		t.Run(strings.Join(tc.args, "_"), func(t *testing.T) {
			_, stderr, code := cli(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d stderr %q; want exit %d containing %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}

func TestEnvTwins(t *testing.T) {
	t.Parallel()
	// HEARTH_ADDR is read when --addr is absent; a flag wins over its twin.
	_, stderr, code := cli(t, "serve", "--data", t.TempDir(), "--log-level", "loud")
	if code != 2 || !strings.Contains(stderr, "log level") {
		t.Fatalf("bad flag: exit %d %q", code, stderr)
	}
	cmd := exec.Command(hearthBin, "serve", "--data", t.TempDir())
	cmd.Env = append(os.Environ(), "HEARTH_ADDR=not-an-address")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "not-an-address") {
		t.Fatalf("HEARTH_ADDR ignored: %s", out)
	}
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_ADDR=not-an-address", "HEARTH_RATE_LIMIT_BOOST=0")
	if code, _ := srv.call(t, "GET", "/healthz", "", ""); code != 200 {
		t.Fatalf("flag did not win over env: %d", code)
	}
}
