package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// fakeReply is one scripted answer of the fake server.
type fakeReply struct {
	status  int               // 0 means 200
	header  map[string]string // extra response headers
	content string            // chat: choices[0].message.content (ignored when body is set)
	body    string            // raw body, sent verbatim
	json    any               // body marshalled as JSON (embeddings)
	hang    time.Duration     // wait this long (or until the client goes away) before answering
	finish  string            // chat finish_reason; "stop" when empty
}

// fakeRequest is what the fake saw of one request.
type fakeRequest struct {
	Path   string
	Auth   string
	HasKey bool
	Body   map[string]any
}

// fakeServer is an OpenAI-compatible server on loopback that speaks the real
// wire format and checks what clients send: method, path, Authorization,
// and for chat completions a strict json_schema response format.
type fakeServer struct {
	t      *testing.T
	srv    *httptest.Server
	key    string // expected API key; "" means no Authorization header at all
	mu     sync.Mutex
	reqs   []fakeRequest
	script func(n int, req map[string]any) fakeReply
}

// newFake starts a fake that answers the n-th request (0-based) with
// script(n, body). It is closed with the test.
func newFake(t *testing.T, key string, script func(n int, req map[string]any) fakeReply) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, key: key, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// replies scripts a fixed sequence; the last reply repeats.
func replies(rs ...fakeReply) func(int, map[string]any) fakeReply {
	return func(n int, _ map[string]any) fakeReply { return rs[min(n, len(rs)-1)] }
}

func (f *fakeServer) baseURL() string { return f.srv.URL + "/v1" }

func (f *fakeServer) requests() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRequest(nil), f.reqs...)
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, format string, args ...any) {
		f.t.Errorf("fake server: "+format, args...)
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, status)
	}
	if r.Method != http.MethodPost {
		fail(http.StatusMethodNotAllowed, "method %s", r.Method)
		return
	}
	if r.Header.Get("Content-Type") != "application/json" {
		fail(http.StatusUnsupportedMediaType, "content type %q", r.Header.Get("Content-Type"))
		return
	}
	auth, hasAuth := r.Header["Authorization"]
	switch {
	case f.key == "" && hasAuth:
		fail(http.StatusUnauthorized, "authorization sent without a key: %q", auth)
		return
	case f.key != "" && r.Header.Get("Authorization") != "Bearer "+f.key:
		fail(http.StatusUnauthorized, "authorization %q", r.Header.Get("Authorization"))
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		fail(http.StatusBadRequest, "read body: %v", err)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		fail(http.StatusBadRequest, "body is not JSON: %v", err)
		return
	}
	switch r.URL.Path {
	case "/v1/chat/completions":
		if err := checkChatRequest(body); err != "" {
			fail(http.StatusBadRequest, "chat request: %s", err)
			return
		}
	case "/v1/embeddings":
		if err := checkEmbedRequest(body); err != "" {
			fail(http.StatusBadRequest, "embeddings request: %s", err)
			return
		}
	default:
		fail(http.StatusNotFound, "path %s", r.URL.Path)
		return
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, fakeRequest{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), HasKey: hasAuth, Body: body})
	f.mu.Unlock()

	rep := f.script(n, body)
	if rep.hang > 0 {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(rep.hang):
		}
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := rep.status
	if status == 0 {
		status = http.StatusOK
	}
	var out []byte
	switch {
	case rep.body != "":
		out = []byte(rep.body)
	case rep.json != nil:
		out, _ = json.Marshal(rep.json)
	case status != http.StatusOK:
		out = []byte(`{"error":{"message":"scripted failure","type":"server_error"}}`)
	default:
		out = chatBody(rep.content, rep.finish)
	}
	w.WriteHeader(status)
	w.Write(out)
}

// chatBody is a real chat.completion object around content.
func chatBody(content, finish string) []byte {
	if finish == "" {
		finish = "stop"
	}
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "fake",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": content},
		}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
	})
	return b
}

var fakeSchemaName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkChatRequest returns what is wrong with a chat completions body, or "".
func checkChatRequest(b map[string]any) string {
	if m, _ := b["model"].(string); m == "" {
		return "no model"
	}
	msgs, _ := b["messages"].([]any)
	if len(msgs) == 0 {
		return "no messages"
	}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		if _, ok := mm["content"].(string); !ok || (role != "system" && role != "user" && role != "assistant") {
			return "bad message"
		}
	}
	rf, _ := b["response_format"].(map[string]any)
	if rf["type"] != "json_schema" {
		return "response_format.type is not json_schema"
	}
	js, _ := rf["json_schema"].(map[string]any)
	if name, _ := js["name"].(string); !fakeSchemaName.MatchString(name) {
		return "bad json_schema.name"
	}
	if js["strict"] != true {
		return "json_schema.strict is not true"
	}
	schema, ok := js["schema"].(map[string]any)
	if !ok {
		return "no json_schema.schema"
	}
	if schema["type"] != "object" {
		return "root schema is not an object"
	}
	return checkSchema("$", schema)
}

// checkSchema enforces strict-mode rules: known types, objects closed with
// every property required, arrays with items, string enums.
func checkSchema(path string, s map[string]any) string {
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			xs, _ := x.(string)
			types = append(types, xs)
		}
	default:
		return path + ": no type"
	}
	for _, t := range types {
		switch t {
		case "object":
			props, ok := s["properties"].(map[string]any)
			if !ok || len(props) == 0 {
				return path + ": object without properties"
			}
			if s["additionalProperties"] != false {
				return path + ": additionalProperties is not false"
			}
			req, _ := s["required"].([]any)
			if len(req) != len(props) {
				return path + ": not every property is required"
			}
			for _, r := range req {
				name, _ := r.(string)
				ps, ok := props[name].(map[string]any)
				if !ok {
					return path + ": required " + name + " is not a property"
				}
				if e := checkSchema(path+"."+name, ps); e != "" {
					return e
				}
			}
		case "array":
			items, ok := s["items"].(map[string]any)
			if !ok {
				return path + ": array without items"
			}
			if e := checkSchema(path+"[]", items); e != "" {
				return e
			}
		case "string", "integer", "number", "boolean", "null":
		default:
			return path + ": unknown type " + t
		}
	}
	if e, ok := s["enum"]; ok {
		list, _ := e.([]any)
		if len(list) == 0 {
			return path + ": empty enum"
		}
	}
	return ""
}

func checkEmbedRequest(b map[string]any) string {
	if m, _ := b["model"].(string); m == "" {
		return "no model"
	}
	in, ok := b["input"].([]any)
	if !ok || len(in) == 0 {
		return "input is not a non-empty array"
	}
	return ""
}

// ---- shared test helpers ----

// sleepRecorder replaces the poster's sleep: it records delays and returns
// at once, so retry tests do not depend on the clock.
type sleepRecorder struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.delays = append(s.delays, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepRecorder) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.delays...)
}

// logBuffer captures slog output at debug level for secrecy assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// newTestClient builds a client on the fake with recorded sleeps.
func newTestClient(t *testing.T, f *fakeServer, cfg Config, logger *slog.Logger) (*Client, *sleepRecorder) {
	t.Helper()
	cfg.BaseURL = f.baseURL()
	if cfg.Model == "" {
		cfg.Model = "fake-model"
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.APIKey == "" {
		cfg.APIKey = f.key
	}
	c, err := NewClient(cfg, logger)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	rec := &sleepRecorder{}
	c.p.sleep = rec.sleep
	return c, rec
}

// fakeExtractor is a function-field appliance.Extractor for fallback tests.
type fakeExtractor struct {
	mu            sync.Mutex
	calls         []string
	shouldDiscard func(context.Context, appliance.TranscriptInput) (bool, error)
	structure     func(context.Context, appliance.TranscriptInput) (appliance.Structured, error)
	memories      func(context.Context, appliance.TranscriptInput) ([]appliance.Memory, error)
}

var _ appliance.Extractor = (*fakeExtractor)(nil)

func (f *fakeExtractor) record(op string) {
	f.mu.Lock()
	f.calls = append(f.calls, op)
	f.mu.Unlock()
}

func (f *fakeExtractor) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeExtractor) Name() string { return "fake-fallback" }

func (f *fakeExtractor) ShouldDiscard(ctx context.Context, in appliance.TranscriptInput) (bool, error) {
	f.record("discard")
	if f.shouldDiscard != nil {
		return f.shouldDiscard(ctx, in)
	}
	return false, ctx.Err()
}

func (f *fakeExtractor) Structure(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, error) {
	f.record("structure")
	if f.structure != nil {
		return f.structure(ctx, in)
	}
	if err := ctx.Err(); err != nil {
		return appliance.Structured{}, err
	}
	s := appliance.EmptyStructured()
	s.Title = "Fallback Title"
	return s, nil
}

func (f *fakeExtractor) Memories(ctx context.Context, in appliance.TranscriptInput) ([]appliance.Memory, error) {
	f.record("memories")
	if f.memories != nil {
		return f.memories(ctx, in)
	}
	return []appliance.Memory{{Content: "fallback memory", Category: appliance.MemorySystem}}, ctx.Err()
}

// mustJSON marshals v for scripted content.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lastUserMessage returns the content of the last user message of a chat body.
func lastUserMessage(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	var out string
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "user" {
			out, _ = mm["content"].(string)
		}
	}
	return out
}

func systemMessage(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "system" {
			s, _ := mm["content"].(string)
			return s
		}
	}
	return ""
}

func contains(s string, subs ...string) (string, bool) {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return sub, false
		}
	}
	return "", true
}
