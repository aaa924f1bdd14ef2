package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runSmoke runs scripts/smoke.sh (what make smoke runs) against base and
// data with the test's binary.
func runSmoke(t *testing.T, base, data string) (string, string, int) {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "smoke.sh"))
	cmd := exec.Command("bash", script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HEARTH_URL="+base, "HEARTH_DATA="+data, "HEARTH_BIN="+hearthBin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestSmoke runs make smoke's script against a served binary, as a
// newcomer does after make run: every step passes, twice (the second run
// reuses its user), the words spoken are heard, and its keys are revoked.
// Pointed at nothing, or at a folder with no appliance, it stops at the
// first step with the reason.
func TestSmoke(t *testing.T) {
	t.Parallel()
	needTool(t, "curl", "text2wave")
	needPocketSphinx(t)
	data := t.TempDir()
	srv := startServe(t, data)
	for run := 1; run <= 2; run++ {
		out, errOut, code := runSmoke(t, srv.base, data)
		if code != 0 || strings.Count(out, "✓ ") != 6 || !strings.Contains(out, "✓ transcribe: "+heardPhrase) ||
			!strings.Contains(out, "✓ live session: heard and processed: ") {
			t.Fatalf("smoke run %d: exit %d\n%s%s\nserver log:\n%s", run, code, out, errOut, srv.logs)
		}
		if made := strings.Contains(out, "made by an earlier run"); made != (run == 2) {
			t.Errorf("run %d reused its user: %v\n%s", run, made, out)
		}
	}
	users := mustCLI(t, "users", "list", "--data", data)
	uid := strings.Fields(users)[0]
	keys, _, _ := cli(t, "keys", "list", "--data", data, "--user", uid)
	lines := strings.Split(strings.TrimSpace(keys), "\n")[1:]
	for _, line := range lines {
		if f := strings.Fields(line); f[len(f)-1] == "-" { // the REVOKED column
			t.Errorf("a smoke key is not revoked: %s", line)
		}
	}
	if len(lines) != 2 {
		t.Errorf("%d keys, want the two runs'\n%s", len(lines), keys)
	}

	for _, tc := range []struct{ name, base, data, want string }{
		{"NothingServes", "http://127.0.0.1:1", data, "✗ health: nothing answers at http://127.0.0.1:1"},
		{"WrongData", srv.base, t.TempDir(), "holds no Hearth data; set HEARTH_DATA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runSmoke(t, tc.base, tc.data)
			if code != 1 || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}
