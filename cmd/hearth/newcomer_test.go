package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFirstTenMinutes follows a newcomer: help at every level, a typo in
// --data, the command that `users add` suggests pasted as it is, a key
// revoked by pasting the key, and the token lifetime setting.
func TestFirstTenMinutes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"users", "--help"}, {"keys", "--help"}, {"service", "--help"}, {"users", "add", "--help"}, {"token", "--help"}} {
		if out, errOut, code := cli(t, args...); code != 0 || (out == "" && errOut == "") {
			t.Errorf("hearth %v: exit %d, no help", args, code)
		}
	}

	if out, errOut, _ := cli(t, "keys", "--help"); !strings.Contains(out+errOut, "--kind dev|mcp|stt") {
		t.Errorf("keys --help does not name the stt kind:\n%s%s", out, errOut)
	}

	typo := filepath.Join(t.TempDir(), "typo")
	for _, args := range [][]string{{"users", "list", "--data", typo}, {"keys", "list", "--data", typo, "--user", "x"}, {"token", "--data", typo, "--user", "x"}} {
		_, errOut, code := cli(t, args...)
		if code != 2 || !strings.Contains(errOut, "holds no Hearth data") {
			t.Errorf("hearth %v: exit %d, %q", args, code, errOut)
		}
	}
	if _, err := os.Stat(typo); !os.IsNotExist(err) {
		t.Fatalf("a read-only command created %s", typo)
	}

	data := t.TempDir()
	out, errOut, code := cli(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	if code != 0 {
		t.Fatalf("users add: %d %s", code, errOut)
	}
	uid := lastLine(out)
	var suggested string
	for _, line := range strings.Split(errOut, "\n") {
		if strings.Contains(line, " keys create ") {
			suggested = strings.TrimSpace(line)
		}
	}
	words := strings.Fields(suggested)
	if len(words) == 0 || words[0] != hearthBin || !strings.Contains(suggested, "--scopes conversations:read,conversations:write") {
		t.Fatalf("suggested command %q", suggested)
	}
	var stdout, stderr bytes.Buffer
	paste := exec.Command(words[0], words[1:]...)
	paste.Stdout, paste.Stderr = &stdout, &stderr
	if err := paste.Run(); err != nil {
		t.Fatalf("the suggested command failed: %v %s", err, stderr.String())
	}
	key := lastLine(stdout.String())
	if !strings.HasPrefix(key, "hearth_dev_") || !strings.Contains(stderr.String(), "conversations:write") {
		t.Fatalf("pasted command made %q (%s)", key, stderr.String())
	}

	out, errOut, code = cli(t, "keys", "revoke", "--data", data, "--user", uid, "--key", key)
	if code != 0 || strings.Contains(out+errOut, key) {
		t.Fatalf("revoke by key: %d %q %q", code, out, errOut)
	}
	_, errOut, code = cli(t, "keys", "revoke", "--data", data, "--user", uid, "--key", key[:len(key)-3])
	if code != 2 || strings.Contains(errOut, key[:len(key)-3]) {
		t.Fatalf("revoke by a cut key: %d %q", code, errOut)
	}

	validFor := func(env ...string) time.Duration {
		t.Helper()
		cmd := exec.Command(hearthBin, "token", "--data", data, "--user", uid)
		cmd.Env = append(os.Environ(), env...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("token: %v %s", err, errb.String())
		}
		_, until, _ := strings.Cut(strings.TrimSpace(errb.String()), "valid until ")
		at, err := time.Parse(time.RFC3339, until)
		if err != nil {
			t.Fatalf("token stderr %q", errb.String())
		}
		return time.Until(at).Round(time.Hour)
	}
	if d := validFor("HEARTH_TOKEN_TTL=2h"); d != 2*time.Hour {
		t.Errorf("HEARTH_TOKEN_TTL=2h gave %v", d)
	}
	if d := validFor(); d != 24*time.Hour {
		t.Errorf("default token lifetime %v", d)
	}

	if out, _, code := cli(t, "service", "status"); code != 0 || strings.TrimSpace(out) != "not installed" {
		t.Errorf("service status: %d %q", code, out)
	}
}

// TestNewcomerTooling: what a newcomer meets before the appliance runs.
// make run installs curl (the Quick start uses it); make help prints no
// colour codes into a pipe; the serving log names the configured address
// (0.0.0.0, as the banner does) rather than Go's [::].
func TestNewcomerTooling(t *testing.T) {
	t.Parallel()
	deps, err := os.ReadFile(filepath.Join("..", "..", "scripts", "deps.sh"))
	if err != nil {
		t.Fatal(err)
	}
	var runPackages string
	for _, line := range strings.Split(string(deps), "\n") {
		if strings.HasPrefix(line, "PACKAGES=(") {
			runPackages = line
		}
	}
	if !strings.Contains(runPackages, " curl") {
		t.Errorf("make run does not install curl: %q", runPackages)
	}
	if _, err := exec.LookPath("make"); err == nil {
		cmd := exec.Command("make", "-s", "help")
		cmd.Dir = filepath.Join("..", "..")
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "test") || strings.Contains(string(out), "\x1b[") {
			t.Errorf("make help into a pipe: %v %q", err, out)
		}
	} else if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatal("make is not installed")
	}
	data := t.TempDir()
	cmd := exec.Command(hearthBin, "serve", "--data", data, "--addr", "0.0.0.0:0", "--log-format", "json")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	deadline := time.Now().Add(20 * time.Second)
	for sc.Scan() && time.Now().Before(deadline) {
		var rec struct{ Msg, URL, Open string }
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "hearth serving" {
			if !strings.HasPrefix(rec.URL, "http://0.0.0.0:") || strings.Contains(rec.URL, "[::]") || rec.Open == "" {
				t.Fatalf("serving log: url %q, open %q", rec.URL, rec.Open)
			}
			return
		}
	}
	t.Fatal("no serving log line")
}

// TestUsersAddNameTaken: running the quick start's `users add` twice makes
// a second user of the same name, which the console cannot sign in by
// name; the second add says so and names the first one's uid.
func TestUsersAddNameTaken(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	first := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	if _, errOut, _ := cli(t, "users", "add", "--data", data, "--name", "Grace Hopper"); strings.Contains(errOut, "exists already") {
		t.Fatalf("a new name was taken for an old one: %q", errOut)
	}
	out, errOut, code := cli(t, "users", "add", "--data", data, "--name", "ada lovelace")
	if code != 0 || lastLine(out) == first || !strings.Contains(errOut, `a user named "Ada Lovelace" exists already (`+first+")") || !strings.Contains(errOut, "--user "+first) {
		t.Fatalf("second add of a name: exit %d %q %q", code, out, errOut)
	}
}

// TestHelpNamesEveryUsersSubcommand: the top-level help's users line names
// every subcommand `hearth users --help` documents, so a newcomer reading
// the first help finds invite, reset and the rest.
func TestHelpNamesEveryUsersSubcommand(t *testing.T) {
	t.Parallel()
	top, _, _ := cli(t, "--help")
	var line string
	for _, l := range strings.Split(top, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "hearth users ") {
			line = l
		}
	}
	users, _, code := cli(t, "users", "--help")
	subs := 0
	for _, l := range strings.Split(users, "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != "hearth" || f[1] != "users" {
			continue
		}
		subs++
		if !strings.Contains(line, f[2]) {
			t.Errorf("hearth --help's users line %q lacks %q", line, f[2])
		}
	}
	if code != 0 || subs < 9 {
		t.Fatalf("users --help: exit %d, %d subcommands:\n%s", code, subs, users)
	}
}
