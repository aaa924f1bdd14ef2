package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestOpenAICompatibleRoute: with --openai-stt-url the appliance sends
// speech to that server (a fake speaking OpenAI's transcription API), the
// log says audio leaves the box, and the key appears nowhere.
func TestOpenAICompatibleRoute(t *testing.T) {
	t.Parallel()
	var got struct{ model, auth string }
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/transcriptions" || r.ParseMultipartForm(32<<20) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		got.model, got.auth = r.FormValue("model"), r.Header.Get("Authorization")
		json.NewEncoder(w).Encode(map[string]any{"text": "Water the tomatoes tonight.", "language": "en",
			"segments": []map[string]any{{"start": 0.2, "end": 2.0, "text": " Water the tomatoes tonight."}}})
	}))
	defer fake.Close()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_OPENAI_STT_URL="+fake.URL+"/v1", "HEARTH_OPENAI_STT_MODEL=faster-whisper-small",
		"HEARTH_OPENAI_STT_API_KEY=sk-gpu-box", "HEARTH_STT_ROUTES=openai")
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	code, body := postRaw(t, srv.base+"/v2/voice-message/transcribe", token, rawPCM(t, speechWAV(t, "Water the tomatoes tonight.")))
	if code != 200 || !strings.Contains(body, `"transcript":"Water the tomatoes tonight."`) || !strings.Contains(body, `"stt_provider":"openai"`) ||
		!strings.Contains(body, `"stt_model":"faster-whisper-small"`) {
		t.Fatalf("%d %s", code, body)
	}
	if got.model != "faster-whisper-small" || got.auth != "Bearer sk-gpu-box" {
		t.Fatalf("the server saw %+v", got)
	}
	time.Sleep(100 * time.Millisecond)
	logs := srv.logs.String()
	if !strings.Contains(logs, "audio leaves this box") || strings.Contains(logs, "sk-gpu-box") {
		t.Fatalf("log:\n%s", logs)
	}
}

// TestSpeechmaticsRoute: with --speechmatics-api-key the appliance sends
// speech to Speechmatics' real-time socket (a fake speaking its protocol)
// and hears what it answers; the key appears nowhere in the log.
func TestSpeechmaticsRoute(t *testing.T) {
	t.Parallel()
	var frames atomic.Int64
	up := websocket.Upgrader{}
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sm-secret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		var start map[string]any
		if conn.ReadJSON(&start) != nil || start["message"] != "StartRecognition" {
			return
		}
		conn.WriteJSON(map[string]any{"message": "RecognitionStarted", "id": "1"})
		for {
			typ, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if typ == websocket.BinaryMessage {
				conn.WriteJSON(map[string]any{"message": "AudioAdded", "seq_no": frames.Add(1)})
				continue
			}
			if !strings.Contains(string(data), `"EndOfStream"`) {
				return
			}
			var results []any
			for i, wd := range strings.Fields("Water the tomatoes tonight") {
				results = append(results, map[string]any{"type": "word", "start_time": 0.2 + 0.4*float64(i), "end_time": 0.5 + 0.4*float64(i),
					"alternatives": []any{map[string]any{"content": wd, "speaker": "S1"}}})
			}
			results = append(results, map[string]any{"type": "punctuation", "attaches_to": "previous", "alternatives": []any{map[string]any{"content": "."}}})
			conn.WriteJSON(map[string]any{"message": "AddTranscript", "results": results})
			conn.WriteJSON(map[string]any{"message": "EndOfTranscript"})
			return
		}
	}))
	defer fake.Close()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_SPEECHMATICS_API_KEY=sm-secret", "HEARTH_SPEECHMATICS_URL="+strings.Replace(fake.URL, "http", "ws", 1)+"/v2",
		"HEARTH_STT_ROUTES=speechmatics")
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	code, body := postRaw(t, srv.base+"/v2/voice-message/transcribe", token, rawPCM(t, speechWAV(t, "Water the tomatoes tonight.")))
	if code != 200 || !strings.Contains(body, `"transcript":"Water the tomatoes tonight."`) || !strings.Contains(body, `"stt_provider":"speechmatics"`) {
		t.Fatalf("%d %s", code, body)
	}
	if frames.Load() == 0 {
		t.Fatal("no audio reached Speechmatics")
	}
	time.Sleep(100 * time.Millisecond)
	if logs := srv.logs.String(); !strings.Contains(logs, "audio leaves this box for Speechmatics") || strings.Contains(logs, "sm-secret") {
		t.Fatalf("log:\n%s", logs)
	}
}
