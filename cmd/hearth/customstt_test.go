package main

import (
	"encoding/json"
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
