// Package speechmatics is a speech route over Speechmatics' real-time
// WebSocket API (/v2): the key on the handshake (Authorization: Bearer),
// StartRecognition with raw pcm_s16le at 16 kHz and the transcription
// configuration, RecognitionStarted back, then binary AddAudio frames,
// each acknowledged by AudioAdded with its sequence number, and
// EndOfStream with the last sequence number to end; the server sends what
// it still holds and EndOfTranscript. Results arrive as AddTranscript
// (final) and AddPartialTranscript messages of words and punctuation; the
// route takes the final ones. Error closes the session; Warning and Info
// are logged by the caller's outcome only. Batches go through the same
// socket, a chunk at a time. Audio leaves the appliance for Speechmatics,
// so the route is on only when the owner gives it a key.
package speechmatics

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
const Name = "speechmatics"

// DefaultURL is Speechmatics' real-time endpoint (the EU region).
const DefaultURL = "wss://eu2.rt.speechmatics.com/v2"

// Config is how to reach Speechmatics.
type Config struct {
	APIKey string // sent on the handshake; never logged or shown
	URL    string // DefaultURL unless testing or another region
	// OperatingPoint is "standard" or "enhanced" (default enhanced).
	OperatingPoint string
}

// Route is the Speechmatics route.
type Route struct{ cfg Config }

// New checks the configuration.
func New(cfg Config) (*Route, error) {
	if cfg.APIKey == "" {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "no Speechmatics API key"}
	}
	if cfg.URL == "" {
		cfg.URL = DefaultURL
	}
	if !strings.HasPrefix(cfg.URL, "wss://") && !strings.HasPrefix(cfg.URL, "ws://") {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "the Speechmatics address is not a ws(s) URL"}
	}
	switch cfg.OperatingPoint {
	case "":
		cfg.OperatingPoint = "enhanced"
	case "standard", "enhanced":
	default:
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "operating point must be standard or enhanced"}
	}
	return &Route{cfg: cfg}, nil
}

// Name implements the providers.
func (r *Route) Name() string { return Name }

// Model names the model (stt_model).
func (r *Route) Model() string { return "speechmatics-" + r.cfg.OperatingPoint }

// languages are the codes Speechmatics' real-time engine transcribes
// (its published language list, by ISO 639-1 code, plus "auto" through
// language identification, which the route asks for on "multi").
var languages = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Fields(`ar ba be bg bn ca cmn cs cy da de el en eo es et eu fa fi fr ga gl he hi hr hu ia id
		it ja ko lt lv mn mr ms mt nl no pl pt ro ru sk sl sv sw ta th tr ug uk ur vi yue zh`) {
		m[l] = true
	}
	return m
}()

// language maps the contract's language to Speechmatics': the base code,
// "auto" for multi, or "" when it is not served.
func language(l string) string {
	l = strings.ToLower(l)
	if l == "multi" || l == "auto" {
		return "auto"
	}
	base, _, _ := strings.Cut(l, "-")
	if languages[base] {
		return base
	}
	return ""
}

// Supports implements the providers.
func (r *Route) Supports(lang string, channels int) bool {
	return channels <= 1 && language(lang) != ""
}

// startRecognition is the first message of a session.
type startRecognition struct {
	Message     string `json:"message"`
	AudioFormat struct {
		Type       string `json:"type"`
		Encoding   string `json:"encoding"`
		SampleRate int    `json:"sample_rate"`
	} `json:"audio_format"`
	TranscriptionConfig struct {
		Language       string  `json:"language"`
		OperatingPoint string  `json:"operating_point"`
		EnablePartials bool    `json:"enable_partials"`
		MaxDelay       float64 `json:"max_delay"`
		Diarization    string  `json:"diarization,omitempty"`
	} `json:"transcription_config"`
}

// message is what Speechmatics sends.
type message struct {
	Message string `json:"message"`
	SeqNo   int    `json:"seq_no"`
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Results []struct {
		Type         string  `json:"type"` // word, punctuation
		StartTime    float64 `json:"start_time"`
		EndTime      float64 `json:"end_time"`
		AttachesTo   string  `json:"attaches_to"`
		Alternatives []struct {
			Content string `json:"content"`
			Speaker string `json:"speaker"`
		} `json:"alternatives"`
	} `json:"results"`
}

// Open implements stt.StreamingProvider.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	lang := language(cfg.Language)
	if lang == "" || max(cfg.Channels, 1) > 1 {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	dialer := websocket.Dialer{HandshakeTimeout: 15 * time.Second}
	conn, resp, err := dialer.DialContext(ctx, r.cfg.URL, http.Header{"Authorization": {"Bearer " + r.cfg.APIKey}})
	if err != nil {
		if resp != nil {
			return nil, statusError(resp.StatusCode)
		}
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "unreachable", Err: err}
	}
	var start startRecognition
	start.Message = "StartRecognition"
	start.AudioFormat.Type, start.AudioFormat.Encoding, start.AudioFormat.SampleRate = "raw", "pcm_s16le", audio.Rate
	start.TranscriptionConfig.Language = lang
	start.TranscriptionConfig.OperatingPoint = r.cfg.OperatingPoint
	start.TranscriptionConfig.MaxDelay = 2
	if cfg.Diarize {
		start.TranscriptionConfig.Diarization = "speaker"
	}
	if err := conn.WriteJSON(start); err != nil {
		conn.Close()
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err}
	}
	// Audio may be sent only once recognition has started.
	conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	for {
		var m message
		if err := conn.ReadJSON(&m); err != nil {
			conn.Close()
			return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err}
		}
		if m.Message == "Error" {
			conn.Close()
			return nil, sessionError(m.Type)
		}
		if m.Message == "RecognitionStarted" {
			break
		}
	}
	conn.SetReadDeadline(time.Time{})
	return wsstream.Start(conn, wsstream.Options{Provider: Name, Read: read, End: endOfStream}), nil
}

// statusError classifies a refused handshake.
func statusError(code int) error {
	e := &stt.Error{Provider: Name, Reason: "http_" + strconv.Itoa(code), Err: fmt.Errorf("status %d from Speechmatics", code)}
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusPaymentRequired:
		e.Outcome = stt.ConfigError
	case http.StatusBadRequest:
		e.Outcome = stt.InvalidInput
	default:
		e.Outcome = stt.UpstreamError
	}
	return e
}

// sessionError classifies an Error message by its type. Its reason is
// the vendor's text and is not passed on (it may echo configuration).
func sessionError(typ string) error {
	e := &stt.Error{Provider: Name, Reason: "speechmatics_" + typ, Err: fmt.Errorf("session ended by Speechmatics: %s", typ)}
	switch typ {
	case "not_authorised", "insufficient_funds", "not_allowed", "invalid_model", "invalid_config", "quota_exceeded":
		e.Outcome = stt.ConfigError
	case "invalid_audio_type", "invalid_message", "protocol_error":
		e.Outcome = stt.InvalidInput
	case "timelimit_exceeded", "idle_timeout", "session_timeout":
		e.Outcome = stt.Timeout
	default: // job_error, internal_error, unknown_error, …
		e.Outcome = stt.UpstreamError
	}
	return e
}

// endOfStream ends the audio with the number of the last AddAudio frame;
// Speechmatics sends what it still holds, then EndOfTranscript.
func endOfStream(conn *websocket.Conn, sent int) error {
	return conn.WriteJSON(map[string]any{"message": "EndOfStream", "last_seq_no": sent})
}

// read turns final transcripts into words (punctuation joins the word it
// attaches to) until EndOfTranscript or an Error.
func read(conn *websocket.Conn, s *wsstream.Stream) {
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			s.Fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err})
			return
		}
		var m message
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Message {
		case "Error":
			s.Fail(sessionError(m.Type))
			return
		case "EndOfTranscript":
			return
		case "AddTranscript":
			if ws := words(m); len(ws) > 0 {
				s.Emit(ws)
			}
		}
	}
}

// words reads one AddTranscript's results. Speakers are S1, S2, … (UU when
// unknown): the number is the speaker id.
func words(m message) []stt.Word {
	var out []stt.Word
	for _, r := range m.Results {
		if len(r.Alternatives) == 0 || r.Alternatives[0].Content == "" {
			continue
		}
		a := r.Alternatives[0]
		if r.Type == "punctuation" {
			if n := len(out); n > 0 && r.AttachesTo != "next" {
				out[n-1].Text += a.Content
			}
			continue
		}
		speaker, _ := strconv.Atoi(strings.TrimPrefix(a.Speaker, "S"))
		out = append(out, stt.Word{Text: a.Content, Start: r.StartTime, End: r.EndTime, Speaker: speaker})
	}
	return out
}

// Transcribe implements stt.BatchProvider through the real-time socket.
func (r *Route) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	tr, err := stt.TranscribeThroughStream(ctx, r, pcm, cfg)
	if l := language(cfg.Language); l != "auto" {
		tr.DetectedLanguage = l
	}
	return tr, err
}
