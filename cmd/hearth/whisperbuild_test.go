package main

import (
	"os"
	"os/exec"
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
	root := copyScripts(t, "whisper.sh", "whisper-env.sh", "cache.sh")
	bin := fakeFailingNPM(t, root, "nodejs-whisper")
	cmd := exec.Command("bash", "scripts/whisper-env.sh", "--build")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "WHISPER_CPP_DIR=", "HEARTH_BUILD_CACHE=")
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
