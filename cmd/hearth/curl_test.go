package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMCPRawJSONRPCWithCurl speaks raw JSON-RPC to the running appliance
// with curl, as a person debugging a connector would.
func TestMCPRawJSONRPCWithCurl(t *testing.T) {
	t.Parallel()
	curlBin, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("curl is not installed; scripts/deps.sh installs it")
		}
		t.Skip("curl not installed")
	}
	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "mcp")
	srv := startServe(t, data)
	url := srv.base + "/v1/mcp/sse"

	curl := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(curlBin, append([]string{"-sS", "--max-time", "20", "-D", "-"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("curl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	post := func(session, accept, body string) string {
		args := []string{"-X", "POST", url, "-H", "Authorization: " + key, "-H", "Content-Type: application/json", "-H", "Accept: " + accept, "-d", body}
		if session != "" {
			args = append(args, "-H", "Mcp-Session-Id: "+session)
		}
		return curl(args...)
	}

	// A bare key (no "Bearer") works, as with the reference.
	out := post("", "application/json", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if !strings.Contains(out, `"protocolVersion":"2025-03-26"`) || !strings.Contains(out, `"name":"hearth-mcp-server"`) {
		t.Fatalf("initialize:\n%s", out)
	}
	m := regexp.MustCompile(`(?i)mcp-session-id: (\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no session id:\n%s", out)
	}
	session := m[1]
	if out := post(session, "application/json", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); !strings.HasPrefix(out, "HTTP/1.1 202") {
		t.Fatalf("notification:\n%s", out)
	}
	if out := post(session, "application/json, text/event-stream", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); !strings.Contains(out, "event: message") ||
		!strings.Contains(out, `"name":"search_memories"`) {
		t.Fatalf("tools/list over SSE:\n%s", out)
	}
	out = post(session, "application/json", `[{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_memory","arguments":{"content":"I water the ferns on Sundays"}}},
		{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_memory_of_nothing","arguments":{}}}]`)
	if !strings.Contains(out, `"success\": true`) || !strings.Contains(out, `"code":-32601`) {
		t.Fatalf("batch:\n%s", out)
	}
	if out := post(session, "application/json", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_conversations","arguments":{"start_date":"yesterday"}}}`); !strings.Contains(out, `"code":-32602`) ||
		!strings.Contains(out, "Invalid start_date format: 'yesterday'. Expected YYYY-MM-DD.") {
		t.Fatalf("bad date:\n%s", out)
	}
	if out := post("not-a-session", "application/json", `{"jsonrpc":"2.0","id":6,"method":"tools/list"}`); !strings.HasPrefix(out, "HTTP/1.1 404") {
		t.Fatalf("unknown session:\n%s", out)
	}
	if out := curl("-X", "DELETE", url, "-H", "Authorization: Bearer "+key, "-H", "Mcp-Session-Id: "+session); !strings.HasPrefix(out, "HTTP/1.1 204") {
		t.Fatalf("DELETE:\n%s", out)
	}
	if out := post(session, "application/json", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`); !strings.HasPrefix(out, "HTTP/1.1 404") {
		t.Fatalf("after DELETE:\n%s", out)
	}
	if out := post("", "application/json", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`+"x"); !strings.HasPrefix(out, "HTTP/1.1 400") {
		t.Fatalf("invalid JSON:\n%s", out)
	}
	out = curl(url + "/info")
	if !strings.HasPrefix(out, "HTTP/1.1 200") || !strings.Contains(out, `"transport":"streamable-http"`) {
		t.Fatalf("info:\n%s", out)
	}
	if out := curl("-X", "POST", url, "-H", "Content-Type: application/json", "-d", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`); !strings.HasPrefix(out, "HTTP/1.1 401") ||
		!strings.Contains(out, `{"detail":"Invalid or missing API key. Provide via Authorization header."}`) {
		t.Fatalf("no key:\n%s", out)
	}
}
