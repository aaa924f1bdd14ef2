package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry and size bounds shared by Client and Embedder.
const (
	// DefaultTimeout bounds one attempt. Local models on small hardware can
	// take tens of seconds for a long transcript, hence a generous minute
	// (the same as appliance.DefaultConfig's LLMTimeout).
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRetries is how many times a failed attempt is retried when
	// the configuration says 0.
	DefaultMaxRetries = 2
	// MaxResponseBytes caps a chat completion reply body. A structure reply
	// is a few KB, so anything near this is a broken or runaway server. The
	// embeddings cap grows with batch size and dimensions (see NewEmbedder).
	MaxResponseBytes = 4 << 20
	// MaxRetryAfter is the longest Retry-After Hearth waits out. A server
	// asking for more is treated as unavailable: the caller falls back to
	// the built-in route rather than holding a conversation for minutes.
	MaxRetryAfter = 30 * time.Second

	backoffBase = 500 * time.Millisecond
	backoffCap  = 8 * time.Second
)

// ErrMalformedReply marks a reply that is not valid JSON or does not match
// the requested schema. It is retried once.
var ErrMalformedReply = errors.New("malformed reply")

// ErrTimeout marks an attempt that exceeded its per-attempt timeout (as
// opposed to the caller's context ending, which is reported as ctx.Err()).
var ErrTimeout = errors.New("attempt timed out")

// ErrRefused marks a model's refusal to answer (OpenAI's message.refusal).
// It is not retried: the same prompt gets the same refusal.
var ErrRefused = errors.New("model refused")

// StatusError is a non-2xx reply. Only the status and the server's short
// error type and code are kept: the message may quote the request.
type StatusError struct {
	Status int
	Type   string // error.type of an OpenAI-style error body, if any
	Code   string // error.code, if any
	// RetryAfter is the parsed Retry-After header; HasRetryAfter says whether
	// there was one (a zero value is a valid "retry now").
	RetryAfter    time.Duration
	HasRetryAfter bool
}

func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "server replied %d %s", e.Status, http.StatusText(e.Status))
	if e.Type != "" || e.Code != "" {
		fmt.Fprintf(&b, " (%s)", strings.Trim(e.Type+" "+e.Code, " "))
	}
	return b.String()
}

// retryable reports whether the status is worth another attempt.
func (e *StatusError) retryable() bool {
	switch {
	case e.Status == http.StatusRequestTimeout, e.Status == http.StatusTooManyRequests:
		return true
	case e.Status == http.StatusNotImplemented:
		return false
	default:
		return e.Status >= 500
	}
}

// poster POSTs JSON to one endpoint with the retry policy of the package doc.
type poster struct {
	what    string // "chat completion" or "embeddings": the error context
	url     string
	apiKey  string
	model   string // for logs only
	timeout time.Duration
	retries int
	limit   int64 // reply body cap in bytes
	http    *http.Client
	logger  *slog.Logger

	// sleep waits between attempts; tests replace it to observe delays
	// without spending them.
	sleep func(ctx context.Context, d time.Duration) error
	// jitter picks the actual delay for a backoff ceiling.
	jitter func(d time.Duration) time.Duration
}

func newPoster(what, baseURL, path, apiKey, model string, timeout time.Duration, retries int, logger *slog.Logger) *poster {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	switch {
	case retries == 0:
		retries = DefaultMaxRetries
	case retries < 0:
		retries = 0
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &poster{
		what:    what,
		url:     strings.TrimRight(baseURL, "/") + path,
		apiKey:  apiKey,
		model:   model,
		timeout: timeout,
		retries: retries,
		limit:   MaxResponseBytes,
		// No client-wide Timeout: each attempt gets its own context deadline,
		// which also covers reading the body.
		http:   &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		logger: logger,
		sleep:  sleepCtx,
		// Equal jitter: half the ceiling fixed, half random, so retries from
		// several conversations spread out but never fire immediately.
		jitter: func(d time.Duration) time.Duration { return d/2 + rand.N(d/2+1) },
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// backoff is the delay ceiling before retry n (1-based): base·2^(n-1), capped.
func backoff(n int) time.Duration {
	d := backoffBase
	for i := 1; i < n && d < backoffCap; i++ {
		d *= 2
	}
	return min(d, backoffCap)
}

// post sends body and hands a 2xx reply's bytes to decode. decode wraps
// ErrMalformedReply into errors that deserve the single malformed retry.
func (p *poster) post(ctx context.Context, body []byte, decode func([]byte) error) error {
	malformedRetried := false
	for attempt := 1; ; attempt++ {
		start := time.Now()
		status, err := p.attempt(ctx, body, decode)
		dur := time.Since(start).Round(time.Millisecond)
		if err == nil {
			p.logger.DebugContext(ctx, "llm request", "endpoint", p.what, "model", p.model,
				"status", status, "attempt", attempt, "duration", dur)
			return nil
		}
		if cerr := ctx.Err(); cerr != nil {
			// The caller gave up (cancelled, or its own deadline passed):
			// report that, not whatever the aborted attempt saw.
			return fmt.Errorf("%s: %w", p.what, cerr)
		}
		retry, delay := p.retryDecision(err, attempt, &malformedRetried)
		p.logger.DebugContext(ctx, "llm request failed", "endpoint", p.what, "model", p.model,
			"status", status, "attempt", attempt, "duration", dur, "retry", retry, "err", err)
		if !retry {
			return fmt.Errorf("%s: attempt %d: %w", p.what, attempt, err)
		}
		if err := p.sleep(ctx, delay); err != nil {
			return fmt.Errorf("%s: %w", p.what, err)
		}
	}
}

// retryDecision applies the retry policy to the error of attempt n.
func (p *poster) retryDecision(err error, n int, malformedRetried *bool) (bool, time.Duration) {
	if n > p.retries {
		return false, 0
	}
	var se *StatusError
	switch {
	case errors.As(err, &se):
		if !se.retryable() {
			return false, 0
		}
		if se.HasRetryAfter {
			if se.RetryAfter > MaxRetryAfter {
				return false, 0
			}
			return true, se.RetryAfter
		}
	case errors.Is(err, ErrMalformedReply):
		if *malformedRetried {
			return false, 0
		}
		*malformedRetried = true
	case errors.Is(err, ErrRefused):
		return false, 0
	}
	// Timeouts and connection errors land here too: retry with backoff.
	return true, p.jitter(backoff(n))
}

// attempt makes one request under its own timeout. It returns the HTTP
// status (0 when there was no reply) for logging.
func (p *poster) attempt(ctx context.Context, body []byte, decode func([]byte) error) (int, error) {
	actx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "hearth")
	if p.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.apiKey)
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return 0, p.transportError(actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, p.limit+1))
	if err != nil {
		return resp.StatusCode, p.transportError(actx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, statusError(resp, data)
	}
	if int64(len(data)) > p.limit {
		return resp.StatusCode, fmt.Errorf("%w: body exceeds %d bytes", ErrMalformedReply, p.limit)
	}
	return resp.StatusCode, decode(data)
}

// transportError names a per-attempt timeout as such; anything else is a
// connection-level failure (refused, reset, DNS), retried all the same.
func (p *poster) transportError(actx context.Context, err error) error {
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w after %v", ErrTimeout, p.timeout)
	}
	return fmt.Errorf("transport: %w", err)
}

func statusError(resp *http.Response, data []byte) *StatusError {
	se := &StatusError{Status: resp.StatusCode}
	se.RetryAfter, se.HasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	var eb struct {
		Error struct {
			Type string          `json:"type"`
			Code json.RawMessage `json:"code"` // a string at OpenAI, a number elsewhere
		} `json:"error"`
	}
	if json.Unmarshal(data, &eb) == nil {
		se.Type = shortToken(eb.Error.Type)
		code := strings.Trim(string(eb.Error.Code), `"`)
		if code != "null" {
			se.Code = shortToken(code)
		}
	}
	return se
}

// shortToken keeps identifier-like strings (rate_limit_exceeded, 429) and
// drops anything that looks like prose, which might quote the request.
func shortToken(s string) string {
	if len(s) > 64 {
		return ""
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return s
}

// parseRetryAfter reads delay-seconds or an HTTP date (RFC 9110 §10.2.3).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs != secs {
			return 0, false
		}
		if secs > (1<<62)/float64(time.Second) { // avoid overflow; MaxRetryAfter rejects it anyway
			return 1 << 62, true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
