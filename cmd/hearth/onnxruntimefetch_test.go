package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestONNXRuntimeFetchFailsLoudly: when the onnxruntime package cannot be
// fetched (npm answers with an error), scripts/onnxruntime.sh, which make
// test runs, exits non-zero with npm's reason, so that make stops there
// instead of the ONNX speaker tests failing later without one.
func TestONNXRuntimeFetchFailsLoudly(t *testing.T) {
	t.Parallel()
	root := copyScripts(t, "onnxruntime.sh", "cache.sh")
	bin := fakeFailingNPM(t, root, "onnxruntime-node")
	cmd := exec.Command("bash", "scripts/onnxruntime.sh")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "HEARTH_BUILD_CACHE=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a failed fetch exited 0:\n%s", out)
	}
	for _, want := range []string{"403 Forbidden", "could not fetch onnxruntime-node"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("the output does not say %q:\n%s", want, out)
		}
	}
	if libs, _ := filepath.Glob(filepath.Join(root, ".cache", "onnxruntime", "*", "*")); len(libs) != 0 {
		t.Fatalf("a failed fetch left %v in the cache", libs)
	}
}

// copyScripts copies the named scripts into a fresh folder's scripts/, so
// that they find none of the repository's build cache.
func copyScripts(t *testing.T, names ...string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "scripts", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "scripts", name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// fakeFailingNPM writes an npm that answers as the registry does when it
// refuses the package, and returns its folder.
func fakeFailingNPM(t *testing.T, root, pkg string) string {
	t.Helper()
	bin := filepath.Join(root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\necho 'npm error 403 Forbidden - GET " + pkg + "' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
