package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpeechProfileEndToEnd: the owner records a profile through
// /v3/upload-audio (Festival speech, 16 kHz WAV), reads it back, and
// deletes it; recordings that are not a 5–180 s 16 kHz WAV with speech are
// refused with the reference's messages.
func TestSpeechProfileEndToEnd(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	get := func(path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/v3/speech-profile"); code != 200 || body != "{\"has_profile\":false}\n" {
		t.Fatalf("before: %d %s", code, body)
	}
	speech := speechWAV(t, "Good morning, this is my voice.", "I am recording my speech profile today.", "The weather is lovely and the garden is green.")
	narrow := filepath.Join(t.TempDir(), "8k.wav")
	mustRun(t, "sox", speech, "-r", "8000", narrow)
	short := filepath.Join(t.TempDir(), "short.wav")
	mustRun(t, "sox", speech, short, "trim", "0", "3")
	for _, tc := range []struct {
		name, path string
		code       int
		detail     string
	}{
		{"8 kHz", narrow, 400, "Invalid audio file: must be a valid 16kHz WAV."},
		{"too short", short, 400, "Audio duration is invalid (must be 5-180 seconds)"},
		{"silence", silenceWAV(t, "8"), 400, "Audio is empty"},
	} {
		code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": tc.path}, nil)
		if code != tc.code || !strings.Contains(body, tc.detail) {
			t.Errorf("%s: %d %s", tc.name, code, body)
		}
	}
	code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": speech}, nil)
	var made struct {
		URL string `json:"url"`
	}
	if code != 200 || json.Unmarshal([]byte(body), &made) != nil || !strings.HasSuffix(made.URL, "/v3/speech-profile/audio") {
		t.Fatalf("upload: %d %s", code, body)
	}
	if code, body := get("/v3/speech-profile"); code != 200 || !strings.Contains(body, `"has_profile":true`) {
		t.Fatalf("after: %d %s", code, body)
	}
	var status struct {
		Has       bool    `json:"has_profile"`
		Seconds   float64 `json:"duration_seconds"`
		Extractor string  `json:"extractor"`
	}
	if code, body := get("/v3/speech-profile/status"); code != 200 || json.Unmarshal([]byte(body), &status) != nil ||
		!status.Has || status.Seconds < 3 || status.Seconds > 12 || status.Extractor == "" {
		t.Fatalf("status: %d %s", code, body)
	}
	if code, body := get("/v3/speech-profile/audio"); code != 200 || !strings.HasPrefix(body, "RIFF") {
		t.Fatalf("audio: %d %.40q", code, body)
	}
	if code, body := get("/v4/speech-profile"); code != 200 || !strings.Contains(body, "/v3/speech-profile/audio") {
		t.Fatalf("v4: %d %s", code, body)
	}
	req, _ := http.NewRequest("DELETE", srv.base+"/v3/speech-profile", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 {
		t.Fatalf("delete: %v %v", resp, err)
	}
	if code, body := get("/v3/speech-profile"); code != 200 || !strings.Contains(body, `"has_profile":false`) {
		t.Fatalf("after delete: %d %s", code, body)
	}
	if code, _ := get("/v3/speech-profile/audio"); code != 404 {
		t.Fatalf("audio after delete: %d", code)
	}
	// Without the owner's ID token: 401.
	code, _, _ = upload(t, srv.base+"/v3/upload-audio", "", map[string]string{"file": speech}, nil)
	if code != 401 {
		t.Fatalf("anonymous upload: %d", code)
	}
}
