// Package openaistt is a speech route over any OpenAI-compatible
// /v1/audio/transcriptions server: speaches, whisper.cpp's server, vLLM, a
// GPU box on the LAN, or OpenAI itself. Audio leaves the appliance for
// that server, so the route is on only when the owner configures it.
// Batches post each speech chunk as a WAV file; live streams post each
// utterance the shared VAD cuts.
package openaistt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Name is the route's name in replies and logs.
const Name = "openai"

// Config is where the server is and how to call it.
type Config struct {
	BaseURL string // e.g. http://gpu-box.lan:8000/v1
	Model   string // e.g. whisper-1, Systran/faster-whisper-small
	APIKey  string // sent as a bearer token; never logged or shown
	Timeout time.Duration
	// Languages the server serves; empty is every language and detection.
	Languages []string
}

// Route is the OpenAI-compatible route.
type Route struct {
	cfg    Config
	client *http.Client
}

// New checks the configuration.
func New(cfg Config) (*Route, error) {
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "the transcription server's address is not an http(s) URL"}
	}
	if cfg.Model == "" {
		cfg.Model = "whisper-1"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	cfg.BaseURL = u.String()
	return &Route{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}, nil
}

// Name implements the providers.
func (r *Route) Name() string { return Name }

// Undiarized implements stt.Undiarized: the route names no speakers.
func (r *Route) Undiarized() bool { return true }

// Model names the server's model (stt_model).
func (r *Route) Model() string { return r.cfg.Model }

// Supports implements the providers.
func (r *Route) Supports(language string, channels int) bool {
	if channels > 1 {
		return false
	}
	if len(r.cfg.Languages) == 0 {
		return true
	}
	l := strings.ToLower(language)
	for _, s := range r.cfg.Languages {
		if strings.EqualFold(s, l) {
			return true
		}
	}
	return false
}

// reply is the verbose_json answer.
type reply struct {
	Text     string `json:"text"`
	Language string `json:"language"`
	Segments []struct {
		Start float64 `json:"start"`
		End   float64 `json:"end"`
		Text  string  `json:"text"`
	} `json:"segments"`
}

// Transcribe implements stt.BatchProvider.
func (r *Route) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "audio.wav")
	fw.Write(audio.WAV(pcm, audio.Rate))
	mw.WriteField("model", r.cfg.Model)
	mw.WriteField("response_format", "verbose_json")
	mw.WriteField("timestamp_granularities[]", "segment")
	if l := strings.ToLower(cfg.Language); l != "" && l != "multi" && l != "auto" {
		base, _, _ := strings.Cut(l, "-")
		mw.WriteField("language", base)
	}
	mw.Close()
	req, err := http.NewRequestWithContext(ctx, "POST", r.cfg.BaseURL+"/audio/transcriptions", &body)
	if err != nil {
		return stt.Transcript{}, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "bad request", Err: err}
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if r.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+r.cfg.APIKey)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		var ne interface{ Timeout() bool }
		if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			return stt.Transcript{}, &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "timeout", Err: scrub(err)}
		}
		return stt.Transcript{}, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "unreachable", Err: scrub(err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return stt.Transcript{}, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return stt.Transcript{}, statusError(resp.StatusCode)
	}
	var rep reply
	if err := json.Unmarshal(data, &rep); err != nil {
		return stt.Transcript{}, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "invalid_response", Err: err}
	}
	tr := stt.Transcript{Text: strings.TrimSpace(rep.Text), DetectedLanguage: rep.Language, Segments: []stt.Segment{}}
	for _, s := range rep.Segments {
		if t := strings.TrimSpace(s.Text); t != "" {
			tr.Segments = append(tr.Segments, stt.Segment{Start: s.Start, End: s.End, Text: t})
		}
	}
	if len(tr.Segments) == 0 && tr.Text != "" {
		tr.Segments = append(tr.Segments, stt.Segment{Start: 0, End: float64(len(pcm)) / audio.Rate, Text: tr.Text})
	}
	return tr, nil
}

// statusError classifies a refusal: the owner's configuration (401, 403,
// 404), the audio (400, 413, 415, 422), or the server's trouble.
func statusError(code int) error {
	e := &stt.Error{Provider: Name, Reason: fmt.Sprintf("http_%d", code), Err: fmt.Errorf("transcription server answered %d", code)}
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound:
		e.Outcome = stt.ConfigError
	case code == http.StatusBadRequest || code == http.StatusRequestEntityTooLarge || code == http.StatusUnsupportedMediaType || code == http.StatusUnprocessableEntity:
		e.Outcome = stt.InvalidInput
	case code == http.StatusRequestTimeout || code == http.StatusGatewayTimeout:
		e.Outcome = stt.Timeout
	default:
		e.Outcome = stt.UpstreamError
	}
	return e
}

// scrub keeps a URL's credentials out of an error.
func scrub(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return fmt.Errorf("%s %s: %w", ue.Op, u.Redacted(), ue.Err)
		}
	}
	return err
}
