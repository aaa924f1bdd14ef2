package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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

// readmeBlock is one fenced block of README.md.
type readmeBlock struct {
	line int
	text string
}

func readmeShellBlocks(t *testing.T) []readmeBlock { return readmeBlocks(t, "sh") }

// readmeBlocks are README.md's fenced blocks of language lang, unindented.
func readmeBlocks(t *testing.T, lang string) []readmeBlock {
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
		case cur == nil && trimmed == "```"+lang:
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

// TestReadmeMCPClientConfigs: each MCP client configuration the README
// gives (Claude Desktop through mcp-remote, Cursor) is valid JSON and,
// with HOST and the key filled in, opens an MCP session on a running box:
// the URL it names is served and the header it sends is accepted.
func TestReadmeMCPClientConfigs(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "mcp")
	tried := 0
	for _, b := range readmeBlocks(t, "json") {
		if !strings.Contains(b.text, "mcpServers") {
			continue
		}
		text := strings.NewReplacer("http://HOST:8080", srv.base, "hearth_mcp_…", key).Replace(b.text)
		var cfg struct {
			MCPServers map[string]struct {
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
				Command string            `json:"command"`
				Args    []string          `json:"args"`
				Env     map[string]string `json:"env"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(text), &cfg); err != nil {
			t.Errorf("README line %d: not JSON: %v\n%s", b.line, err, b.text)
			continue
		}
		for name, c := range cfg.MCPServers {
			endpoint, auth := c.URL, c.Headers["Authorization"]
			if c.Command != "" { // mcp-remote: the URL, and the header from its env
				if c.Command != "npx" || len(c.Args) < 2 || c.Args[0] != "mcp-remote" {
					t.Errorf("README line %d: %s starts %s %v, not npx mcp-remote", b.line, name, c.Command, c.Args)
					continue
				}
				endpoint = c.Args[1]
				for i, a := range c.Args {
					if a == "--header" && i+1 < len(c.Args) {
						h := os.Expand(c.Args[i+1], func(v string) string { return c.Env[v] })
						_, auth, _ = strings.Cut(h, ":")
					}
				}
			}
			tried++
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`))
			req.Header.Set("Authorization", strings.TrimSpace(auth))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("README line %d: %s: %v", b.line, name, err)
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), "hearth-mcp-server") {
				t.Errorf("README line %d: %s: POST %s → %d %s", b.line, name, endpoint, resp.StatusCode, body)
			}
		}
	}
	if tried < 2 {
		t.Errorf("the README gives %d MCP client configurations; want Claude Desktop's and Cursor's", tried)
	}
}
