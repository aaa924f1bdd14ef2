package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The room microphone is tested with miniaudio's null backend: a real
// capture device that delivers silence in real time.

func TestDevicesNullBackend(t *testing.T) {
	t.Parallel()
	out := mustCLI(t, "devices", "--mic-backend", "null")
	if !strings.Contains(strings.ToLower(out), "null") {
		t.Fatalf("devices: %q", out)
	}
	if _, errOut, code := cli(t, "devices", "--mic-backend", "gramophone"); code != 1 || !strings.Contains(errOut, "want auto or one of") {
		t.Fatalf("unknown backend: %d %s", code, errOut)
	}
	if _, errOut, code := cli(t, "listen", "--mic", "--file", "x.wav", "--token", "t"); code != 2 || !strings.Contains(errOut, "not both") {
		t.Fatalf("--mic with --file: %d %s", code, errOut)
	}
}

// TestListenMicSendsLiveAudio: what the microphone captures reaches the
// socket as 20 ms frames of 16 kHz pcm16, as much as was captured.
func TestListenMicSendsLiveAudio(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var query string
	var frames, bytes int
	up := websocket.Upgrader{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		mu.Lock()
		query = r.URL.RawQuery
		mu.Unlock()
		conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"service_status","status":"ready","status_text":"ready"}`))
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				return
			}
			mu.Lock()
			frames++
			bytes += len(b)
			mu.Unlock()
		}
	}))
	defer ts.Close()
	data := t.TempDir()
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	mustCLI(t, "listen", "--mic", "--mic-backend", "null", "--device", "null", "--duration", "1500ms",
		"--url", ts.URL, "--data", data, "--user", uid)
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(query, "codec=pcm16") || !strings.Contains(query, "sample_rate=16000") || !strings.Contains(query, "uid="+uid) {
		t.Fatalf("query %q", query)
	}
	if bytes != 1500*16*2 {
		t.Fatalf("%d bytes in %d frames, want 1.5 s of 16 kHz pcm16 (%d bytes)", bytes, frames, 1500*16*2)
	}
}

// TestListenMicIntoAppliance: the same against the real appliance, which
// holds the session for as long as the microphone captured (the null
// device runs in real time) and counts no bad frames.
func TestListenMicIntoAppliance(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_MDNS=false", "HEARTH_LOG_LEVEL=debug", writeScript(t, `{"utterances":[{"text":"x"}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	out, errOut, code := cli(t, "listen", "--mic", "--mic-backend", "null", "--duration", "1s", "--url", srv.base, "--token", token, "--json")
	if code != 0 || !strings.Contains(out, `"service_status"`) {
		t.Fatalf("listen --mic: %d\n%s\n%s", code, out, errOut)
	}
	deadline := time.Now().Add(10 * time.Second)
	var ms float64
	for ms == 0 {
		for _, line := range strings.Split(srv.logs.String(), "\n") {
			var rec struct {
				Msg, Route string
				Status     int
				MS         float64 `json:"ms"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "http" && rec.Route == "/v4/listen" {
				if rec.Status >= 400 {
					t.Fatalf("session status %d", rec.Status)
				}
				ms = rec.MS
			}
		}
		if ms == 0 && time.Now().After(deadline) {
			t.Fatalf("no session in the log:\n%s", srv.logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if ms < 900 || strings.Contains(srv.logs.String(), "bad_frames") {
		t.Fatalf("session of %.0f ms (want the captured second at least):\n%s", ms, srv.logs)
	}
}
