package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// requireStrace returns strace's path. The no-outbound promise is only
// checked when every connect() can be observed, so under make test
// (HEARTH_REQUIRE_E2E_TOOLS=1) a missing strace fails the run.
func requireStrace(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("strace")
	if err == nil {
		// ptrace may be forbidden (some containers): then we cannot observe.
		if err = exec.Command(p, "-f", "-e", "trace=connect", "-o", os.DevNull, "true").Run(); err == nil {
			return p
		}
	}
	if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatalf("strace is needed to observe outbound connections (apt-get install strace): %v", err)
	}
	t.Skipf("strace unusable: %v", err)
	return ""
}

// startServeTraced is startServe with `hearth serve` in its default
// configuration running under strace, which records every connect() and
// every datagram sent to an explicit address by any thread or child.
func startServeTraced(t *testing.T, strace, data, trace string) *server {
	t.Helper()
	cmd := exec.Command(strace, "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg,accept,accept4", "-o", trace,
		hearthBin, "serve", "--data", data, "--addr", "127.0.0.1:0", "--log-format", "json")
	// The environment is stripped of every HEARTH_* twin: the defaults are what is tested.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HEARTH_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
	case <-time.After(30 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatalf("hearth serve did not start within 30s\n%s", s.logs)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
	})
	return s
}

// mdnsGroups are the only non-loopback destinations a default appliance
// may send to: DNS-SD advertisement is link-local multicast, which routers
// never forward, so it is the LAN and not the internet.
var mdnsGroups = map[string]bool{"224.0.0.251:5353": true, "[ff02::fb]:5353": true}

var (
	reFamily = regexp.MustCompile(`sa_family=(AF_INET6?)\b`)
	rePort   = regexp.MustCompile(`sin6?_port=htons\((\d+)\)`)
	reAddr4  = regexp.MustCompile(`sin_addr=inet_addr\("([^"]+)"\)`)
	reAddr6  = regexp.MustCompile(`inet_pton\(AF_INET6, "([^"]+)"`)
)

// outboundDestinations reads an strace log and returns every IP
// destination that is neither loopback nor an mDNS group, with the line.
func outboundDestinations(log string) []string {
	var bad []string
	for _, line := range strings.Split(log, "\n") {
		fam := reFamily.FindStringSubmatch(line)
		if fam == nil {
			continue // unix sockets, netlink, sends on connected sockets
		}
		var host string
		if m := reAddr4.FindStringSubmatch(line); m != nil {
			host = m[1]
		} else if m := reAddr6.FindStringSubmatch(line); m != nil {
			host = m[1]
		}
		port := ""
		if m := rePort.FindStringSubmatch(line); m != nil {
			port = m[1]
		}
		ip := net.ParseIP(host)
		if ip != nil && ip.IsLoopback() {
			continue
		}
		if ip != nil && ip.IsUnspecified() && port == "0" {
			continue // AF_UNSPEC-style disconnects Go's resolver issues
		}
		if mdnsGroups[net.JoinHostPort(host, port)] {
			continue
		}
		bad = append(bad, line)
	}
	return bad
}

func TestOutboundDestinationsParser(t *testing.T) {
	log := strings.Join([]string{
		`10 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT`,
		`10 connect(7, {sa_family=AF_INET, sin_port=htons(41234), sin_addr=inet_addr("127.0.0.1")}, 16) = 0`,
		`10 connect(7, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0`,
		`11 sendto(9, "\0\0", 12, 0, {sa_family=AF_INET, sin_port=htons(5353), sin_addr=inet_addr("224.0.0.251")}, 16) = 12`,
		`11 sendto(9, "\0\0", 12, 0, {sa_family=AF_INET6, sin6_port=htons(5353), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "ff02::fb", &sin6_addr), sin6_scope_id=0}, 28) = 12`,
		`12 connect(8, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("140.82.112.3")}, 16) = -1 ENETUNREACH`,
		`12 connect(8, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("192.168.1.1")}, 16) = 0`,
		`12 sendto(9, "\0\0", 12, 0, {sa_family=AF_INET, sin_port=htons(5354), sin_addr=inet_addr("224.0.0.251")}, 16) = 12`,
		`12 sendto(4, "x", 1, 0, NULL, 0) = 1`,
	}, "\n")
	bad := outboundDestinations(log)
	if len(bad) != 3 || !strings.Contains(bad[0], "140.82.112.3") || !strings.Contains(bad[1], "192.168.1.1") || !strings.Contains(bad[2], "5354") {
		t.Fatalf("flagged %q", bad)
	}
}

// TestNoOutboundByDefault runs the real binary in its default
// configuration under strace, drives the API and a live /v4/listen session
// with real speech through it, and asserts that nothing it did tried to
// reach past loopback (mDNS multicast on the LAN excepted, see mdnsGroups).
func TestNoOutboundByDefault(t *testing.T) {
	t.Parallel()
	// PocketSphinx is the route a default configuration hears with: a build
	// without it processes no recording, so it skips (make test fails).
	needPocketSphinx(t)
	strace := requireStrace(t)
	packets := speechOpusFS320(t, "Remember to water the tomatoes in the greenhouse tomorrow morning.")
	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Grace Hopper")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev",
		"--scopes", "conversations:read,conversations:write,memories:read,action_items:read")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	trace := filepath.Join(t.TempDir(), "strace.log")
	srv := startServeTraced(t, strace, data, trace)

	if code, body := srv.call(t, "GET", "/healthz", "", ""); code != 200 {
		t.Fatalf("healthz: %d %s", code, body)
	}
	code, body := srv.call(t, "POST", "/v1/dev/user/conversations/from-segments", key, `{"transcript_segments":[
		{"text":"The plumber comes on Thursday to fix the kitchen sink, and I must call the bank about the mortgage.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":5}]}`)
	if code != 200 {
		t.Fatalf("from-segments: %d %s", code, body)
	}
	for _, p := range []string{"/v1/dev/user/conversations", "/v1/dev/user/memories", "/v1/dev/user/action-items"} {
		if code, body := srv.call(t, "GET", p, key, ""); code != 200 {
			t.Fatalf("GET %s: %d %s", p, code, body)
		}
	}

	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 2, ""), token)
	c.until(20*time.Second, "service_status", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(packets, 4)
	// However the default speech route heard it, the recording ends after
	// two seconds of silence and is processed: the whole pipeline ran.
	c.until(60*time.Second, "memory_created", func(m wsMsg) bool { return event(m, "memory_created") != nil })

	syscall.Kill(-srv.cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-srv.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("hearth serve did not stop\n%s", srv.logs)
	}
	log, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	// The server's own accepted connections prove the trace saw its sockets.
	if !regexp.MustCompile(`accept4?\(.*127\.0\.0\.1`).Match(log) {
		t.Fatalf("strace recorded no accepted loopback connection; the observation is broken:\n%s", log)
	}
	if bad := outboundDestinations(string(log)); len(bad) > 0 {
		t.Fatalf("the default configuration reached past loopback:\n%s", strings.Join(bad, "\n"))
	}
	t.Logf("observed %d traced socket calls, all loopback or mDNS", strings.Count(string(log), "\n"))
}
