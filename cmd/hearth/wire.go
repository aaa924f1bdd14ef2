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
	"github.com/hearth-appliance/hearth/localstt"
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
	build func(cfg appliance.Config, d routeDeps) (route any, unavailable string, err error)
	// settings are what the route is built from that can change while the
	// appliance runs (a key saved, a model pulled or chosen): a rebuild
	// builds the route again only when they changed. nil: built once.
	settings func(cfg appliance.Config) string
}

// routeDeps are what routes are built with besides the configuration.
type routeDeps struct {
	logger *slog.Logger
	meter  *localstt.Meter // whisper's speed on this box
}

// localSpeechRoutes are the local routes, each built in its own file; with
// the remote vendors (remoteVendors) they are every route the appliance
// knows, and --stt-routes orders them.
var localSpeechRoutes = []speechRoute{pocketsphinxRoute, whisperRoute}

// allSpeechRoutes are every route the appliance knows, by name.
func allSpeechRoutes() []speechRoute {
	all := append(slices.Clone(localSpeechRoutes), remoteVendorRoutes()...)
	slices.SortFunc(all, func(a, b speechRoute) int { return strings.Compare(a.name, b.name) })
	return all
}

// newSpeechRoutes builds the speech routes in the owner's order
// (cfg.STTRoutes: --stt-routes, or the order saved in the console).
// HEARTH_STT_SCRIPT names a script for the scripted test route, which then
// comes first (end-to-end tests and the socket load driver use it).
// built keeps routes across rebuilds (routeCache); at start (strict) a
// route that fails to build stops the appliance, later it is off with the
// reason.
func newSpeechRoutes(cfg appliance.Config, d routeDeps, built *routeCache, strict bool) (speechRoutes, error) {
	var r speechRoutes
	if path := os.Getenv("HEARTH_STT_SCRIPT"); path != "" {
		route, _, err := built.build(scriptedRoute(path), cfg, d)
		if err != nil {
			return r, err
		}
		p := route.(*scripted.Provider)
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
		route, unavailable, err := built.build(k, cfg, d)
		if err != nil && strict {
			return r, fmt.Errorf("speech route %s: %w", name, err)
		} else if err != nil {
			unavailable = err.Error() // logged below, as the reason
		}
		st := appliance.RouteStatus{Name: name, Remote: isRemoteRoute(name)}
		if m, ok := route.(interface{ Model() string }); ok {
			st.Model = m.Model()
		}
		if unavailable != "" {
			d.logger.Info("speech route not available", "route", name, "why", unavailable)
			st.Why = unavailable
			r.status = append(r.status, st)
			if route == nil {
				continue
			}
			// A stand-in that says why (stt.Unusable): passed over, its
			// reason the answer when no other route serves.
		} else {
			st.On = true
			r.status = append(r.status, st)
			on = append(on, name)
		}
		if s, ok := route.(stt.StreamingProvider); ok {
			r.streaming = append(r.streaming, s)
		}
		if b, ok := route.(stt.BatchProvider); ok {
			r.batch = append(r.batch, b)
		}
	}
	built.keepOnly(append(order, scriptedName))
	if len(on) == 0 && os.Getenv("HEARTH_STT_SCRIPT") == "" {
		d.logger.Warn("no speech route is available: live sessions need custom_stt=enabled, and uploads answer 503; see the README's speech routes")
	} else if len(on) > 0 {
		d.logger.Info("speech routes", "order", strings.Join(on, ","))
	}
	return r, nil
}

const scriptedName = "scripted"

// scriptedRoute is the test route that hears a script (HEARTH_STT_SCRIPT).
func scriptedRoute(path string) speechRoute {
	return speechRoute{name: scriptedName, build: func(_ appliance.Config, d routeDeps) (any, string, error) {
		s, err := scripted.Load(path)
		if err != nil {
			return nil, "", usageErr("HEARTH_STT_SCRIPT: %v", err)
		}
		d.logger.Warn("the scripted speech route is on: transcripts are a script, not what was said", "script", path)
		return scripted.New(*s), "", nil
	}}
}

// routeCache keeps the routes built, by name, with the settings each was
// built from: a rebuild builds again only a route whose settings changed
// (a whisper model loads once), and retires the one it replaces or that
// left the order. A nil cache builds every time.
type routeCache struct {
	routes map[string]cachedRoute
}

type cachedRoute struct {
	settings, unavailable string
	route                 any
}

func (c *routeCache) build(k speechRoute, cfg appliance.Config, d routeDeps) (any, string, error) {
	if c == nil {
		return k.build(cfg, d)
	}
	var settings string
	if k.settings != nil {
		settings = k.settings(cfg)
	}
	if got, ok := c.routes[k.name]; ok && got.settings == settings {
		return got.route, got.unavailable, nil
	}
	c.retire(k.name)
	route, unavailable, err := k.build(cfg, d)
	if err != nil {
		return nil, "", err
	}
	if c.routes == nil {
		c.routes = map[string]cachedRoute{}
	}
	c.routes[k.name] = cachedRoute{settings: settings, unavailable: unavailable, route: route}
	return route, unavailable, nil
}

// keepOnly retires the routes not named.
func (c *routeCache) keepOnly(names []string) {
	if c == nil {
		return
	}
	for name := range c.routes {
		if !slices.Contains(names, name) {
			c.retire(name)
		}
	}
}

// retire drops a route; one that holds resources (a loaded whisper model)
// frees them once the sessions still on it end.
func (c *routeCache) retire(name string) {
	if r, ok := c.routes[name].route.(interface{ Retire() }); ok {
		r.Retire()
	}
	delete(c.routes, name)
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
