package soniox_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/soniox"
)

const key = "soniox-secret"

// fakeSoniox speaks Soniox's real-time API: the key on the handshake, a
// JSON configuration first, binary audio, an empty message to end; it
// answers tokens (non-final, then final, split within words) per second
// of audio and {"finished": true} at the end; {"error_code", ...} when the
// configuration is wrong.
func fakeSoniox(t *testing.T, cfgSeen *atomic.Value) *httptest.Server {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		var cfg map[string]any
		if err := conn.ReadJSON(&cfg); err != nil {
			return
		}
		cfgSeen.Store(cfg)
		if cfg["audio_format"] != "pcm_s16le" || cfg["sample_rate"] != 16000.0 {
			conn.WriteJSON(map[string]any{"error_code": 400, "error_message": "Invalid audio format."})
			return
		}
		audio, sent := 0, 0
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if len(data) == 0 {
				conn.WriteJSON(map[string]any{"tokens": []any{}, "finished": true})
				return
			}
			audio += len(data)
			for audio/32000 > sent {
				at := float64(sent * 1000)
				conn.WriteJSON(map[string]any{"tokens": []any{
					map[string]any{"text": "Hel", "start_ms": at + 100, "end_ms": at + 200, "is_final": true, "speaker": "1"},
					map[string]any{"text": "lo", "start_ms": at + 200, "end_ms": at + 300, "is_final": true, "speaker": "1"},
					map[string]any{"text": " world", "start_ms": at + 350, "end_ms": at + 700, "is_final": true, "speaker": "2"},
					map[string]any{"text": " maybe", "start_ms": at + 800, "end_ms": at + 900, "is_final": false, "speaker": "2"},
				}})
				sent++
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func wsURL(s *httptest.Server) string { return strings.Replace(s.URL, "http://", "ws://", 1) }

func TestSonioxLiveAndBatch(t *testing.T) {
	seen := &atomic.Value{}
	srv := fakeSoniox(t, seen)
	r, err := soniox.New(soniox.Config{APIKey: key, URL: wsURL(srv)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Open(context.Background(), stt.Config{Language: "en-US", Diarize: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []stt.Word
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ws := range st.Words() {
			got = append(got, ws...)
		}
	}()
	for range 100 { // 2 s
		st.Send(make([]int16, 320))
	}
	st.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no finished")
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, w := range got {
		texts = append(texts, w.Text)
	}
	if strings.Join(texts, " ") != "Hello world Hello world" || got[0].Speaker != 1 || got[1].Speaker != 2 || got[2].Start < 1 {
		t.Fatalf("words %+v", got)
	}
	cfg, _ := seen.Load().(map[string]any)
	if b, _ := json.Marshal(cfg["language_hints"]); string(b) != `["en"]` || cfg["enable_speaker_diarization"] != true || cfg["api_key"] != nil {
		t.Fatalf("configuration %v (the key belongs on the handshake only)", cfg)
	}

	tr, err := r.Transcribe(context.Background(), make([]int16, 16000), stt.Config{Language: "multi", Diarize: true})
	if err != nil || tr.Text != "Hello world" || len(tr.Segments) != 2 || tr.Segments[1].Speaker != "SPEAKER_02" {
		t.Fatalf("batch %+v %v", tr, err)
	}
}

func TestSonioxFailures(t *testing.T) {
	srv := fakeSoniox(t, &atomic.Value{})
	bad, _ := soniox.New(soniox.Config{APIKey: "soniox-wrong", URL: wsURL(srv)})
	_, err := bad.Open(context.Background(), stt.Config{Language: "en"})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.ConfigError || strings.Contains(err.Error(), "soniox-wrong") {
		t.Fatalf("wrong key: %v", err)
	}
	if _, err := soniox.New(soniox.Config{APIKey: key, URL: "https://example.org"}); err == nil {
		t.Fatal("an http URL was accepted")
	}
	srv.Close() // the server goes away
	r, _ := soniox.New(soniox.Config{APIKey: key, URL: wsURL(srv)})
	if _, err := r.Open(context.Background(), stt.Config{Language: "en"}); !errors.As(err, &e) || e.Outcome != stt.UpstreamError {
		t.Fatalf("unreachable: %v", err)
	}
}
