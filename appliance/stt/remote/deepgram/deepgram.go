// Package deepgram is a speech route over Deepgram: live audio on its
// /v1/listen WebSocket with the options the reference service uses
// (punctuate, no_delay, endpointing=300, no interim results, smart_format,
// diarize, no filler words, linear16; nova-3, "multi" for detection,
// nova-2-general for Chinese and Thai), and pre-recorded chunks on POST
// /v1/listen. Audio leaves the appliance for Deepgram, so the route is on
// only when the owner gives it a key.
package deepgram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Name is the route's name in replies and logs.
const Name = "deepgram"

// DefaultURL is Deepgram's API.
const DefaultURL = "https://api.deepgram.com"

// Config is how to reach Deepgram.
type Config struct {
	APIKey  string // sent as "Authorization: Token …"; never logged or shown
	BaseURL string // DefaultURL unless testing or self-hosting
	Timeout time.Duration
	// KeepAlive is how often an idle live stream says it is still there
	// (Deepgram closes a stream that sends nothing for 10 s).
	KeepAlive time.Duration
}

// Route is the Deepgram route.
type Route struct {
	cfg    Config
	client *http.Client
}

// New checks the configuration.
func New(cfg Config) (*Route, error) {
	if cfg.APIKey == "" {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "no Deepgram API key"}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultURL
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "the Deepgram address is not an http(s) URL"}
	}
	cfg.BaseURL = u.String()
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.KeepAlive <= 0 {
		cfg.KeepAlive = 5 * time.Second
	}
	return &Route{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}, nil
}

// Name implements the providers.
func (r *Route) Name() string { return Name }

// languages Deepgram's nova models serve (and "multi", nova-3's
// multilingual mode).
var languages = []string{"multi", "en", "es", "fr", "de", "hi", "ru", "pt", "ja", "it", "nl", "zh", "th", "ko", "tr", "pl", "uk",
	"sv", "da", "no", "fi", "id", "ms", "vi", "cs", "el", "hu", "ro", "bg", "sk", "ca", "et", "lv", "lt"}

// Supports implements the providers.
func (r *Route) Supports(language string, channels int) bool {
	if channels > 2 {
		return false
	}
	base, _, _ := strings.Cut(strings.ToLower(language), "-")
	for _, l := range languages {
		if l == base {
			return true
		}
	}
	return false
}

// query is the reference's live options for a language.
func query(language string, diarize bool, live bool) url.Values {
	l := strings.ToLower(language)
	base, _, _ := strings.Cut(l, "-")
	model := "nova-3"
	if base == "zh" || base == "th" {
		model = "nova-2-general"
	}
	if l == "" || l == "auto" {
		l = "multi"
	}
	q := url.Values{"model": {model}, "language": {l}, "punctuate": {"true"}, "smart_format": {"true"},
		"filler_words": {"false"}, "diarize": {fmt.Sprint(diarize)}}
	if live {
		q.Set("encoding", "linear16")
		q.Set("sample_rate", fmt.Sprint(audio.Rate))
		q.Set("channels", "1")
		q.Set("interim_results", "false")
		q.Set("no_delay", "true")
		q.Set("endpointing", "300")
	}
	return q
}

// dgWord is a word in Deepgram's results.
type dgWord struct {
	Word           string  `json:"word"`
	PunctuatedWord string  `json:"punctuated_word"`
	Start          float64 `json:"start"`
	End            float64 `json:"end"`
	Speaker        int     `json:"speaker"`
}

func (w dgWord) word() stt.Word {
	t := w.PunctuatedWord
	if t == "" {
		t = w.Word
	}
	return stt.Word{Text: t, Start: w.Start, End: w.End, Speaker: w.Speaker}
}

// Transcribe implements stt.BatchProvider with pre-recorded audio.
func (r *Route) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", r.cfg.BaseURL+"/v1/listen?"+query(cfg.Language, cfg.Diarize, false).Encode(), bytes.NewReader(audio.WAV(pcm, audio.Rate)))
	if err != nil {
		return stt.Transcript{}, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "bad request", Err: err}
	}
	req.Header.Set("Authorization", "Token "+r.cfg.APIKey)
	req.Header.Set("Content-Type", "audio/wav")
	resp, err := r.client.Do(req)
	if err != nil {
		return stt.Transcript{}, transportError(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return stt.Transcript{}, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return stt.Transcript{}, statusError(resp.StatusCode)
	}
	var rep struct {
		Results struct {
			Channels []struct {
				DetectedLanguage string `json:"detected_language"`
				Alternatives     []struct {
					Transcript string   `json:"transcript"`
					Words      []dgWord `json:"words"`
				} `json:"alternatives"`
			} `json:"channels"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return stt.Transcript{}, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "invalid_response", Err: err}
	}
	tr := stt.Transcript{Segments: []stt.Segment{}, DetectedLanguage: cfg.Language}
	if len(rep.Results.Channels) == 0 || len(rep.Results.Channels[0].Alternatives) == 0 {
		return tr, nil
	}
	ch := rep.Results.Channels[0]
	if ch.DetectedLanguage != "" {
		tr.DetectedLanguage = ch.DetectedLanguage
	}
	alt := ch.Alternatives[0]
	tr.Text = strings.TrimSpace(alt.Transcript)
	var words []stt.Word
	for _, w := range alt.Words {
		words = append(words, w.word())
	}
	tr.Segments = stt.Segments(words, cfg.Diarize)
	return tr, nil
}

func transportError(ctx context.Context, err error) error {
	var ne interface{ Timeout() bool }
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil || errors.As(err, &ne) && ne.Timeout() {
		return &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "timeout", Err: err}
	}
	return &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "unreachable", Err: err}
}

// statusError classifies an HTTP refusal (also of the live upgrade).
func statusError(code int) error {
	e := &stt.Error{Provider: Name, Reason: fmt.Sprintf("http_%d", code), Err: fmt.Errorf("status %d from Deepgram", code)}
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusPaymentRequired:
		e.Outcome = stt.ConfigError
	case code == http.StatusBadRequest || code == http.StatusRequestEntityTooLarge || code == http.StatusUnsupportedMediaType:
		e.Outcome = stt.InvalidInput
	case code == http.StatusRequestTimeout || code == http.StatusGatewayTimeout:
		e.Outcome = stt.Timeout
	default:
		e.Outcome = stt.UpstreamError
	}
	return e
}
