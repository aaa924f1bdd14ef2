package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMCPOriginIsTheApplianceNotTheHostHeader: a rebound DNS name sends
// Host and Origin that agree but name the attacker's site; the MCP
// endpoint compares the Origin with the addresses it serves instead, on a
// real loopback socket.
func TestMCPOriginIsTheApplianceNotTheHostHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	own := strings.TrimPrefix(ts.URL, "http://")
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example", "http://evil.example", http.StatusForbidden},
		{"evil.example:80", "http://evil.example:80", http.StatusForbidden},
		{own, "http://" + own, http.StatusOK},
		{"localhost" + own[strings.LastIndex(own, ":"):], "http://localhost" + own[strings.LastIndex(own, ":"):], http.StatusOK},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/v1/mcp/sse", strings.NewReader(init))
		req.Host = c.host
		req.Header.Set("Origin", c.origin)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", bearer(e.mcp))
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Host %s, Origin %s: %d %.200s, want %d", c.host, c.origin, resp.StatusCode, b, c.want)
		}
	}
}
