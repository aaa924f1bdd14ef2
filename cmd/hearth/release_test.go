package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The release binaries (make release) run on their targets' emulators:
// the Windows .exe under wine64, the arm64 build under qemu-user. Cross
// builds take minutes, so these run in `make test-release` (which CI
// calls), given HEARTH_RELEASE_DIR.

func releaseBinary(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("HEARTH_RELEASE_DIR")
	if dir == "" {
		t.Skip("release binaries are tested by make test-release (HEARTH_RELEASE_DIR)")
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s: %v (run make release)", name, err)
	}
	return p
}

func findTool(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Fatalf("%s not installed (scripts/deps.sh release)", names[0])
	return ""
}

// emulated runs a release binary through its emulator.
type emulated struct {
	t      *testing.T
	prefix []string
	env    []string
}

func (e emulated) cmd(ctx context.Context, args ...string) *exec.Cmd {
	all := append(append([]string{}, e.prefix[1:]...), args...)
	c := exec.CommandContext(ctx, e.prefix[0], all...)
	c.Env = append(os.Environ(), e.env...)
	return c
}

func (e emulated) run(args ...string) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	c := e.cmd(ctx, args...)
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		e.t.Fatalf("%v: %v\n%s\n%s", args, err, out.String(), errb.String())
	}
	return out.String()
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// exerciseRelease: version, a user and key, serve answering /healthz, a
// from-segments create, and the service configuration it would install.
func exerciseRelease(t *testing.T, e emulated, data, svcData, wantPlatform string) {
	if out := e.run("version"); !strings.HasPrefix(out, "hearth ") {
		t.Fatalf("version: %q", out)
	}
	uid := lastLine(e.run("users", "add", "--data", data, "--name", "Ada"))
	key := lastLine(e.run("keys", "create", "--data", data, "--user", uid, "--kind", "dev", "--scopes", "conversations:read,conversations:write"))
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs bytes.Buffer
	serve := e.cmd(ctx, "serve", "--data", data, "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--mdns=false")
	serve.Stdout, serve.Stderr = &logs, &logs
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); serve.Wait() }()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not answer /healthz: %v\n%s", err, logs.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	s := &server{base: base}
	code, body := s.call(t, "POST", "/v1/dev/user/conversations/from-segments", key, `{"transcript_segments":[
		{"text":"The boiler service is booked for Tuesday morning, and I need to leave the side gate open.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":5}]}`)
	if code != 200 || !strings.Contains(body, `"status":"completed"`) {
		t.Fatalf("from-segments: %d %s", code, body)
	}
	out := e.run("service", "install", "--dry-run", "--data", svcData, "--addr", "0.0.0.0:8080")
	if !strings.Contains(out, "platform:     "+wantPlatform) || !strings.Contains(out, "service run ") || !strings.Contains(out, "--data "+svcData) || !strings.Contains(out, "--addr 0.0.0.0:8080") {
		t.Fatalf("service install --dry-run:\n%s", out)
	}
	t.Logf("service configuration:\n%s", out)
}

func TestReleaseWindowsUnderWine(t *testing.T) {
	exe := releaseBinary(t, "hearth-windows-amd64.exe")
	wine := findTool(t, "wine64", "/usr/lib/wine/wine64")
	mingw := findTool(t, "x86_64-w64-mingw32-gcc")
	prefix := t.TempDir()
	env := []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml="}
	boot := exec.Command(wine, "wineboot", "--init")
	boot.Env = append(os.Environ(), env...)
	if out, err := boot.CombinedOutput(); err != nil {
		t.Fatalf("wineboot: %v\n%s", err, out)
	}
	// Go programs since 1.24 draw randomness from ProcessPrng in
	// bcryptprimitives.dll, which Windows 10 and later ship and Wine 8
	// lacks: a one-function stand-in over RtlGenRandom fills the gap.
	dll := filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err != nil {
		src := filepath.Join(t.TempDir(), "prng.c")
		os.WriteFile(src, []byte(`#include <windows.h>
#include <ntsecapi.h>
BOOL WINAPI ProcessPrng(PBYTE p, SIZE_T n) {
	while (n > 0) { ULONG k = n > 0x40000000 ? 0x40000000 : (ULONG)n; if (!RtlGenRandom(p, k)) return FALSE; p += k; n -= k; }
	return TRUE;
}
`), 0o600)
		if out, err := exec.Command(mingw, "-shared", "-O2", "-o", dll, src, "-ladvapi32").CombinedOutput(); err != nil {
			t.Fatalf("stand-in bcryptprimitives.dll: %v\n%s", err, out)
		}
	}
	data := filepath.Join(t.TempDir(), "data")
	exerciseRelease(t, emulated{t: t, prefix: []string{wine, exe}, env: env}, "Z:"+strings.ReplaceAll(data, "/", `\`),
		`C:\ProgramData\Hearth`, "windows-service")
}

func TestReleaseArm64UnderQemu(t *testing.T) {
	bin := releaseBinary(t, "hearth-linux-arm64")
	qemu := findTool(t, "qemu-aarch64", "qemu-aarch64-static")
	out, _ := exec.Command("file", bin).Output()
	if len(out) > 0 && !strings.Contains(string(out), "aarch64") {
		t.Fatalf("not an arm64 binary: %s", out)
	}
	exerciseRelease(t, emulated{t: t, prefix: []string{qemu, "-L", "/usr/aarch64-linux-gnu", bin}},
		filepath.Join(t.TempDir(), "data"), "/var/lib/hearth", "")
}
