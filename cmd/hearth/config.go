package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// envPrefix prefixes every flag's environment twin: --rate-limit-boost is
// HEARTH_RATE_LIMIT_BOOST.
const envPrefix = "HEARTH_"

func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// newFlagSet returns a flag set that prints its usage (with env twins) to w.
func newFlagSet(name string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("hearth "+name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "Usage of hearth %s:\n", name)
		fs.VisitAll(func(f *flag.Flag) {
			fmt.Fprintf(w, "  --%s (env %s, default %q)\n      %s\n", f.Name, envName(f.Name), f.DefValue, f.Usage)
		})
	}
	return fs
}

// parseFlags parses args after seeding each flag from its environment twin,
// so that precedence is default < environment < flag.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = usageErr("%s=%q: %v", envName(f.Name), v, err)
			}
		}
	})
	if envErr != nil {
		return envErr
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return usageErr("%v", err)
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// dataFlag registers --data, shared by every command that opens the store.
func dataFlag(fs *flag.FlagSet, cfg *appliance.Config) {
	fs.StringVar(&cfg.DataDir, "data", cfg.DataDir, "data directory (database, identity key, models)")
}

// serveFlags registers every Config field as a flag.
func serveFlags(fs *flag.FlagSet, cfg *appliance.Config) {
	dataFlag(fs, cfg)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "HTTP listen address HOST:PORT (port 0 picks a free port)")
	fs.StringVar(&cfg.LogLevel, "log-level", cfg.LogLevel, "log level: debug, info, warn or error")
	fs.StringVar(&cfg.LogFormat, "log-format", cfg.LogFormat, "log format: auto (text on a terminal), text or json")
	fs.Var(floatValue{&cfg.RateLimitBoost}, "rate-limit-boost", "multiplier for every per-key rate limit; 0 disables them")
	fs.Int64Var(&cfg.MaxBodyBytes, "max-body-bytes", cfg.MaxBodyBytes, "largest JSON request body accepted")
	fs.IntVar(&cfg.ReadConns, "read-conns", cfg.ReadConns, "SQLite read connections")
	fs.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", cfg.ShutdownTimeout, "how long a graceful stop may take")
	fs.StringVar(&cfg.PublicURL, "public-url", cfg.PublicURL, "how clients reach the appliance, e.g. https://hearth.example.lan (default: the address a client used, when it names this machine, else --addr)")
	fs.StringVar(&cfg.TrustedProxies, "trusted-proxies", cfg.TrustedProxies, "reverse proxies whose X-Forwarded-For/-Host/-Proto and X-Real-IP are believed (IPs or CIDRs, comma separated)")
	fs.DurationVar(&cfg.BodyTimeout, "body-timeout", cfg.BodyTimeout, "how long a request body may take to arrive")
	fs.IntVar(&cfg.MaxConns, "max-conns", cfg.MaxConns, "most concurrent connections; more wait until one closes")
	fs.IntVar(&cfg.MaxConnsPerAddr, "max-conns-per-addr", cfg.MaxConnsPerAddr, "most concurrent connections from one address (trusted proxies excepted); more are closed at once")
	fs.StringVar(&cfg.FirebaseProjectID, "firebase-project-id", cfg.FirebaseProjectID, "accept Firebase ID tokens of this project (an Omi app rebuilt to point at this box) as the user each Firebase account is bound to (hearth users bind-firebase); fetches Google's signing certificates, the one outbound call this makes (default: off)")
	fs.StringVar(&cfg.FirebaseCertsURL, "firebase-certs-url", cfg.FirebaseCertsURL, "where --firebase-project-id fetches the certificates that sign Firebase ID tokens (a mirror or a test server otherwise)")
	fs.StringVar(&cfg.TranslateTo, "translate-to", cfg.TranslateTo, "translate live segments of other languages into this one (e.g. en) through the LLM route; needs --llm-base-url")
	fs.StringVar(&cfg.TranslationEvent, "translation-event", cfg.TranslationEvent, "live event for translations: translating (the Omi app's) or translation (the contract's name)")
	fs.StringVar(&cfg.STTRoutes, "stt-routes", cfg.STTRoutes, "speech routes in order of preference, comma separated (default: whisper, pocketsphinx, then configured remote routes; none: no route, custom STT only); unavailable ones are skipped")
	fs.StringVar(&cfg.WhisperModel, "whisper-model", cfg.WhisperModel, "a ggml model file for the whisper route (default: the best one pulled into DATA/models)")
	fs.StringVar(&cfg.ModelsURL, "models-url", cfg.ModelsURL, "where the console pulls models from (default Hugging Face's whisper.cpp repository; a mirror on the LAN otherwise)")
	fs.StringVar(&cfg.ModelsCatalog, "models-catalog", cfg.ModelsCatalog, "a JSON file of extra model catalog entries (a mirror's own models)")
	fs.IntVar(&cfg.WhisperWorkers, "whisper-workers", cfg.WhisperWorkers, "recordings whisper transcribes at once, each with its own model in memory (default 1)")
	remoteVendorFlags(fs, cfg)
	fs.StringVar(&cfg.SpeakerEmbeddingURL, "speaker-embedding-url", cfg.SpeakerEmbeddingURL, "a speaker-embedding service on the LAN, e.g. http://gpu-box.lan:8080/v2/embedding (default: the built-in extractor)")
	fs.StringVar(&cfg.SpeakerONNXModel, "speaker-onnx-model", cfg.SpeakerONNXModel, "a neural speaker model (WeSpeaker or 3D-Speaker ONNX, 80-band filterbank in) to embed voices with")
	fs.StringVar(&cfg.ONNXRuntimeLib, "onnxruntime-lib", cfg.ONNXRuntimeLib, "the onnxruntime shared library for --speaker-onnx-model (scripts/onnxruntime.sh fetches one)")
	fs.Float64Var(&cfg.SpeakerThreshold, "speaker-threshold", cfg.SpeakerThreshold, "cosine distance under which two voices are taken as one (default: the extractor's own; 0.45 for a service)")
	fs.DurationVar(&cfg.PocketSphinxGrowAfter, "pocketsphinx-grow-after", cfg.PocketSphinxGrowAfter, "load another PocketSphinx decoder (about 80 MB) for an utterance that has waited this long for a busy one; 0: only when more utterances wait than there are decoders (default 0)")
	fs.DurationVar(&cfg.PocketSphinxIdle, "pocketsphinx-idle", cfg.PocketSphinxIdle, "free a PocketSphinx decoder (about 90 MB each) unused this long; the next session or utterance loads one again in about a second (default 5m)")
	fs.StringVar(&cfg.PocketSphinxModel, "pocketsphinx-model", cfg.PocketSphinxModel, "the PocketSphinx English model's folder (default: Debian's pocketsphinx-en-us, /usr/share/pocketsphinx/model/en-us)")
	fs.DurationVar(&cfg.STTMaxDuration, "stt-max-duration", cfg.STTMaxDuration, "longest recording /v1/stt/transcribe and voice messages take (413 beyond)")
	fs.DurationVar(&cfg.VoiceBudget, "voice-budget", cfg.VoiceBudget, "each user's voice-message audio per rolling 24 h (429 beyond); 0 is unlimited")
	fs.StringVar(&cfg.AudioRetention, "audio-retention", cfg.AudioRetention, "keep what live sessions and uploads sounded like (Ogg Opus, about 7 MB an hour, in DATA/recordings): forever (until the conversation is deleted), never, or a number of days like 30d")
	fs.IntVar(&cfg.AudioQuotaMB, "audio-quota-mb", cfg.AudioQuotaMB, "each user's kept recordings, in MB (0: no cap); past it new audio is not kept")
	fs.IntVar(&cfg.AudioKeepOpusKbps, "audio-keep-opus-kbps", cfg.AudioKeepOpusKbps, "a live session keeps a wearable's Opus packets as they came (least CPU); a recording of packets faster than this (kbps) is encoded again at about 16 kbps once it closes, in the background (Omi devices send 32; 0: encode every one again)")
	fs.DurationVar(&cfg.SilenceTimeout, "silence-timeout", cfg.SilenceTimeout, "end a live recording after this long without speech")
	fs.IntVar(&cfg.ListenUserStreams, "listen-user-streams", cfg.ListenUserStreams, "speech streams one user's live sessions may hold at once (0: no cap); past it a session closes 1008, except the owner's")
	fs.DurationVar(&cfg.ListenAudioGap, "listen-audio-gap", cfg.ListenAudioGap, "when a live session's audio stops arriving for this long, end the utterance in progress and send its words (a released button, a lost Bluetooth link)")
	fs.StringVar(&cfg.LLMBaseURL, "llm-base-url", cfg.LLMBaseURL, "OpenAI-compatible chat server for structure and memories, e.g. http://127.0.0.1:11434/v1 (default: built-in, offline)")
	fs.StringVar(&cfg.LLMModel, "llm-model", cfg.LLMModel, "model name on the LLM server")
	fs.StringVar(&cfg.LLMAPIKey, "llm-api-key", cfg.LLMAPIKey, "API key for the LLM server (prefer the environment twin)")
	fs.DurationVar(&cfg.LLMTimeout, "llm-timeout", cfg.LLMTimeout, "timeout of one LLM call; on failure the built-in extractor answers")
	fs.StringVar(&cfg.EmbedBaseURL, "embed-base-url", cfg.EmbedBaseURL, "OpenAI-compatible embeddings server (default: built-in, offline)")
	fs.StringVar(&cfg.EmbedModel, "embed-model", cfg.EmbedModel, "embedding model name on that server")
	fs.StringVar(&cfg.EmbedAPIKey, "embed-api-key", cfg.EmbedAPIKey, "API key for the embeddings server (prefer the environment twin)")
	fs.StringVar(&cfg.OAuthClients, "oauth-clients", cfg.OAuthClients, "assistant connectors allowed to use OAuth: id=redirect|redirect,id2=redirect (loopback redirects allow any port)")
	fs.BoolVar(&cfg.MDNS, "mdns", cfg.MDNS, "advertise the appliance on the LAN as _hearth._tcp (multicast DNS; --mdns=false turns it off)")
	fs.StringVar(&cfg.Wyoming, "wyoming", cfg.Wyoming, "serve speech to text for Home Assistant over the Wyoming protocol on HOST:PORT, e.g. 0.0.0.0:10300 (no authentication: LAN only; off when empty)")
	fs.DurationVar(&cfg.WyomingIdleTimeout, "wyoming-idle-timeout", cfg.WyomingIdleTimeout, "close a Wyoming client that takes longer than this to send one event")
	fs.StringVar(&cfg.TLSAddr, "tls-addr", cfg.TLSAddr, "serve HTTPS and wss on HOST:PORT too, e.g. 0.0.0.0:8443 (a local CA in DATA/tls signs the certificate unless --tls-cert/--tls-key are given)")
	fs.StringVar(&cfg.TLSCert, "tls-cert", cfg.TLSCert, "the owner's certificate chain (PEM) for HTTPS; reloaded when it changes")
	fs.StringVar(&cfg.TLSKey, "tls-key", cfg.TLSKey, "the owner's private key (PEM) for --tls-cert")
	fs.StringVar(&cfg.TLSNames, "tls-names", cfg.TLSNames, "extra DNS names for the local CA's certificate, comma separated (the host name, HOST.local and localhost are always in)")
	fs.StringVar(&cfg.PlainHTTP, "plain-http", cfg.PlainHTTP, "who may use plain HTTP on --addr: lan (anyone) or loopback (this machine only; others are told to use HTTPS)")
	fs.IntVar(&cfg.EmbedDims, "embed-dims", cfg.EmbedDims, "embedding dimensions (multiple of 8); changing it re-embeds everything")
}

// deprecatedFlags are serve flags that no longer do anything, with why.
// They are still accepted, so that a service installed with one keeps
// starting; serve names each one given in a warning.
var deprecatedFlags = map[string]string{
	"listen-require-token": "/v4/listen and /v1/custom-stt always require an ID token or a device key",
}

// deprecatedServeFlags registers deprecatedFlags on fs as boolean flags;
// the name of each one given (or set through its twin) is appended to
// given.
func deprecatedServeFlags(fs *flag.FlagSet, given *[]string) {
	for name, why := range deprecatedFlags {
		fs.Var(deprecatedBool{name: name, given: given}, name, "deprecated, does nothing: "+why)
	}
}

// deprecatedBool accepts a boolean and records that it was given. Its
// value always reads as the default, so `service install` leaves it out
// of the unit it writes.
type deprecatedBool struct {
	name  string
	given *[]string
}

func (d deprecatedBool) String() string   { return "false" }
func (d deprecatedBool) IsBoolFlag() bool { return true }

func (d deprecatedBool) Set(s string) error {
	if _, err := strconv.ParseBool(s); err != nil {
		return fmt.Errorf("not a boolean")
	}
	*d.given = append(*d.given, d.name)
	return nil
}

type floatValue struct{ p *float64 }

func (v floatValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v floatValue) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number")
	}
	*v.p = f
	return nil
}
