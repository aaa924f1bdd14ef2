// Package soniox is a speech route over Soniox's real-time WebSocket API:
// the key on the handshake (Authorization: Bearer), a JSON configuration
// first (model, pcm_s16le at 16 kHz mono, language hints, speaker
// diarization), then binary audio, and an empty message to end. Results
// are tokens, final or not; the route takes the final ones. Batches go
// through the same socket, a chunk at a time. Audio leaves the appliance
// for Soniox, so the route is on only when the owner gives it a key.
package soniox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/internal/wsstream"
)

// Name is the route's name in replies and logs.
const Name = "soniox"

// DefaultURL is Soniox's real-time endpoint.
const DefaultURL = "wss://stt-rt.soniox.com/transcribe-websocket"

// Config is how to reach Soniox.
type Config struct {
	APIKey string // sent on the handshake; never logged or shown
	URL    string // DefaultURL unless testing
	Model  string // default stt-rt-v3
}

// Route is the Soniox route.
type Route struct{ cfg Config }

// New checks the configuration.
func New(cfg Config) (*Route, error) {
	if cfg.APIKey == "" {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "no Soniox API key"}
	}
	if cfg.URL == "" {
		cfg.URL = DefaultURL
	}
	if !strings.HasPrefix(cfg.URL, "wss://") && !strings.HasPrefix(cfg.URL, "ws://") {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "the Soniox address is not a ws(s) URL"}
	}
	if cfg.Model == "" {
		cfg.Model = "stt-rt-v3"
	}
	return &Route{cfg: cfg}, nil
}

// Name implements the providers.
func (r *Route) Name() string { return Name }

// Model names the model (stt_model).
func (r *Route) Model() string { return r.cfg.Model }

// languages are the 60 Soniox's real-time models transcribe (its
// published list, by ISO 639-1 code); "multi" is its detection.
var languages = func() map[string]bool {
	m := map[string]bool{"multi": true, "auto": true}
	for _, l := range strings.Fields(`af ar az be bg bn bs ca cs cy da de el en es et eu fa fi fr gl gu he hi hr hu id it ja kk
		kn ko lt lv mk ml mr ms nl no pa pl pt ro ru sk sl sq sr sv sw ta te th tl tr uk ur vi zh`) {
		m[l] = true
	}
	return m
}()

// Supports implements the providers: the route sends the language as a
// hint to models that also detect it.
func (r *Route) Supports(language string, channels int) bool {
	base, _, _ := strings.Cut(strings.ToLower(language), "-")
	return channels <= 1 && languages[base]
}

// config is the first message of a session.
type config struct {
	Model                    string   `json:"model"`
	AudioFormat              string   `json:"audio_format"`
	SampleRate               int      `json:"sample_rate"`
	NumChannels              int      `json:"num_channels"`
	LanguageHints            []string `json:"language_hints,omitempty"`
	EnableSpeakerDiarization bool     `json:"enable_speaker_diarization"`
	EnableEndpointDetection  bool     `json:"enable_endpoint_detection"`
}

// message is what Soniox sends: tokens, the end, or an error.
type message struct {
	Tokens []struct {
		Text    string  `json:"text"`
		StartMS float64 `json:"start_ms"`
		EndMS   float64 `json:"end_ms"`
		IsFinal bool    `json:"is_final"`
		Speaker string  `json:"speaker"`
	} `json:"tokens"`
	Finished     bool   `json:"finished"`
	ErrorCode    int    `json:"error_code"`
	ErrorMessage string `json:"error_message"`
}

// Open implements stt.StreamingProvider.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	dialer := websocket.Dialer{HandshakeTimeout: 15 * time.Second}
	conn, resp, err := dialer.DialContext(ctx, r.cfg.URL, http.Header{"Authorization": {"Bearer " + r.cfg.APIKey}})
	if err != nil {
		if resp != nil {
			return nil, statusError(resp.StatusCode, "")
		}
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "unreachable", Err: err}
	}
	c := config{Model: r.cfg.Model, AudioFormat: "pcm_s16le", SampleRate: audio.Rate, NumChannels: 1,
		EnableSpeakerDiarization: cfg.Diarize, EnableEndpointDetection: true}
	if l := strings.ToLower(cfg.Language); l != "multi" && l != "auto" {
		base, _, _ := strings.Cut(l, "-")
		c.LanguageHints = []string{base}
	}
	if err := conn.WriteJSON(c); err != nil {
		conn.Close()
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err}
	}
	return wsstream.Start(conn, wsstream.Options{Provider: Name, Read: read,
		// An empty message ends the audio.
		End: func(conn *websocket.Conn, _ int) error { return conn.WriteMessage(websocket.BinaryMessage, []byte{}) }}), nil
}

// statusError classifies a refusal by HTTP status or Soniox error code.
func statusError(code int, msg string) error {
	e := &stt.Error{Provider: Name, Reason: "http_" + strconv.Itoa(code), Err: fmt.Errorf("status %d from Soniox: %s", code, msg)}
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusPaymentRequired:
		e.Outcome = stt.ConfigError
	case code == http.StatusBadRequest:
		e.Outcome = stt.InvalidInput
	case code == http.StatusRequestTimeout:
		e.Outcome = stt.Timeout
	default:
		e.Outcome = stt.UpstreamError
	}
	return e
}

// read turns final tokens into words (a token that starts with a space
// starts a word) until Soniox says it has finished.
func read(conn *websocket.Conn, s *wsstream.Stream) {
	var word *stt.Word
	flush := func() {
		if word != nil && strings.TrimSpace(word.Text) != "" {
			w := *word
			w.Text = strings.TrimSpace(w.Text)
			s.Emit([]stt.Word{w})
		}
		word = nil
	}
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			s.Fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err})
			flush()
			return
		}
		var m message
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.ErrorCode != 0 {
			s.Fail(statusError(m.ErrorCode, m.ErrorMessage))
			flush()
			return
		}
		for _, t := range m.Tokens {
			if !t.IsFinal || t.Text == "" || strings.HasPrefix(t.Text, "<") { // <end> and other markers
				continue
			}
			speaker, _ := strconv.Atoi(t.Speaker)
			if word == nil || strings.HasPrefix(t.Text, " ") || speaker != word.Speaker {
				flush()
				word = &stt.Word{Text: t.Text, Start: t.StartMS / 1000, End: t.EndMS / 1000, Speaker: speaker}
				continue
			}
			word.Text += t.Text
			word.End = t.EndMS / 1000
		}
		if m.Finished {
			flush()
			return
		}
	}
}

// Transcribe implements stt.BatchProvider through the real-time socket.
func (r *Route) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	tr, err := stt.TranscribeThroughStream(ctx, r, pcm, cfg)
	tr.DetectedLanguage = cfg.Language
	return tr, err
}
