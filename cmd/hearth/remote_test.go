package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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
