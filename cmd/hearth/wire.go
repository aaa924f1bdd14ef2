package main

import (
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/pipeline/llm"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/appliance/speaker/onnx"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
	"github.com/hearth-appliance/hearth/models"
	"github.com/hearth-appliance/hearth/store"
)

// newExtractor picks the extraction route: the built-in offline extractor,
// or an OpenAI-compatible LLM server with the built-in one as its fallback
// (a conversation is never lost to an LLM failure).
func newExtractor(cfg appliance.Config, logger *slog.Logger) (appliance.Extractor, error) {
	builtin := pipeline.NewBuiltin()
	if cfg.LLMBaseURL == "" {
		return builtin, nil
	}
	c, err := llm.NewClient(llm.Config{BaseURL: cfg.LLMBaseURL, Model: cfg.LLMModel, APIKey: cfg.LLMAPIKey, Timeout: cfg.LLMTimeout}, logger)
	if err != nil {
		return nil, fmt.Errorf("llm route: %w", err)
	}
	logger.Info("extraction through an OpenAI-compatible server", "base_url", redactURL(cfg.LLMBaseURL), "model", cfg.LLMModel)
	return llm.NewExtractor(c, builtin, logger), nil
}

// newEmbedder picks the embedding route: the built-in offline embedder, or
// an OpenAI-compatible /embeddings server.
func newEmbedder(cfg appliance.Config, logger *slog.Logger) appliance.Embedder {
	if cfg.EmbedBaseURL == "" {
		return embed.NewBuiltin(cfg.EmbedDims)
	}
	logger.Info("embeddings through an OpenAI-compatible server", "base_url", redactURL(cfg.EmbedBaseURL), "model", cfg.EmbedModel, "dims", cfg.EmbedDims)
	return llm.NewEmbedder(llm.EmbedConfig{BaseURL: cfg.EmbedBaseURL, Model: cfg.EmbedModel, APIKey: cfg.EmbedAPIKey, Dims: cfg.EmbedDims})
}

// redactURL hides a password embedded in a URL before it is logged.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// liveTranslator is the LLM route's translation, when --translate-to asks
// for translation; the built-in extractor cannot translate, so without an
// LLM route the owner is told once and segments go untranslated.
func liveTranslator(cfg appliance.Config, extractor appliance.Extractor, logger *slog.Logger) listen.Translator {
	if cfg.TranslateTo == "" {
		return nil
	}
	t, ok := extractor.(listen.Translator)
	if !ok {
		logger.Warn("live translation needs an LLM route (--llm-base-url); segments are not translated", "translate_to", cfg.TranslateTo)
		return nil
	}
	logger.Info("live segments in other languages are translated", "translate_to", cfg.TranslateTo, "event", cfg.TranslationEvent)
	return t
}

// speechRoutes are the speech routes, in order of preference: live
// sessions open streams on them, uploads and voice messages run batches.
type speechRoutes struct {
	streaming []stt.StreamingProvider
	batch     []stt.BatchProvider
	// status is every route in the owner's order, for the console.
	status []appliance.RouteStatus
}

// speechRoute is one kind of route the appliance can build. build returns
// the route, or why it is not available here (not built in, no model, not
// configured) so that the log can say so.
type speechRoute struct {
	name  string
	build func(cfg appliance.Config, logger *slog.Logger) (route any, unavailable string, err error)
}

// speechRouteKinds are the local routes, each in its own file; with the
// remote vendors (remoteVendors) they are every route the appliance knows,
// and --stt-routes orders them.
var speechRouteKinds []speechRoute

// allSpeechRoutes are every route the appliance knows, by name.
func allSpeechRoutes() []speechRoute {
	all := append(slices.Clone(speechRouteKinds), remoteVendorRoutes()...)
	slices.SortFunc(all, func(a, b speechRoute) int { return strings.Compare(a.name, b.name) })
	return all
}

// newSpeechRoutes builds the speech routes in the owner's order
// (--stt-routes). HEARTH_STT_SCRIPT names a script for the scripted test
// route, which then comes first (end-to-end tests and the socket load
// driver use it).
func newSpeechRoutes(cfg appliance.Config, logger *slog.Logger) (speechRoutes, error) {
	var r speechRoutes
	if path := os.Getenv("HEARTH_STT_SCRIPT"); path != "" {
		s, err := scripted.Load(path)
		if err != nil {
			return r, usageErr("HEARTH_STT_SCRIPT: %v", err)
		}
		logger.Warn("the scripted speech route is on: transcripts are a script, not what was said", "script", path)
		p := scripted.New(*s)
		r.streaming = append(r.streaming, p)
		r.batch = append(r.batch, p)
	}
	kinds := map[string]speechRoute{}
	for _, k := range allSpeechRoutes() {
		kinds[k.name] = k
	}
	order := splitList(cfg.STTRoutes)
	switch {
	case len(order) == 0:
		order = defaultRouteOrder()
	case len(order) == 1 && order[0] == "none":
		order = nil // custom STT only (and the scripted test route)
	}
	var on []string
	for _, name := range order {
		k, ok := kinds[name]
		if !ok {
			return r, usageErr("--stt-routes: unknown route %q (known: %s)", name, strings.Join(routeNames(), ", "))
		}
		route, unavailable, err := k.build(cfg, logger)
		if err != nil {
			return r, fmt.Errorf("speech route %s: %w", name, err)
		}
		if unavailable != "" {
			logger.Info("speech route not available", "route", name, "why", unavailable)
			r.status = append(r.status, appliance.RouteStatus{Name: name, Why: unavailable, Remote: isRemoteRoute(name)})
			if route == nil {
				continue
			}
			// A stand-in that says why (stt.Unusable): passed over, its
			// reason the answer when no other route serves.
		} else {
			r.status = append(r.status, appliance.RouteStatus{Name: name, On: true, Remote: isRemoteRoute(name)})
			on = append(on, name)
		}
		if s, ok := route.(stt.StreamingProvider); ok {
			r.streaming = append(r.streaming, s)
		}
		if b, ok := route.(stt.BatchProvider); ok {
			r.batch = append(r.batch, b)
		}
	}
	if len(on) == 0 && os.Getenv("HEARTH_STT_SCRIPT") == "" {
		logger.Warn("no speech route is available: live sessions need custom_stt=enabled, and uploads answer 503; see the README's speech routes")
	} else if len(on) > 0 {
		logger.Info("speech routes", "order", strings.Join(on, ","))
	}
	return r, nil
}

// preferredRoutes is the order out of the box: local whisper when a model
// is present, then PocketSphinx, then remote routes the owner configured.
func preferredRoutes() []string {
	out := []string{"whisper", "pocketsphinx"}
	for _, v := range remoteVendors {
		out = append(out, v.name)
	}
	return out
}

// defaultRouteOrder is every route this build knows, preferred ones first.
func defaultRouteOrder() []string {
	known := routeNames()
	var order []string
	for _, n := range preferredRoutes() {
		if slices.Contains(known, n) {
			order = append(order, n)
		}
	}
	for _, n := range known {
		if !slices.Contains(order, n) {
			order = append(order, n)
		}
	}
	return order
}

func routeNames() []string {
	var names []string
	for _, k := range allSpeechRoutes() {
		names = append(names, k.name)
	}
	return names
}

// splitList reads a comma-separated list, trimmed, without empties.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// The store is every consumer's store; each declares only what it uses.
var (
	_ api.Store             = (*store.DB)(nil)
	_ records.Store         = (*store.DB)(nil)
	_ authn.Store           = (*store.DB)(nil)
	_ conversation.Store    = (*store.DB)(nil)
	_ listen.History        = (*store.DB)(nil)
	_ transcribe.UsageStore = (*store.DB)(nil)
)

// speakerModelPath reads --speaker-onnx-model: a file, or the name of a
// speaker model of the catalog pulled into DATA/models.
func speakerModelPath(cfg appliance.Config) (string, error) {
	name := cfg.SpeakerONNXModel
	if strings.ContainsAny(name, `/\`) || strings.HasSuffix(name, ".onnx") {
		return name, nil
	}
	for _, m := range models.Catalog {
		if m.Name != name || m.Kind != models.KindSpeaker {
			continue
		}
		st := &models.Store{Dir: filepath.Join(cfg.DataDir, "models"), Catalog: models.Catalog}
		if !st.Present(m) {
			return "", usageErr("--speaker-onnx-model %s is not pulled yet: hearth models pull %s --data %s", name, name, cfg.DataDir)
		}
		return st.Path(m), nil
	}
	return "", usageErr("--speaker-onnx-model %q is neither an .onnx file nor a speaker model of the catalog (hearth models list)", name)
}

// newVoiceExtractor picks how voices are embedded: a speaker-embedding
// service on the LAN when configured, else the built-in extractor.
func newVoiceExtractor(cfg appliance.Config, logger *slog.Logger) (speaker.Extractor, error) {
	if cfg.SpeakerEmbeddingURL != "" {
		th := cfg.SpeakerThreshold
		if th == 0 {
			th = 0.45 // the reference's threshold for its neural model
		}
		ex, err := speaker.NewHTTP(cfg.SpeakerEmbeddingURL, th)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		logger.Info("voices embedded by a service on the LAN: speech leaves this box for it", "url", redactURL(cfg.SpeakerEmbeddingURL))
		return ex, nil
	}
	if cfg.SpeakerONNXModel != "" {
		path, err := speakerModelPath(cfg)
		if err != nil {
			return nil, err
		}
		ex, err := onnx.New(onnx.Config{Model: path, Library: cfg.ONNXRuntimeLib, Threshold: cfg.SpeakerThreshold})
		if err != nil {
			return nil, usageErr("--speaker-onnx-model: %v", err)
		}
		logger.Info("voices embedded by a neural speaker model", "model", cfg.SpeakerONNXModel)
		return ex, nil
	}
	var ex speaker.Extractor = speaker.NewBuiltin()
	if cfg.SpeakerThreshold > 0 {
		ex = speaker.WithThreshold(ex, cfg.SpeakerThreshold)
	}
	return ex, nil
}

// withFirebase makes Firebase ID tokens of --firebase-project-id
// authenticate as their bound users. Off (no verifier, nothing fetched)
// unless the project is set.
func (m *Main) withFirebase() error {
	if m.Config.FirebaseProjectID == "" {
		return nil
	}
	v, err := firebaseauth.New(firebaseauth.Config{ProjectID: m.Config.FirebaseProjectID, CertsURL: m.Config.FirebaseCertsURL,
		Logger: m.Logger})
	if err != nil {
		return usageErr("%v", err)
	}
	m.auth.WithFirebase(v)
	m.Logger.Info("Firebase ID tokens accepted for bound accounts; their signing certificates are fetched from outside the LAN",
		"project", m.Config.FirebaseProjectID, "certs_url", redactURL(m.Config.FirebaseCertsURL))
	return nil
}
