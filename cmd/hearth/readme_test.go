package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeNotRun names the README's shell blocks this test does not paste,
// by their first line, and why. Any other block is run: a new one fails
// here until it runs or is explained.
var readmeNotRun = map[string]string{
	"make run":   "make run builds and serves; the test serves the binary it built (startServe), which is what make run starts",
	"make build": "installs a system service (root and systemd); TestServiceInstallWritesBooleanFlagsWhole checks what install registers through --dry-run",
	"make help":  "the developers' targets: CI runs them",
}

// readmeBlock is one fenced sh block of README.md.
type readmeBlock struct {
	line int
	text string
}

func readmeShellBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []readmeBlock
	var cur *readmeBlock
	var indent string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```sh":
			cur, indent = &readmeBlock{line: n}, line[:strings.Index(line, "```")]
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += strings.TrimPrefix(line, indent) + "\n"
		}
	}
	return blocks
}

// TestReadmeCommands pastes the README's shell blocks, in order, into one
// shell, as a newcomer does in a second terminal while make run serves:
// in a folder where bin/hearth is the binary under test and ./data the
// folder it serves, with localhost:8080 meaning the served binary. Each
// block must succeed, and what it prints must be what the README says.
func TestReadmeCommands(t *testing.T) {
	t.Parallel()
	needTool(t, "curl", "text2wave", "make")
	needPocketSphinx(t)

	home := t.TempDir()
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	os.Mkdir(filepath.Join(home, "bin"), 0o755)
	for link, target := range map[string]string{
		"bin/hearth": hearthBin,
		"Makefile":   filepath.Join(repo, "Makefile"),
		"scripts":    filepath.Join(repo, "scripts"),
	} {
		if err := os.Symlink(target, filepath.Join(home, link)); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(home, "data")
	srv := startServe(t, data)
	u, _ := url.Parse(srv.base)

	var script strings.Builder
	script.WriteString("set -eo pipefail\n")
	var ran []readmeBlock
	for _, b := range readmeShellBlocks(t) {
		words := strings.Fields(strings.SplitN(b.text, "\n", 2)[0])
		if _, skip := readmeNotRun[strings.Join(words[:min(2, len(words))], " ")]; skip {
			continue
		}
		fmt.Fprintf(&script, "echo '### README.md:%d'\n%s\n", b.line, strings.ReplaceAll(b.text, "localhost:8080", u.Host))
		ran = append(ran, b)
	}
	cmd := exec.Command("bash", "-c", script.String())
	cmd.Dir = home
	// make smoke's address; the data folder and binary are its defaults.
	cmd.Env = append(os.Environ(), "HEARTH_URL="+srv.base)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's commands stop (the last ### line names the block): %v\n%s\nserver log:\n%s", err, out.String(), srv.logs)
	}

	// What each block printed, found by a command it holds.
	printed := map[string]string{}
	for i, part := range strings.Split(out.String(), "### README.md:")[1:] {
		printed[ran[i].text] = part
	}
	for _, want := range []struct {
		block string   // a command of the block
		says  []string // what it prints (speech compared as words, without case or punctuation)
	}{
		{"conversations/from-segments", []string{`"status":"completed"`, "Marketing is over by ten percent"}},
		{"make smoke", []string{"✓ health", "✓ transcribe: " + heardPhrase, "✓ live session: heard and processed"}},
		{"listen --file hello.wav", []string{"· ready ", "SPEAKER_00: " + heardPhrase, "· processed: "}},
		{"limit=1", []string{heardPhrase}}, // the recording is the newest conversation
		{"transcribe hello.wav", []string{"SPEAKER_00: " + heardPhrase}},
		{"bind-firebase", []string{"bound Firebase uid FIREBASE_UID"}},
		{"--kind mcp", []string{`"serverInfo":{"name":"hearth-mcp-server"`}},
	} {
		found := false
		for text, got := range printed {
			if !strings.Contains(text, want.block) {
				continue
			}
			found = true
			for _, say := range want.says {
				if !strings.Contains(got, say) && !hasWords(got, say) {
					t.Errorf("the README's block with %q did not print %q:\n%s", want.block, say, got)
				}
			}
		}
		if !found {
			t.Errorf("no README block runs %q any more", want.block)
		}
	}
	if users, _, _ := cli(t, "users", "list", "--data", data); !strings.Contains(users, "FIREBASE_UID") {
		t.Errorf("bind-firebase did not bind:\n%s", users)
	}
}
