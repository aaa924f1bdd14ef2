package llm

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pingSchema is a small schema exercising every type the validator knows.
var pingSchema = obj(
	prop("answer", str("")),
	prop("count", &Schema{Type: "integer"}),
	prop("ok", &Schema{Type: "boolean"}),
	prop("note", &Schema{Type: "string", Nullable: true}),
	prop("tags", arr(str(""), "")),
)

type pingReply struct {
	Answer string   `json:"answer"`
	Count  int      `json:"count"`
	OK     bool     `json:"ok"`
	Note   *string  `json:"note"`
	Tags   []string `json:"tags"`
}

const pingOK = `{"answer":"pong","count":3,"ok":true,"note":null,"tags":["a","b"]}`

var pingMsgs = []Message{{Role: "system", Content: "be terse"}, {Role: "user", Content: "ping"}}

func TestClientHappyPathWireFormat(t *testing.T) {
	t.Parallel()
	f := newFake(t, "sk-test-secret", replies(fakeReply{content: pingOK}))
	c, rec := newTestClient(t, f, Config{Model: "llama3.1:8b"}, nil)

	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping_reply", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	want := pingReply{Answer: "pong", Count: 3, OK: true, Tags: []string{"a", "b"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Auth != "Bearer sk-test-secret" {
		t.Errorf("Authorization = %q", r.Auth)
	}
	if r.Body["model"] != "llama3.1:8b" || r.Body["stream"] != false || r.Body["temperature"] != 0.0 {
		t.Errorf("model/stream/temperature = %v/%v/%v", r.Body["model"], r.Body["stream"], r.Body["temperature"])
	}
	js := r.Body["response_format"].(map[string]any)["json_schema"].(map[string]any)
	if js["name"] != "ping_reply" {
		t.Errorf("schema name = %v", js["name"])
	}
	note := js["schema"].(map[string]any)["properties"].(map[string]any)["note"].(map[string]any)
	if diff := cmp.Diff([]any{"string", "null"}, note["type"]); diff != "" {
		t.Errorf("nullable type (-want +got):\n%s", diff)
	}
	if len(rec.got()) != 0 {
		t.Errorf("slept %v on success", rec.got())
	}
}

func TestClientNoAuthorizationWithoutKey(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: pingOK}))
	c, _ := newTestClient(t, f, Config{Temperature: -1}, nil)
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	r := f.requests()[0]
	if r.HasKey {
		t.Errorf("Authorization header sent without a key: %q", r.Auth)
	}
	if _, ok := r.Body["temperature"]; ok {
		t.Errorf("temperature sent although negative: %v", r.Body["temperature"])
	}
}

func TestClientBaseURLTrailingSlash(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: pingOK}))
	c, err := NewClient(Config{BaseURL: f.baseURL() + "/", Model: "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	if p := f.requests()[0].Path; p != "/v1/chat/completions" {
		t.Errorf("path = %s", p)
	}
}

func TestNewClientValidates(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{BaseURL: "", Model: "m"},
		{BaseURL: "127.0.0.1:11434/v1", Model: "m"},
		{BaseURL: "ftp://host/v1", Model: "m"},
		{BaseURL: "http://127.0.0.1:11434/v1", Model: " "},
	} {
		if _, err := NewClient(cfg, nil); err == nil {
			t.Errorf("NewClient(%+v) = nil error", cfg)
		}
	}
}

func TestClientRetriesServerErrorsThenSucceeds(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 500}, fakeReply{status: 503}, fakeReply{content: pingOK}))
	c, rec := newTestClient(t, f, Config{MaxRetries: 3}, nil)
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
	delays := rec.got()
	if len(delays) != 2 {
		t.Fatalf("delays = %v, want 2", delays)
	}
	// Equal jitter: each delay lies in [ceiling/2, ceiling], ceilings 0.5 s, 1 s.
	for i, d := range delays {
		ceil := backoff(i + 1)
		if d < ceil/2 || d > ceil {
			t.Errorf("delay %d = %v, want within [%v, %v]", i, d, ceil/2, ceil)
		}
	}
}

func TestClientGivesUpAfterMaxRetries(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 502}))
	c, _ := newTestClient(t, f, Config{MaxRetries: 2}, nil)
	var got pingReply
	err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 502 {
		t.Fatalf("err = %v, want StatusError 502", err)
	}
	if !strings.HasPrefix(err.Error(), "chat completion: ") {
		t.Errorf("err = %q, want chat completion context", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("requests = %d, want 1 + 2 retries", n)
	}
}

func TestClientDefaultAndNegativeRetries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		retries, want int
	}{{0, 1 + DefaultMaxRetries}, {-1, 1}} {
		f := newFake(t, "", replies(fakeReply{status: 500}))
		c, _ := newTestClient(t, f, Config{MaxRetries: tc.retries}, nil)
		var got pingReply
		if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err == nil {
			t.Fatal("want error")
		}
		if n := len(f.requests()); n != tc.want {
			t.Errorf("MaxRetries %d: requests = %d, want %d", tc.retries, n, tc.want)
		}
	}
}

func TestClientHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	date := time.Now().Add(10 * time.Second).UTC().Format(http.TimeFormat)
	f := newFake(t, "", replies(
		fakeReply{status: 429, header: map[string]string{"Retry-After": "2"},
			body: `{"error":{"message":"Rate limit reached for gpt-x: your prompt was ...","type":"requests","code":"rate_limit_exceeded"}}`},
		fakeReply{status: 503, header: map[string]string{"Retry-After": date}},
		fakeReply{content: pingOK},
	))
	c, rec := newTestClient(t, f, Config{MaxRetries: 3}, nil)
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	delays := rec.got()
	if len(delays) != 2 {
		t.Fatalf("delays = %v", delays)
	}
	if delays[0] != 2*time.Second {
		t.Errorf("delay after Retry-After: 2 = %v", delays[0])
	}
	// An HTTP date ten seconds out, minus the time the test took; the date
	// has one-second resolution, so allow a generous window.
	if delays[1] <= 0 || delays[1] > 11*time.Second {
		t.Errorf("delay after Retry-After date = %v", delays[1])
	}
}

func TestClientRetryAfterTooLongGivesUp(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 429, header: map[string]string{"Retry-After": "3600"}}))
	c, rec := newTestClient(t, f, Config{MaxRetries: 3}, nil)
	var got pingReply
	err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 429 || se.RetryAfter != time.Hour {
		t.Fatalf("err = %v, want 429 with an hour's Retry-After", err)
	}
	if n := len(f.requests()); n != 1 || len(rec.got()) != 0 {
		t.Errorf("requests = %d, delays = %v; want 1 and none", n, rec.got())
	}
}

func TestClientStatusErrorKeepsNoMessage(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 400,
		body: `{"error":{"message":"This model's context ... Alice: my secret plan","type":"invalid_request_error","code":"context_length_exceeded"}}`}))
	c, _ := newTestClient(t, f, Config{MaxRetries: 3}, nil)
	var got pingReply
	err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	if err == nil {
		t.Fatal("want error")
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("400 was retried: %d requests", n)
	}
	if strings.Contains(err.Error(), "secret plan") {
		t.Errorf("error quotes the server's message: %q", err)
	}
	if !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "context_length_exceeded") {
		t.Errorf("error = %q, want status and code", err)
	}
}

func TestClientRetriesRequestTimeoutStatus(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 408}, fakeReply{content: pingOK}))
	c, _ := newTestClient(t, f, Config{}, nil)
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestClientMalformedRepliesRetriedOnce(t *testing.T) {
	t.Parallel()
	cases := map[string]fakeReply{
		"content not JSON":       {content: "Sure! Here is the JSON you asked for"},
		"missing required field": {content: `{"answer":"pong","count":3,"ok":true,"tags":[]}`},
		"wrong type":             {content: `{"answer":"pong","count":"three","ok":true,"note":null,"tags":[]}`},
		"null not nullable":      {content: `{"answer":null,"count":3,"ok":true,"note":null,"tags":[]}`},
		"wrong item type":        {content: `{"answer":"pong","count":3,"ok":true,"note":null,"tags":[1]}`},
		"trailing data":          {content: pingOK + ` {"again":1}`},
		"body not JSON":          {body: "<html>502 Bad Gateway</html>"},
		"no choices":             {body: `{"id":"x","choices":[]}`},
		"content null":           {body: `{"choices":[{"message":{"role":"assistant","content":null}}]}`},
		"truncated":              {content: `{"answer":"po`, finish: "length"},
	}
	for name, rep := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, "", replies(rep))
			c, _ := newTestClient(t, f, Config{MaxRetries: 5}, nil)
			var got pingReply
			err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
			if !errors.Is(err, ErrMalformedReply) {
				t.Fatalf("err = %v, want ErrMalformedReply", err)
			}
			if n := len(f.requests()); n != 2 {
				t.Errorf("requests = %d, want 2 (one retry)", n)
			}
		})
	}
}

func TestClientMalformedThenValid(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: "{"}, fakeReply{content: "```json\n" + pingOK + "\n```"}))
	c, _ := newTestClient(t, f, Config{}, nil)
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	if got.Answer != "pong" {
		t.Errorf("answer = %q", got.Answer)
	}
}

func TestClientRefusalNotRetried(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{body: `{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`}))
	c, _ := newTestClient(t, f, Config{}, nil)
	var got pingReply
	err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want ErrRefused", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestClientBodyTooLarge(t *testing.T) {
	t.Parallel()
	huge := `{"answer":"` + strings.Repeat("x", MaxResponseBytes) + `","count":1,"ok":true,"note":null,"tags":[]}`
	f := newFake(t, "", replies(fakeReply{content: huge}))
	c, _ := newTestClient(t, f, Config{MaxRetries: -1}, nil)
	var got pingReply
	err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	if !errors.Is(err, ErrMalformedReply) || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("err = %v, want body-size error", err)
	}
}

func TestClientPerAttemptTimeout(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{hang: time.Minute}))
	c, rec := newTestClient(t, f, Config{Timeout: 50 * time.Millisecond, MaxRetries: 1}, nil)
	start := time.Now()
	var got pingReply
	err := c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("per-attempt timeout reported as the caller's deadline: %v", err)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("took %v; the timeout did not cut the hang", el)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
	if len(rec.got()) != 1 {
		t.Errorf("delays = %v, want 1", rec.got())
	}
}

func TestClientConnectionErrorRetried(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: pingOK}))
	url := f.baseURL()
	f.srv.Close() // nothing listens there any more
	c, err := NewClient(Config{BaseURL: url, Model: "m", MaxRetries: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &sleepRecorder{}
	c.p.sleep = rec.sleep
	var got pingReply
	err = c.CompleteJSON(context.Background(), "ping", pingSchema, pingMsgs, &got)
	if err == nil || !strings.Contains(err.Error(), "transport") {
		t.Fatalf("err = %v, want transport error", err)
	}
	if len(rec.got()) != 2 {
		t.Errorf("delays = %v, want 2 retries", rec.got())
	}
}

func TestClientParentCancelledStopsAtOnce(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{hang: time.Minute}))
	c, rec := newTestClient(t, f, Config{Timeout: time.Minute, MaxRetries: 3}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	var got pingReply
	err := c.CompleteJSON(ctx, "ping", pingSchema, pingMsgs, &got)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(f.requests()); n != 1 || len(rec.got()) != 0 {
		t.Errorf("requests = %d, delays = %v; want 1 and none", n, rec.got())
	}
}

func TestClientLogsNoSecrets(t *testing.T) {
	t.Parallel()
	const key = "sk-very-secret-key-123"
	f := newFake(t, key, replies(fakeReply{status: 500}, fakeReply{content: "not json"}, fakeReply{content: pingOK}))
	var logs logBuffer
	c, _ := newTestClient(t, f, Config{MaxRetries: 3}, logs.logger())
	msgs := []Message{{Role: "system", Content: "SYSTEM-PROMPT-MARKER"}, {Role: "user", Content: "TRANSCRIPT-MARKER"}}
	var got pingReply
	if err := c.CompleteJSON(context.Background(), "ping", pingSchema, msgs, &got); err != nil {
		t.Fatalf("CompleteJSON: %v", err)
	}
	out := logs.String()
	if !strings.Contains(out, `"attempt":3`) || !strings.Contains(out, `"status":500`) {
		t.Errorf("logs lack attempt/status:\n%s", out)
	}
	for _, secret := range []string{key, "SYSTEM-PROMPT-MARKER", "TRANSCRIPT-MARKER", "pong"} {
		if strings.Contains(out, secret) {
			t.Errorf("logs contain %q:\n%s", secret, out)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"5", 5 * time.Second, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"-3", 0, false},
		{"soon", 0, false},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(-10 * time.Second).Format(http.TimeFormat), 0, true},
	}
	for _, tc := range cases {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestBackoffGrowsAndCaps(t *testing.T) {
	t.Parallel()
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	for i, w := range want {
		if got := backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := backoff(1000); got != backoffCap {
		t.Errorf("backoff(1000) = %v", got)
	}
}

func TestSchemaValidate(t *testing.T) {
	t.Parallel()
	s := obj(prop("a", arr(obj(prop("b", &Schema{Type: "number", Nullable: true})), "")))
	if err := s.Validate(map[string]any{"a": []any{map[string]any{"b": nil}}}); err != nil {
		t.Errorf("valid value: %v", err)
	}
	err := s.Validate(map[string]any{"a": []any{map[string]any{"b": "x"}}})
	if err == nil || !strings.Contains(err.Error(), "$.a[0].b") || strings.Contains(err.Error(), `"x"`) {
		t.Errorf("err = %v, want a path without the value", err)
	}
}

// TestValidSchemaName: the hand-written check accepts exactly what
// OpenAI's rule (schemaNameRule, as a regexp) accepts.
func TestValidSchemaName(t *testing.T) {
	rule := regexp.MustCompile(schemaNameRule)
	for _, name := range []string{"", "a", "structure", "Memories_v2", "a-b", strings.Repeat("x", 64), strings.Repeat("x", 65),
		"has space", "dot.name", "ünïcode", "tab\t", "slash/", "-", "_"} {
		if got, want := validSchemaName(name), rule.MatchString(name); got != want {
			t.Errorf("validSchemaName(%q) = %v, the rule says %v", name, got, want)
		}
	}
}
