package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeLLM is an OpenAI-compatible chat completions server on loopback that
// answers each JSON-schema request by its schema name.
func fakeLLM(t *testing.T, broken *atomic.Bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	calls := &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		if broken.Load() {
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ResponseFormat struct {
				JSONSchema struct {
					Name string `json:"name"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		json.Unmarshal(body, &req)
		var content string
		switch req.ResponseFormat.JSONSchema.Name {
		case "discard_decision":
			content = `{"discard":false}`
		case "conversation_structure":
			content = `{"overview":"Ada and Grace planned the museum visit.","title":"Museum Visit Plans","emoji":"🏛️","category":"travel",
				"action_items":[{"description":"Buy museum tickets","due_at":"2026-12-01T10:00:00+01:00"}],"events":[]}`
		case "conversation_memories":
			content = `{"memories":[{"content":"Ada loves impressionist paintings","category":"system"}]}`
		case "translation":
			content = `{"translation":"We will buy bread tomorrow morning."}`
		default:
			http.Error(w, "unknown schema", http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "c1", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

func TestLLMRoute(t *testing.T) {
	t.Parallel()
	broken := &atomic.Bool{}
	llmSrv, calls := fakeLLM(t, broken)
	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev",
		"--scopes", "conversations:read,conversations:write,memories:read")
	srv := startServe(t, data, "HEARTH_LLM_BASE_URL="+llmSrv.URL+"/v1", "HEARTH_LLM_MODEL=fake", "HEARTH_LLM_API_KEY=sk-test")
	body := `{"transcript_segments":[{"text":"Shall we visit the museum on Saturday? I need to buy the tickets first.","is_user":true,"start":0,"end":4},
		{"text":"Yes, the impressionist exhibition closes soon.","speaker":"SPEAKER_01","start":4,"end":7}]}`
	create := func() string {
		code, resp := srv.call(t, "POST", "/v1/dev/user/conversations/from-segments", key, body)
		if code != 200 {
			t.Fatalf("create: %d %s", code, resp)
		}
		var r struct{ ID string }
		json.Unmarshal([]byte(resp), &r)
		return r.ID
	}
	id := create()
	_, got := srv.call(t, "GET", "/v1/dev/user/conversations/"+id, key, "")
	if !strings.Contains(got, `"title":"Museum Visit Plans"`) || !strings.Contains(got, `"category":"travel"`) ||
		!strings.Contains(got, `"description":"Buy museum tickets"`) || !strings.Contains(got, `"due_at":"2026-12-01T09:00:00Z"`) {
		t.Fatalf("conversation not structured by the LLM: %s", got)
	}
	if _, mem := srv.call(t, "GET", "/v1/dev/user/memories", key, ""); !strings.Contains(mem, "impressionist") {
		t.Fatalf("LLM memory not stored: %s", mem)
	}
	if calls.Load() < 3 {
		t.Fatalf("LLM server saw %d calls", calls.Load())
	}
	if strings.Contains(srv.logs.String(), "sk-test") {
		t.Fatal("the LLM API key appears in the log")
	}
	// The LLM goes down: the built-in extractor answers and nothing is lost.
	broken.Store(true)
	id = create()
	code, got := srv.call(t, "GET", "/v1/dev/user/conversations/"+id, key, "")
	if code != 200 || strings.Contains(got, "Museum Visit Plans") || !strings.Contains(got, `"title":"`) {
		t.Fatalf("fallback: %d %s", code, got)
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://127.0.0.1:11434/v1":            "http://127.0.0.1:11434/v1",
		"https://me:s3cret@llm.example.lan/v1": "https://me:xxxxx@llm.example.lan/v1",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
