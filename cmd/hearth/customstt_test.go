package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestCustomSTTServiceWithAnAppRelay plays the Omi app with its custom-STT
// setting pointed at the appliance: audio goes to /v1/custom-stt, the
// segments that come back are relayed to /v4/listen as suggested
// transcripts, and the recording holds them.
func TestCustomSTTServiceWithAnAppRelay(t *testing.T) {
	t.Parallel()
	frames := speechOpusFS320(t, "Remind me to water the tomatoes tonight.")
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Remind me to water the tomatoes tonight."}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	ws := strings.Replace(srv.base, "http://", "ws://", 1)

	// Refusals close with a reason.
	for _, q := range []string{"codec=opus_fs320", "codec=flac&token=" + url.QueryEscape(token), "token=not-a-token"} {
		conn, _, err := websocket.DefaultDialer.Dial(ws+"/v1/custom-stt?"+q, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		_, _, err = conn.ReadMessage()
		var ce *websocket.CloseError
		if !asCloseError(err, &ce) || ce.Code != websocket.ClosePolicyViolation {
			t.Errorf("%s: %v, want close 1008", q, err)
		}
		conn.Close()
	}

	// The app's custom-STT setting is only a URL: the token rides in it.
	stt, _, err := websocket.DefaultDialer.Dial(ws+"/v1/custom-stt?codec=opus_fs320&sample_rate=16000&token="+url.QueryEscape(token), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stt.Close()
	replies := make(chan map[string]any, 16)
	closed := make(chan int, 1)
	go func() {
		for {
			_, b, err := stt.ReadMessage()
			if err != nil {
				var ce *websocket.CloseError
				if asCloseError(err, &ce) {
					closed <- ce.Code
				} else {
					closed <- -1
				}
				close(replies)
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) != nil {
				t.Errorf("a reply that is no JSON object: %s", b)
			}
			replies <- m
		}
	}()
	for _, f := range frames {
		if err := stt.WriteMessage(websocket.BinaryMessage, f); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // 4× real time
	}
	stt.WriteMessage(websocket.TextMessage, []byte(`{"type":"CloseStream"}`))
	var segments []any
	for m := range replies {
		if _, typed := m["type"]; typed {
			t.Fatalf("a reply with a type: %v", m)
		}
		segs, ok := m["segments"].([]any)
		if !ok {
			t.Fatalf("a reply without segments: %v", m)
		}
		segments = append(segments, segs...)
	}
	if code := <-closed; code != websocket.CloseNormalClosure {
		t.Fatalf("close %d after CloseStream, want 1000", code)
	}
	if len(segments) != 1 {
		t.Fatalf("segments %v", segments)
	}
	seg := segments[0].(map[string]any)
	if seg["text"] != "Remind me to water the tomatoes tonight." || seg["speaker"] != "SPEAKER_00" || seg["end"].(float64) <= seg["start"].(float64) {
		t.Fatalf("segment %v", seg)
	}

	// The relay: the app hands the segments to /v4/listen.
	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 120, "custom_stt=enabled"), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	relay, _ := json.Marshal(map[string]any{"type": "suggested_transcript", "stt_provider": "hearth", "segments": segments})
	c.conn.WriteMessage(websocket.TextMessage, relay)
	got := segmentsOf(c.until(10*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	if len(got) != 1 || got[0]["text"] != seg["text"] || got[0]["stt_provider"] != "hearth" {
		t.Fatalf("relayed segments %v", got)
	}
}

func asCloseError(err error, ce **websocket.CloseError) bool {
	e, ok := err.(*websocket.CloseError)
	if ok {
		*ce = e
	}
	return ok
}

// TestCustomSTTKeys: a device key (hearth_stt_) opens the live-audio
// sockets, /v1/custom-stt and /v4/listen (what a phone app's setting or a
// wearable holds instead of the owner's ID token), and nothing else; other
// key families do not open them; a revoked one is refused.
func TestCustomSTTKeys(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Hello."}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	sttKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt")
	devKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")
	if !strings.HasPrefix(sttKey, "hearth_stt_") {
		t.Fatalf("stt key %q", sttKey)
	}
	if _, stderr, code := cli(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt"); code != 0 ||
		!strings.Contains(stderr, "for the live-audio sockets (/v4/listen, /v1/custom-stt) and OpenAI's speech API (/v1/audio/) only") || strings.Contains(stderr, "with scopes") {
		t.Fatalf("creating an stt key says: exit %d, %s", code, stderr)
	}
	if _, stderr, code := cli(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt", "--scopes", "memories:read"); code == 0 || !strings.Contains(stderr, "no scopes") {
		t.Fatalf("an stt key with scopes: exit %d, %s", code, stderr)
	}
	ws := strings.Replace(srv.base, "http://", "ws://", 1) + "/v1/custom-stt?codec=pcm16&sample_rate=16000&token="
	// opens reports whether the socket session ran (closed 1000 after
	// CloseStream) or was refused (1008).
	opens := func(cred string) bool {
		t.Helper()
		conn, _, err := websocket.DefaultDialer.Dial(ws+url.QueryEscape(cred), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"CloseStream"}`))
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			if _, _, err = conn.ReadMessage(); err != nil {
				break
			}
		}
		var ce *websocket.CloseError
		if !asCloseError(err, &ce) {
			t.Fatalf("no close frame: %v", err)
		}
		return ce.Code == websocket.CloseNormalClosure
	}
	if !opens(sttKey) || !opens(token) {
		t.Fatal("an stt key or the ID token did not open /v1/custom-stt")
	}
	if opens(devKey) {
		t.Fatal("a developer key opened /v1/custom-stt")
	}
	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), sttKey)
	if m := c.until(10*time.Second, "ready", func(m wsMsg) bool { return m.closeCode != 0 || event(m, "service_status") != nil }); m.closeCode != 0 {
		t.Fatalf("a device key on /v4/listen: close %d %q", m.closeCode, m.closeText)
	}
	c = dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), devKey)
	if m := c.until(10*time.Second, "close", func(m wsMsg) bool { return m.closeCode != 0 }); m.closeCode != 1008 || m.closeText != "Invalid token" {
		t.Fatalf("a developer key on /v4/listen: close %d %q", m.closeCode, m.closeText)
	}
	// Nothing else opens for it.
	for _, path := range []string{"/v1/dev/user/conversations", "/v1/mcp/memories", "/v1/dev/keys"} {
		req, _ := http.NewRequest("GET", srv.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+sttKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s with an stt key: %d, want 401", path, resp.StatusCode)
		}
	}
	// The owner makes and revokes them over HTTP too.
	req, _ := http.NewRequest("POST", srv.base+"/v1/stt/keys", strings.NewReader(`{"name":"phone"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var made struct {
		ID     string   `json:"id"`
		Key    string   `json:"key"`
		Scopes []string `json:"scopes"`
	}
	json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(made.Key, "hearth_stt_") || made.Scopes == nil || len(made.Scopes) != 0 {
		t.Fatalf("POST /v1/stt/keys: %d %+v", resp.StatusCode, made)
	}
	if !opens(made.Key) {
		t.Fatal("the new key did not open /v1/custom-stt")
	}
	req, _ = http.NewRequest("DELETE", srv.base+"/v1/stt/keys/"+made.ID, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err = http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if opens(made.Key) {
		t.Fatal("a revoked stt key still opens /v1/custom-stt")
	}
}
