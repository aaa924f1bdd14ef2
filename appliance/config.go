package appliance

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Config is the appliance's whole configuration. Every field has a flag and
// a HEARTH_* environment twin (see cmd/hearth and the README's table).
type Config struct {
	// DataDir holds the SQLite file, the identity key and model files.
	DataDir string
	// Addr is the HTTP listen address, HOST:PORT.
	Addr string
	// LogLevel is debug, info, warn or error.
	LogLevel string
	// LogFormat is text, json or auto (text on a terminal, JSON otherwise).
	LogFormat string
	// RateLimitBoost multiplies every per-key rate limit; 0 turns them off.
	RateLimitBoost float64
	// TokenTTL is how long an ID token from `hearth token` stays valid.
	TokenTTL time.Duration
	// MaxBodyBytes caps JSON request bodies.
	MaxBodyBytes int64
	// ReadConns is the size of the SQLite read pool.
	ReadConns int
	// ShutdownTimeout bounds a graceful stop: live sessions are heard out
	// in it (a busy box's recognizer may need many seconds for the last
	// utterance); past it they are closed with 1001 and the audio their
	// route did not transcribe is kept in DATA/audio. systemd waits 90 s
	// before it kills a service.
	ShutdownTimeout time.Duration
	// PublicURL is how clients reach the appliance (http(s)://host[:port]),
	// for replies that name it; empty derives it from the request's Host
	// when that names this machine, else from Addr.
	PublicURL string
	// TrustedProxies lists the reverse proxies (IPs or CIDRs, comma
	// separated) whose X-Forwarded-For, X-Real-IP, X-Forwarded-Host and
	// X-Forwarded-Proto are believed.
	TrustedProxies string
	// BodyTimeout bounds how long a request body may take to arrive.
	BodyTimeout time.Duration
	// MaxConns caps concurrent connections; more wait until one closes.
	MaxConns int
	// MaxConnsPerAddr caps one remote address's open connections (trusted
	// proxies excepted); past it new ones are closed at once, so one
	// client cannot take the whole MaxConns budget.
	MaxConnsPerAddr int
	// FirebaseProjectID, when set, accepts Firebase ID tokens of that
	// project (an Omi app rebuilt to point at this box) wherever an ID
	// token is taken, as the user each Firebase account is bound to.
	// Verifying them fetches Google's public signing certificates from
	// FirebaseCertsURL: the feature's one outbound call, made only when
	// this is set.
	FirebaseProjectID string
	FirebaseCertsURL  string
	// ListenAudioGap: a live session whose audio frames stop arriving for
	// this long ends the utterance in progress (a released button, a lost
	// Bluetooth link), so its words are heard without waiting for a pause.
	ListenAudioGap time.Duration
	// ListenUserStreams caps the speech-route streams one user's live
	// sessions hold at once (0: no cap), so that one account cannot take
	// every stream the box runs; the owner's sessions are never refused.
	ListenUserStreams int
	// SilenceTimeout ends a live recording after this long without new
	// speech; it is then processed into a conversation.
	SilenceTimeout time.Duration
	// STTRoutes orders the speech routes, by name (comma separated); empty
	// is local whisper, then PocketSphinx, then configured remote routes.
	// A route not available on this box (not built in, no model, not
	// configured) is skipped.
	STTRoutes string
	// WhisperModel is a ggml model file for the whisper route; empty picks
	// the best one pulled into DATA/models (hearth models pull).
	WhisperModel string
	// ModelsURL is where model files are downloaded from (empty: Hugging
	// Face's whisper.cpp repository); ModelsCatalog a JSON file of extra
	// catalog entries (a mirror's own models).
	ModelsURL     string
	ModelsCatalog string
	// WhisperWorkers is how many recordings whisper transcribes at once,
	// each with its own copy of the model in memory.
	WhisperWorkers int
	// OpenAISTTURL, when set, adds a speech route over an OpenAI-compatible
	// /v1/audio/transcriptions server (e.g. http://gpu-box.lan:8000/v1):
	// audio then leaves the box for it.
	OpenAISTTURL    string
	OpenAISTTModel  string
	OpenAISTTAPIKey string
	// DeepgramAPIKey, when set, adds the Deepgram route (audio then leaves
	// the box for Deepgram); DeepgramURL overrides its address.
	DeepgramAPIKey string
	DeepgramURL    string
	// SonioxAPIKey, when set, adds the Soniox route (audio then leaves the
	// box for Soniox); SonioxURL overrides its address.
	SonioxAPIKey string
	SonioxURL    string
	// SpeechmaticsAPIKey, when set, adds the Speechmatics route (audio
	// then leaves the box for Speechmatics); SpeechmaticsURL overrides its
	// address (another region), SpeechmaticsOperatingPoint its model.
	SpeechmaticsAPIKey         string
	SpeechmaticsURL            string
	SpeechmaticsOperatingPoint string
	// SpeakerEmbeddingURL, when set, embeds voices through that service on
	// the LAN (multipart WAV in, vector out) instead of the built-in
	// extractor; SpeakerThreshold (0: the extractor's own, 0.45 for a
	// service) is the cosine distance under which two voices are one.
	SpeakerEmbeddingURL string
	SpeakerThreshold    float64
	// SpeakerONNXModel, when set, embeds voices with that neural speaker
	// model (WeSpeaker or 3D-Speaker ONNX: 80-band filterbank in) run by
	// the onnxruntime library at ONNXRuntimeLib.
	SpeakerONNXModel string
	ONNXRuntimeLib   string
	// PocketSphinxModel is the PocketSphinx English model's folder (empty:
	// Debian's pocketsphinx-en-us).
	PocketSphinxModel string
	// PocketSphinxIdle frees a PocketSphinx decoder (each holds the whole
	// model, about 90 MB) unused for this long; zero is 5 minutes.
	PocketSphinxIdle time.Duration
	// PocketSphinxGrowAfter loads another PocketSphinx decoder for an
	// utterance that has waited this long for a busy one; zero loads
	// another only when more utterances wait than there are decoders.
	PocketSphinxGrowAfter time.Duration
	// STTMaxDuration refuses uploads and voice messages with more audio
	// than this (413).
	STTMaxDuration time.Duration
	// VoiceBudget is each user's allowance of voice-message audio per
	// rolling 24 hours; 0 is unlimited.
	VoiceBudget time.Duration
	// AudioRetention keeps what live sessions and uploads sounded like, as
	// Ogg Opus in DATA/recordings: "forever" (until the conversation is
	// deleted; the default, so that a conversation can be heard and
	// transcribed again), "never", or a number of days ("30d").
	AudioRetention string
	// AudioQuotaMB caps one user's kept recordings (0: no cap); past it
	// new audio is not kept.
	AudioQuotaMB int
	// AudioKeepOpusKbps is the highest bit rate at which a wearable's Opus
	// packets stay kept as they came (a live session always keeps them
	// so: the least CPU per session); a recording of faster ones is
	// encoded again at about 16 kbps once it closes, in the background, so
	// that an hour stays about 7 MB. Omi devices send 32 kbps. 0 encodes
	// every one again.
	AudioKeepOpusKbps int
	// TranslateTo, when set (a language code such as "en"), translates the
	// live segments of sessions in other languages through the LLM route.
	TranslateTo string
	// TranslationEvent is the live event translations are sent as:
	// "translating" (what the Omi app parses) or "translation" (the
	// contract's name).
	TranslationEvent string

	// LLMBaseURL, when set, routes structure, memories and discard decisions
	// through an OpenAI-compatible chat completions server (Ollama,
	// llama.cpp server, vLLM, OpenAI), e.g. http://127.0.0.1:11434/v1. The
	// built-in extractor remains the fallback.
	LLMBaseURL string
	LLMModel   string
	LLMAPIKey  string
	LLMTimeout time.Duration

	// EmbedBaseURL, when set, embeds through an OpenAI-compatible
	// /embeddings endpoint instead of the built-in embedder. Changing the
	// model or dimensions re-embeds everything in the background.
	EmbedBaseURL string
	EmbedModel   string
	EmbedAPIKey  string
	EmbedDims    int

	// MDNS advertises the appliance on the LAN as _hearth._tcp (multicast
	// DNS, link-local: it never leaves the local network).
	MDNS bool
	// Wyoming, when set (HOST:PORT), serves speech to text over the
	// Wyoming protocol there for Home Assistant. The protocol has no
	// authentication: anyone who reaches the port may transcribe (nothing
	// is stored), so it is off by default and meant for the LAN.
	Wyoming string
	// WyomingIdleTimeout is how long a Wyoming client may take to send one
	// whole event before it is closed.
	WyomingIdleTimeout time.Duration
	// TLSAddr, when set (HOST:PORT), serves HTTPS and wss there beside the
	// plain HTTP of Addr, with TLSCert/TLSKey when the owner supplies them,
	// else with a local CA kept in DATA/tls. TLSNames adds DNS names to
	// the local CA's server certificate.
	TLSAddr  string
	TLSCert  string
	TLSKey   string
	TLSNames string
	// PlainHTTP is who may use plain HTTP on Addr: "lan" (anyone, for
	// clients that cannot add a CA) or "loopback" (this machine only).
	PlainHTTP string

	// OAuthClients registers the assistant connectors that may use OAuth:
	// "id=redirect|redirect,id2=redirect". Unregistered client ids are
	// refused. See ParseOAuthClients.
	OAuthClients string
}

// DefaultOAuthClients are the connector flows known to work with the
// reference; loopback entries serve local agents and mcp-remote.
const DefaultOAuthClients = "claude=https://claude.ai/api/mcp/auth_callback|https://claude.com/api/mcp/auth_callback," +
	"chatgpt=https://chatgpt.com/connector_platform_oauth_redirect," +
	"hearth-local=http://127.0.0.1|http://localhost|http://[::1]"

// OAuthClient is one registered connector and its redirect URIs. Name is
// what a client registered by itself (RFC 7591) calls itself; empty for
// the clients of --oauth-clients.
type OAuthClient struct {
	ID        string
	Name      string
	Redirects []string
}

// ParseOAuthClients reads the --oauth-clients form.
func ParseOAuthClients(s string) ([]OAuthClient, error) {
	var out []OAuthClient
	seen := map[string]bool{}
	for _, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		id, redirects, ok := strings.Cut(entry, "=")
		id = strings.TrimSpace(id)
		if !ok || id == "" || redirects == "" {
			return nil, fmt.Errorf("oauth client %q: want id=redirect[|redirect]", entry)
		}
		if seen[id] {
			return nil, fmt.Errorf("oauth client %q registered twice", id)
		}
		seen[id] = true
		c := OAuthClient{ID: id}
		for _, r := range strings.Split(redirects, "|") {
			u, err := url.Parse(strings.TrimSpace(r))
			if err != nil || u.Scheme == "" || u.Host == "" || u.Fragment != "" {
				return nil, fmt.Errorf("oauth client %q: redirect %q is not an absolute URL without fragment", id, r)
			}
			c.Redirects = append(c.Redirects, u.String())
		}
		out = append(out, c)
	}
	return out, nil
}

// AllowsRedirect reports whether uri is registered for the client. A
// registered loopback URL without a port allows any port and any path under
// its own (RFC 8252 §7.3: native apps listen on an ephemeral port).
func (c OAuthClient) AllowsRedirect(uri string) bool {
	u, ok := cleanRedirect(uri)
	if !ok {
		return false
	}
	for _, r := range c.Redirects {
		if r == uri {
			return true
		}
		reg, _ := url.Parse(r)
		if reg.Port() == "" && isLoopback(reg.Hostname()) && u.Scheme == reg.Scheme && u.Hostname() == reg.Hostname() &&
			strings.HasPrefix(u.Path, reg.Path) {
			return true
		}
	}
	return false
}

// cleanRedirect parses a redirect URI and refuses the forms parsers
// disagree on: userinfo, backslashes and escapes in the authority
// (http://evil.example%23@127.0.0.1/ is 127.0.0.1 to Go and evil.example to
// a parser that decodes first). A redirect must not need them.
func cleanRedirect(uri string) (*url.URL, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Fragment != "" || u.User != nil || u.Opaque != "" || !validPort(u.Port()) ||
		strings.ContainsAny(uri, "\\ \t\r\n") || strings.Contains(u.Host, "%") {
		return nil, false
	}
	return u, true
}

// loopbackClient allows what a native app on this machine listens on.
var loopbackClient = OAuthClient{Redirects: []string{"http://127.0.0.1", "http://localhost", "http://[::1]"}}

// RegistrableRedirect reports whether a client registering itself (RFC
// 7591) may name uri as a redirect: a loopback HTTP one (a native app's
// ephemeral listener, as for the built-in hearth-local) or an HTTPS one.
// Anything else could hand a code to whoever listens on a LAN address.
func RegistrableRedirect(uri string) bool {
	if loopbackClient.AllowsRedirect(uri) {
		return true
	}
	u, ok := cleanRedirect(uri)
	return ok && u.Scheme == "https" && u.Hostname() != "" && strings.HasPrefix(uri, "https://")
}

// validPort reports whether a URL's port is absent or a TCP port a
// listener can have (1–65535, digits only).
func validPort(p string) bool {
	if p == "" {
		return true
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == p
}

func isLoopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// DefaultConfig is what `make run` serves with no configuration.
func DefaultConfig() Config {
	return Config{
		DataDir:           "./data",
		Addr:              "127.0.0.1:8080",
		LogLevel:          "info",
		LogFormat:         "auto",
		RateLimitBoost:    1,
		TokenTTL:          24 * time.Hour,
		MaxBodyBytes:      8 << 20,
		ReadConns:         4,
		ShutdownTimeout:   30 * time.Second,
		SilenceTimeout:    2 * time.Minute,
		ListenAudioGap:    1500 * time.Millisecond,
		TranslationEvent:  "translating",
		STTMaxDuration:    2 * time.Hour,
		VoiceBudget:       2 * time.Hour,
		AudioRetention:    "forever",
		AudioQuotaMB:      10240,
		AudioKeepOpusKbps: 20,
		BodyTimeout:       30 * time.Second,
		MaxConns:          512,
		MaxConnsPerAddr:   64,
		LLMTimeout:        60 * time.Second,
		OAuthClients:      DefaultOAuthClients,
		EmbedDims:         384,
		MDNS:              true,
		PlainHTTP:         "lan",
		FirebaseCertsURL:  DefaultFirebaseCertsURL,

		// Half the streams the PocketSphinx route runs (4 per core).
		ListenUserStreams: max(1, 2*runtime.NumCPU()),

		// Home Assistant sends a command's audio as it is spoken.
		WyomingIdleTimeout: time.Minute,
	}
}

// DefaultFirebaseCertsURL is where Google publishes the certificates that
// sign Firebase ID tokens.
const DefaultFirebaseCertsURL = "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"

// Validate reports the first problem with c.
func (c Config) Validate() error {
	var errs []error
	if c.SpeakerThreshold < 0 || c.SpeakerThreshold >= 2 {
		errs = append(errs, fmt.Errorf("speaker threshold %v must be a cosine distance from 0 (the extractor's own) to under 2", c.SpeakerThreshold))
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("data directory is required"))
	}
	errs = append(errs, c.validateTLS()...)
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		errs = append(errs, fmt.Errorf("addr %q is not HOST:PORT: %w", c.Addr, err))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log level %q is not one of debug, info, warn, error", c.LogLevel))
	}
	switch c.LogFormat {
	case "auto", "text", "json":
	default:
		errs = append(errs, fmt.Errorf("log format %q is not one of auto, text, json", c.LogFormat))
	}
	if c.RateLimitBoost < 0 {
		errs = append(errs, fmt.Errorf("rate limit boost %v is negative", c.RateLimitBoost))
	}
	if c.TokenTTL <= 0 {
		errs = append(errs, fmt.Errorf("token ttl %v must be positive", c.TokenTTL))
	}
	if c.BodyTimeout < time.Second {
		errs = append(errs, fmt.Errorf("body timeout %v is below 1s", c.BodyTimeout))
	}
	if c.MaxConnsPerAddr < 1 {
		errs = append(errs, fmt.Errorf("max conns per addr %d must be at least 1", c.MaxConnsPerAddr))
	}
	if c.MaxConns < 1 {
		errs = append(errs, fmt.Errorf("max conns %d must be at least 1", c.MaxConns))
	}
	if c.TranslationEvent != "translating" && c.TranslationEvent != "translation" {
		errs = append(errs, fmt.Errorf("translation event %q is not translating or translation", c.TranslationEvent))
	}
	if !validLanguageCode(c.TranslateTo) {
		errs = append(errs, fmt.Errorf("translate-to %q is not a language code such as en or pt-BR", c.TranslateTo))
	}
	if c.WhisperWorkers < 0 || c.WhisperWorkers > 16 {
		errs = append(errs, fmt.Errorf("whisper workers %d is not between 0 and 16", c.WhisperWorkers))
	}
	if c.Wyoming != "" {
		if _, _, err := net.SplitHostPort(c.Wyoming); err != nil {
			errs = append(errs, fmt.Errorf("wyoming address %q is not HOST:PORT: %w", c.Wyoming, err))
		}
	}
	if c.WyomingIdleTimeout < time.Second {
		errs = append(errs, fmt.Errorf("wyoming idle timeout %v is below 1s", c.WyomingIdleTimeout))
	}
	if c.STTMaxDuration < time.Second {
		errs = append(errs, fmt.Errorf("stt max duration %v is below 1s", c.STTMaxDuration))
	}
	if _, err := ParseAudioRetention(c.AudioRetention); err != nil {
		errs = append(errs, err)
	}
	if c.AudioKeepOpusKbps < 0 {
		errs = append(errs, fmt.Errorf("audio-keep-opus-kbps %d is negative", c.AudioKeepOpusKbps))
	}
	if c.AudioQuotaMB < 0 {
		errs = append(errs, fmt.Errorf("audio quota %d MB is negative", c.AudioQuotaMB))
	}
	if c.PocketSphinxGrowAfter < 0 {
		errs = append(errs, fmt.Errorf("pocketsphinx-grow-after %v is negative", c.PocketSphinxGrowAfter))
	}
	if c.VoiceBudget < 0 {
		errs = append(errs, fmt.Errorf("voice budget %v is negative", c.VoiceBudget))
	}
	if c.ListenUserStreams < 0 {
		errs = append(errs, fmt.Errorf("listen user streams %d is negative", c.ListenUserStreams))
	}
	if c.ListenAudioGap < 200*time.Millisecond || c.ListenAudioGap > time.Minute {
		errs = append(errs, fmt.Errorf("listen audio gap %v is outside 200ms to 1m", c.ListenAudioGap))
	}
	if c.SilenceTimeout < time.Second {
		errs = append(errs, fmt.Errorf("silence timeout %v is below 1s", c.SilenceTimeout))
	}
	if c.MaxBodyBytes < 1024 {
		errs = append(errs, fmt.Errorf("max body bytes %d is below 1024", c.MaxBodyBytes))
	}
	if c.ReadConns < 1 {
		errs = append(errs, fmt.Errorf("read conns %d must be at least 1", c.ReadConns))
	}
	if c.LLMBaseURL != "" {
		errs = append(errs, checkBaseURL("llm base url", c.LLMBaseURL))
		if c.LLMModel == "" {
			errs = append(errs, errors.New("llm model is required with an llm base url"))
		}
		if c.LLMTimeout <= 0 {
			errs = append(errs, fmt.Errorf("llm timeout %v must be positive", c.LLMTimeout))
		}
	}
	if c.FirebaseProjectID != "" {
		if !validFirebaseProjectID(c.FirebaseProjectID) {
			errs = append(errs, fmt.Errorf("firebase project id %q is not a project id (lowercase letters, digits and hyphens)", c.FirebaseProjectID))
		}
		if u, err := url.Parse(c.FirebaseCertsURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("firebase certs url %q must be an http(s) URL", c.FirebaseCertsURL))
		}
	}
	if _, err := ParseOAuthClients(c.OAuthClients); err != nil {
		errs = append(errs, err)
	}
	if c.EmbedDims <= 0 || c.EmbedDims%8 != 0 || c.EmbedDims > 8192 {
		errs = append(errs, fmt.Errorf("embed dims %d must be a positive multiple of 8 up to 8192", c.EmbedDims))
	}
	if c.EmbedBaseURL != "" {
		errs = append(errs, checkBaseURL("embed base url", c.EmbedBaseURL))
		if c.EmbedModel == "" {
			errs = append(errs, errors.New("embed model is required with an embed base url"))
		}
	}
	return errors.Join(errs...)
}

func checkBaseURL(what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s %q must be an http(s) URL such as http://127.0.0.1:11434/v1", what, raw)
	}
	return nil
}

// validFirebaseProjectID accepts a Google Cloud project id: lowercase
// letters, digits and hyphens (a legacy domain-scoped one also has a dot
// and a colon), at most 100 characters.
func validFirebaseProjectID(id string) bool {
	if id == "" || len(id) > 100 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == ':') {
			return false
		}
	}
	return true
}

// validLanguageCode accepts "" (off) or a BCP 47-like code: letters, digits
// and hyphens, at most 16 characters.
func validLanguageCode(l string) bool {
	if len(l) > 16 {
		return false
	}
	for _, r := range l {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
