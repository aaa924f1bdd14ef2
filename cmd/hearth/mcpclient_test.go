package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPTypeScriptClient drives `hearth serve` with the official TypeScript
// MCP client (testdata/mcp-client, pinned in its package-lock.json). make
// test installs the client and sets HEARTH_REQUIRE_E2E_TOOLS, so that the
// test fails rather than skips when the client is missing.
func TestMCPTypeScriptClient(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs("testdata/mcp-client")
	node, err := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	if err != nil || modErr != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("the TypeScript MCP client is not installed (node: %v, modules: %v); run make mcp-client", err, modErr)
		}
		t.Skip("TypeScript MCP client not installed; make test installs it")
	}

	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	dev := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev", "--scopes", "conversations:write,conversations:read")
	mcpKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "mcp")
	srv := startServe(t, data)
	if code, body := srv.call(t, "POST", "/v1/dev/user/conversations/from-segments", dev, `{"transcript_segments":[
		{"text":"We need to finish the quarterly budget before the board meeting.","is_user":true,"start":0,"end":4},
		{"text":"I will send the report to finance on Friday.","is_user":true,"start":4,"end":8}]}`); code != 200 {
		t.Fatalf("seed conversation: %d %s", code, body)
	}

	// Streamable HTTP, then the older HTTP+SSE transport on the same URL,
	// then streamable HTTP at /mcp, where clients that assume it look.
	for _, run := range []struct{ path, mode string }{{"/v1/mcp/sse", "streamable"}, {"/v1/mcp/sse", "sse"}, {"/mcp", "streamable"}} {
		mode := run.mode + " " + run.path
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, node, "client.mjs", srv.base+run.path, mcpKey, run.mode)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		cancel()
		t.Logf("TypeScript client (%s):\n%s", mode, out)
		if err != nil || !strings.Contains(string(out), "PASS typescript client") {
			t.Fatalf("TypeScript MCP client over %s failed: %v\nserver log:\n%s", mode, err, srv.logs)
		}
	}
}

// TestMCPInspectorCLI drives the appliance with the MCP Inspector's CLI
// (@modelcontextprotocol/inspector, pinned in testdata/mcp-client) over
// both transports a URL ending in /sse may be reached by: streamable HTTP,
// and the older HTTP+SSE, which the Inspector picks for such a URL.
func TestMCPInspectorCLI(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs("testdata/mcp-client")
	node, err := exec.LookPath("node")
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	_, binErr := os.Stat(bin)
	if err != nil || binErr != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("the MCP Inspector is not installed (node: %v, inspector: %v); run make mcp-client", err, binErr)
		}
		t.Skip("MCP Inspector not installed; make test installs it")
	}
	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	mcpKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "mcp")
	srv := startServe(t, data)
	home := t.TempDir() // the Inspector keeps a catalog under $HOME
	for _, transport := range []string{"http", "sse"} {
		for _, call := range [][]string{
			{"--method", "tools/list"},
			{"--method", "tools/call", "--tool-name", "get_user_profile"},
		} {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			args := append([]string{bin, "--cli", srv.base + "/v1/mcp/sse", "--transport", transport,
				"--header", "Authorization: Bearer " + mcpKey}, call...)
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Env = append(os.Environ(), "HOME="+home)
			out, err := cmd.CombinedOutput()
			cancel()
			want := `"get_user_profile"`
			if call[1] == "tools/call" {
				want = `Name: Ada Lovelace`
			}
			if err != nil || !strings.Contains(string(out), want) {
				t.Errorf("inspector over %s %v: %v\n%.600s", transport, call, err, out)
			}
		}
	}
}
