package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// needTool skips without a tool, and fails under make test, where every
// tool the tests drive is installed first.
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("%s is missing (scripts/deps.sh test installs it)", name)
		}
		t.Skipf("%s is missing", name)
	}
}

func TestOpusLoopIsCELT20ms(t *testing.T) {
	needTool(t, "ffmpeg")
	loop, err := makeOpusLoop(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(loop.packets); n < 149 || n > 152 {
		t.Fatalf("%d packets for 3 s of 20 ms frames", n)
	}
	for i, p := range loop.packets {
		// The TOC byte: configs 16-31 are CELT-only, and config%4 == 3 is
		// a 20 ms frame; code 0 is one frame per packet.
		config, code := p[0]>>3, p[0]&3
		if config < 16 || config%4 != 3 || code != 0 {
			t.Fatalf("packet %d: TOC %#x is not one CELT 20 ms frame", i, p[0])
		}
	}
	if _, err := oggPackets([]byte("OggS but not really")); err == nil {
		t.Fatal("a broken Ogg stream parsed")
	}
}

// TestListenScenarioAgainstHearth runs the socket scenario briefly against
// a real hearth serve, in both modes.
func TestListenScenarioAgainstHearth(t *testing.T) {
	needTool(t, "ffmpeg")
	if testing.Short() {
		t.Skip("builds hearth")
	}
	bin := filepath.Join(t.TempDir(), "hearth")
	build := exec.Command("go", "build", "-o", bin, "../hearth")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build hearth: %v", err)
	}
	for _, mode := range []string{"custom", "scripted"} {
		t.Run(mode, func(t *testing.T) {
			cfg, err := parseFlags([]string{"-hearth", bin, "-duration", "4s", "-scenarios", "listen",
				"-listen-sessions", "6", "-listen-mode", mode}, os.Stderr)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
				t.Fatalf("run: %v\n%s", err, stderr.String())
			}
			md := stdout.String()
			row := tableRow(md, "6/6")
			if len(row) != 16 {
				t.Fatalf("no socket row with every session connected:\n%s\n%s", md, stderr.String())
			}
			if row[1] != "0" {
				t.Errorf("%s sessions dropped", row[1])
			}
			if !strings.HasSuffix(row[2], "/6") {
				t.Errorf("held in real time %q, want k/6", row[2])
			}
			if n, _ := strconv.Atoi(row[3]); n < 6 {
				t.Errorf("%d segments from 6 sessions in 4 s", n)
			}
			if !strings.HasSuffix(row[8], "%") || row[8] == "0.0 %" {
				t.Errorf("no segment within flush+1 s: %v", row)
			}
			if !strings.Contains(row[13], "MiB → ") || !strings.HasSuffix(row[14], "MiB") {
				t.Errorf("no server memory (idle → peak, per session): %v", row)
			}
			if !strings.Contains(md, "load average") {
				t.Errorf("the pass's load average is not reported:\n%s", md)
			}
		})
	}
}
