package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWhisperBuildFailsLoudly: when whisper.cpp's source cannot be fetched
// (npm answers with an error), scripts/whisper-env.sh --build, which make
// build runs, fails with npm's reason instead of exiting 0 and leaving a
// binary without the whisper route.
func TestWhisperBuildFailsLoudly(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"cmake", "c++"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is not installed (scripts/deps.sh installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	if exec.Command("pkg-config", "--exists", "whisper").Run() == nil {
		t.Skip("a system libwhisper is installed: make build uses it and builds nothing")
	}
	// A copy of the scripts, so that no cache of the repository's is found.
	root := t.TempDir()
	for _, name := range []string{"whisper.sh", "whisper-env.sh"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "scripts", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "scripts", name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, "bin")
	os.MkdirAll(bin, 0o755)
	fakeNPM := "#!/bin/sh\necho 'npm error 403 Forbidden - GET nodejs-whisper' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(fakeNPM), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "scripts/whisper-env.sh", "--build")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "WHISPER_CPP_DIR=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a failed fetch exited 0:\n%s", out)
	}
	for _, want := range []string{"403 Forbidden", "could not fetch", "did not build"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("the output does not say %q:\n%s", want, out)
		}
	}
}
