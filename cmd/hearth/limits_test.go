package main

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSlowBodyIsCutOff: an unauthenticated route whose body trickles in is
// answered 408 once --body-timeout passes, instead of holding the
// connection for minutes.
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	s := startServe(t, t.TempDir(), "HEARTH_BODY_TIMEOUT=1s")
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	// 100 bytes announced, 10 sent, the rest never.
	if _, err := conn.Write([]byte("POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type")); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	took := time.Since(start)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	// Either an error status or a closed connection, but well before the
	// client's own 10 s give-up.
	if took > 5*time.Second {
		t.Fatalf("slow body held the connection for %v", took)
	}

	// The same on a JSON route.
	conn2, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	conn2.Write([]byte("POST /v1/mcp/sse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\""))
	conn2.SetReadDeadline(time.Now().Add(10 * time.Second))
	start = time.Now()
	if resp, err := http.ReadResponse(bufio.NewReader(conn2), nil); err == nil {
		resp.Body.Close()
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("slow MCP body held the connection for %v", took)
	}
}

// TestConnectionCap: past --max-conns, a new client waits until a
// connection closes.
func TestConnectionCap(t *testing.T) {
	t.Parallel()
	s := startServe(t, t.TempDir(), "HEARTH_MAX_CONNS=2")
	addr := strings.TrimPrefix(s.base, "http://")
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		// A started request keeps the connection busy.
		c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: x\r\n"))
		held = append(held, c)
	}
	time.Sleep(200 * time.Millisecond) // let the server accept both
	quick := &http.Client{Timeout: 700 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	if resp, err := quick.Get(s.base + "/healthz"); err == nil {
		resp.Body.Close()
		t.Fatal("a third connection was served while two were held")
	}
	held[0].Close()
	patient := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := patient.Get(s.base + "/healthz")
	if err != nil {
		t.Fatalf("after a connection closed: %v", err)
	}
	resp.Body.Close()
	held[1].Close()
}
