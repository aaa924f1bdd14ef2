package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenAIAudioClient drives OpenAI's speech API on `hearth serve` with
// the official openai npm client (testdata/mcp-client, pinned in its
// package-lock.json): Festival speech heard through PocketSphinx in every
// response format, streamed, translated, and the errors the client reads.
func TestOpenAIAudioClient(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	dir, _ := filepath.Abs("testdata/mcp-client")
	node, err := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "openai"))
	if err != nil || modErr != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("the openai client is not installed (node: %v, modules: %v); run make mcp-client", err, modErr)
		}
		t.Skip("openai npm client not installed; make test installs it")
	}
	wav := speechWAV(t, heardPhrase)
	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	sttKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt")
	srv := startServe(t, data, "HEARTH_STT_ROUTES=pocketsphinx")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	two := speechWAV(t, heardPhrase, "then buy bread and coffee")
	cmd := exec.CommandContext(ctx, node, "openai-audio.mjs", srv.base+"/v1", sttKey, wav, heardPhrase,
		two, heardPhrase+" then buy bread and coffee")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("openai client:\n%s", out)
	if err != nil || !strings.Contains(string(out), "PASS openai audio client") {
		t.Fatalf("openai client failed: %v\nserver log:\n%s", err, srv.logs)
	}
}

// TestOpenAIAudioRules: who may call OpenAI's speech API, how a model
// names a route, and a translation of speech that a route hears as
// French, which is refused rather than passed off as English. The route
// is OpenAI's vendor API, a local fake that answers in French.
func TestOpenAIAudioRules(t *testing.T) {
	t.Parallel()
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"text": "Bonjour tout le monde.", "language": "french",
			"segments": []map[string]any{{"start": 0.2, "end": 1.8, "text": " Bonjour tout le monde."}}})
	}))
	defer fake.Close()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_OPENAI_STT_URL="+fake.URL+"/v1", "HEARTH_OPENAI_STT_MODEL=faster-whisper-small",
		"HEARTH_OPENAI_STT_API_KEY=sk-gpu-box", "HEARTH_STT_ROUTES=openai")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	sttKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt")
	devKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	wav := map[string]string{"file": speechWAV(t, "Hello everyone.")}
	for _, tc := range []struct {
		name, path, auth string
		files, fields    map[string]string
		status           int
		want             string // in the body
		code, param      string // of an error
	}{
		{"a speech key", "transcriptions", sttKey, wav, map[string]string{"model": "whisper-1"}, 200, `{"text":"Bonjour tout le monde."}`, "", ""},
		{"an ID token", "transcriptions", token, wav, map[string]string{"model": "whisper-1"}, 200, `"Bonjour tout le monde."`, "", ""},
		{"the route by name", "transcriptions", sttKey, wav, map[string]string{"model": "openai", "response_format": "verbose_json"}, 200, `"language":"french"`, "", ""},
		{"the route by model", "transcriptions", sttKey, wav, map[string]string{"model": "faster-whisper-small", "response_format": "text"}, 200, "Bonjour tout le monde.\n", "", ""},
		{"a translation of French", "translations", sttKey, wav, map[string]string{"model": "whisper-1"}, 400, "no speech route of this appliance translates", "unsupported_language", "file"},
		{"a developer key", "transcriptions", devKey, wav, nil, 401, "hearth keys create --kind stt", "invalid_api_key", ""},
		{"no key", "transcriptions", "", wav, nil, 401, "Bearer API_KEY", "invalid_api_key", ""},
		{"no file", "transcriptions", sttKey, nil, map[string]string{"model": "whisper-1"}, 400, "'file'", "", "file"},
		{"a bad temperature", "translations", sttKey, wav, map[string]string{"temperature": "7"}, 400, "temperature", "", "temperature"},
	} {
		status, body, _ := upload(t, srv.base+"/v1/audio/"+tc.path, tc.auth, tc.files, tc.fields)
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, status, body, tc.status, tc.want)
			continue
		}
		if status < 400 {
			continue
		}
		var e struct {
			Error struct {
				Message, Type string
				Param, Code   *string
			}
		}
		if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Message == "" || e.Error.Type != "invalid_request_error" ||
			deref(e.Error.Code) != tc.code || deref(e.Error.Param) != tc.param {
			t.Errorf("%s: %s, want OpenAI's error shape with code %q and param %q", tc.name, body, tc.code, tc.param)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
