package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConsoleInChromium runs the console in a headless Chromium, the
// `chromium` on PATH (make test puts scripts/chromium.sh's first: Debian's,
// or where the distribution has none that runs, one from the npm
// registry), driven by playwright-core (testdata/console-e2e, pinned in its
// package-lock.json; make console-e2e installs it; no browser download).
// The owner claims the appliance, creates a key, and works on a
// conversation made through the API with it: search, edit, lock, delete;
// records a voice profile from the (fake) microphone; watches a live
// session; invites a member; and a second user sees none of it nor any
// owner-only control, and the invited member joins with the link. Every page is screenshotted,
// light and dark, into HEARTH_CONSOLE_SHOTS (default: a temporary folder;
// make console-shots writes docs/console/).
func TestConsoleInChromium(t *testing.T) {
	t.Parallel()
	dir, node, chromium := consoleBrowser(t)
	shots := os.Getenv("HEARTH_CONSOLE_SHOTS")
	if shots == "" {
		shots = filepath.Join(t.TempDir(), "shots")
	}
	// The fake microphone plays the owner reading aloud.
	audio := voiceWAV(t, "cmu_us_slt_arctic_hts",
		"I am recording my voice so that the appliance knows when I am the one speaking.",
		"The quick brown fox jumps over the lazy dog, and the garden shed needs a new coat of paint.")
	packets := speechOpusFS320(t, "We should repaint the garden shed before the rain.")

	data := t.TempDir()
	// The appliance lives in Berlin, the browser in Los Angeles: the
	// console shows the user's times (the appliance's zone, theirs having
	// none of its own), not the browser's.
	srv := startServe(t, data, writeScript(t, `{"name":"scripted","utterances":[{"text":"We should repaint the garden shed before the rain.","speaker":0}]}`),
		"TZ=Europe/Berlin")
	code := setupCode(t, srv)

	cmd := exec.Command(node, "console.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BASE="+srv.base, "CODE="+code, "OWNER_NAME=Ada", "OWNER_PASSWORD=correct horse battery",
		"OTHER_NAME=Grace", "OTHER_PASSWORD=grace's own password", "SHOTS="+shots, "CHROMIUM="+chromium, "AUDIO="+audio)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killer := time.AfterFunc(5*time.Minute, func() { cmd.Process.Kill() })
	defer killer.Stop()

	var out strings.Builder
	ok := false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		switch {
		case strings.HasPrefix(line, "OWNER "):
			// People for the People page, and a second user with a
			// password from the shell, once the owner has claimed the
			// appliance (a password would claim it).
			namePeople(t, srv, data, strings.TrimPrefix(line, "OWNER "))
			setPassword(t, data, mustCLI(t, "users", "add", "--data", data, "--name", "Grace"), "grace's own password")
			io.WriteString(stdin, "OWNER-DONE\n")
		case strings.HasPrefix(line, "LIVE "):
			// Stream a session as the app does while the live page is open.
			uid := strings.TrimPrefix(line, "LIVE ")
			c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 2, ""), ownerToken(t, data, uid))
			go c.stream(packets, 1) // the socket stays open until the test ends
		case line == "LIVE-SEEN":
			io.WriteString(stdin, "LIVE-DONE\n")
		case strings.HasPrefix(line, "BROWSER "):
			// Which Chromium ran: the distribution's or the npm one
			// (scripts/chromium.sh).
			t.Logf("Chromium %s at %s", strings.TrimPrefix(line, "BROWSER "), chromium)
		case line == "OK":
			ok = true
		case strings.HasPrefix(line, "FIRSTPAINT "), strings.HasPrefix(line, "FIRSTLOAD "), strings.HasPrefix(line, "USABLE "), strings.HasPrefix(line, "JSBYTES "):
			t.Log(line)
		}
	}
	err := cmd.Wait()
	if !ok || err != nil {
		t.Fatalf("the console test failed (%v); screenshots in %s\n%s\n%s\nserver log:\n%s", err, shots, out.String(), stderr.String(), tail(srv.logs.String(), 40))
	}
	for _, page := range []string{"setup", "keys", "conversations", "search", "conversation", "memories", "action-items", "people", "speech", "system", "members", "live", "signin"} {
		for _, scheme := range []string{"light", "dark"} {
			if st, err := os.Stat(filepath.Join(shots, page+"-"+scheme+".png")); err != nil || st.Size() < 2000 {
				t.Errorf("no screenshot of %s (%s): %v", page, scheme, err)
			}
		}
	}
	if strings.Contains(srv.logs.String(), "correct horse") || strings.Contains(srv.logs.String(), "dg-secret") {
		t.Error("a password or provider key reached the log")
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// consoleBrowser finds what the console's browser tests drive: the
// scripts' folder, node and the Chromium playwright-core launches. Under
// make test (HEARTH_REQUIRE_E2E_TOOLS) a missing one fails the test; make
// console-e2e installs them.
func consoleBrowser(t *testing.T) (dir, node, chromium string) {
	t.Helper()
	dir, _ = filepath.Abs("testdata/console-e2e")
	node, nodeErr := exec.LookPath("node")
	chromium, chromeErr := exec.LookPath("chromium")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "playwright-core"))
	if nodeErr != nil || chromeErr != nil || modErr != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("the console's browser test needs node, chromium and playwright-core (%v; %v; %v): run make console-e2e", nodeErr, chromeErr, modErr)
		}
		t.Skip("node, chromium or playwright-core missing; make console-e2e installs them")
	}
	return dir, node, chromium
}
