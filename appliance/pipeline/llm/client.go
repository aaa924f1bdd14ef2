package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"time"
)

// Config configures a Client.
type Config struct {
	// BaseURL is the server's API root including the version prefix, e.g.
	// http://127.0.0.1:11434/v1; requests go to BaseURL + "/chat/completions".
	BaseURL string
	// Model is the model name as the server knows it (llama3.1:8b, gpt-4o-mini).
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer KEY". Local servers
	// need none.
	APIKey string
	// Timeout bounds one attempt, reading the reply included; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is retried: 0 means
	// DefaultMaxRetries, a negative value means never.
	MaxRetries int
	// Temperature is sent as is; 0 (greedy) suits extraction, which wants
	// the most likely answer, not a creative one. A negative value leaves
	// it out, for models that reject the parameter (OpenAI's reasoning
	// models accept only their default).
	Temperature float64
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user or assistant
	Content string `json:"content"`
}

// Client asks an OpenAI-compatible chat completions server for replies that
// match a JSON schema. It is safe for concurrent use.
type Client struct {
	cfg Config
	p   *poster
}

// NewClient checks cfg and returns a client. A nil logger discards logs.
func NewClient(cfg Config, logger *slog.Logger) (*Client, error) {
	if err := checkURL(cfg.BaseURL); err != nil {
		return nil, fmt.Errorf("llm client: %w", err)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llm client: model is required")
	}
	p := newPoster("chat completion", cfg.BaseURL, "/chat/completions", cfg.APIKey, cfg.Model,
		cfg.Timeout, cfg.MaxRetries, logger)
	return &Client{cfg: cfg, p: p}, nil
}

func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base url must be an http(s) URL such as http://127.0.0.1:11434/v1")
	}
	return nil
}

// Model is the configured model name.
func (c *Client) Model() string { return c.cfg.Model }

type chatRequest struct {
	Model          string         `json:"model"`
	Messages       []Message      `json:"messages"`
	ResponseFormat responseFormat `json:"response_format"`
	Temperature    *float64       `json:"temperature,omitempty"`
	Stream         bool           `json:"stream"`
}

type responseFormat struct {
	Type       string     `json:"type"` // json_schema
	JSONSchema jsonSchema `json:"json_schema"`
}

type jsonSchema struct {
	Name   string  `json:"name"`
	Strict bool    `json:"strict"`
	Schema *Schema `json:"schema"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content json.RawMessage `json:"content"`
			Refusal *string         `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

// schemaNameRule is OpenAI's rule for response_format.json_schema.name.
// It is checked by validSchemaName, not a regexp: `{1,64}` compiles to 64
// copies, which cost ~0.1 ms of every start-up in the package's init.
const schemaNameRule = `^[A-Za-z0-9_-]{1,64}$`

// validSchemaName reports whether name matches schemaNameRule.
func validSchemaName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CompleteJSON sends messages with a strict JSON schema response format
// named name, checks that choices[0].message.content is JSON matching
// schema, and decodes it into out (a pointer). Failures are retried per the
// package policy; the returned error says "chat completion: ...", wraps
// ErrMalformedReply, ErrTimeout, ErrRefused, a *StatusError or the context's
// error, and never contains the prompt or the reply.
func (c *Client) CompleteJSON(ctx context.Context, name string, schema *Schema, messages []Message, out any) error {
	if !validSchemaName(name) {
		return fmt.Errorf("chat completion: schema name %q must match %s", name, schemaNameRule)
	}
	if schema == nil || schema.Type != "object" {
		return errors.New("chat completion: schema must be an object")
	}
	req := chatRequest{
		Model:    c.cfg.Model,
		Messages: messages,
		ResponseFormat: responseFormat{Type: "json_schema", JSONSchema: jsonSchema{
			Name: name, Strict: true, Schema: schema,
		}},
	}
	if t := c.cfg.Temperature; t >= 0 {
		req.Temperature = &t
	}
	body, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("chat completion: encode request: %w", err)
	}
	return c.p.post(ctx, body, func(data []byte) error { return decodeChat(data, schema, out) })
}

// decodeChat extracts, validates and decodes the reply's JSON content.
func decodeChat(data []byte, schema *Schema, out any) error {
	var resp chatResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return fmt.Errorf("%w: body is not a chat completion: %v", ErrMalformedReply, syntaxOnly(err))
	}
	if len(resp.Choices) == 0 {
		return fmt.Errorf("%w: no choices", ErrMalformedReply)
	}
	ch := resp.Choices[0]
	if ch.Message.Refusal != nil && *ch.Message.Refusal != "" {
		return ErrRefused
	}
	var content string
	if err := json.Unmarshal(ch.Message.Content, &content); err != nil {
		return fmt.Errorf("%w: message content is not a string", ErrMalformedReply)
	}
	if ch.FinishReason == "length" {
		// Cut off by the token limit: whatever JSON there is, is incomplete.
		return fmt.Errorf("%w: reply truncated (finish_reason length)", ErrMalformedReply)
	}
	raw := []byte(stripFence(content))
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%w: content is not JSON: %v", ErrMalformedReply, syntaxOnly(err))
	}
	if dec.More() {
		return fmt.Errorf("%w: content has data after the JSON value", ErrMalformedReply)
	}
	if err := schema.Validate(v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformedReply, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformedReply, syntaxOnly(err))
	}
	return nil
}

// stripFence removes a Markdown code fence some servers wrap around JSON
// even in schema mode (older llama.cpp builds, some proxies).
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:] // drop the info string ("json")
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

// syntaxOnly keeps a JSON error's kind and offset. encoding/json's messages
// quote at most one character of the input, but an UnmarshalTypeError can
// name a Go field and an arbitrary error might carry more, so anything that
// is not a known type is reduced to a generic description.
func syntaxOnly(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at offset %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("%s is %s, want %s", te.Field, te.Value, te.Type)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of JSON"
	default:
		return "invalid JSON"
	}
}
