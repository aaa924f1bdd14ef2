package main

import (
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/providerkeys"
	"github.com/hearth-appliance/hearth/appliance/speechsettings"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/models"
)

// speechWiring is the speech routes built from the flags and the owner's
// saved settings (vendors' keys, the routes' order, the whisper model). A
// change in the console rebuilds them and swaps them into the router and
// the batch service at once: the next session uses them, and sessions
// already running keep theirs. It is the console's api.Speech.
type speechWiring struct {
	flags  appliance.Config // what the flags and environment say
	keys   *providerkeys.File
	saved  *speechsettings.File
	models *models.Store
	deps   routeDeps

	router *stt.Router
	batch  *transcribe.Service

	mu     sync.Mutex // one rebuild at a time
	built  routeCache
	status atomic.Pointer[[]appliance.RouteStatus]
}

// newSpeechWiring builds the routes once, strictly: a route that fails to
// build stops the appliance at start, with the reason.
func newSpeechWiring(flags appliance.Config, keys *providerkeys.File, saved *speechsettings.File, ms *models.Store, logger *slog.Logger) (*speechWiring, speechRoutes, error) {
	w := &speechWiring{flags: flags, keys: keys, saved: saved, models: ms,
		deps: routeDeps{logger: logger, meter: &localstt.Meter{}}}
	routes, err := w.build(true)
	if err != nil {
		return nil, routes, err
	}
	w.router = stt.NewRouter(logger, routes.streaming...)
	w.batch = transcribe.New(logger, routes.batch...)
	return w, routes, nil
}

// build builds the routes from the flags and the saved settings.
func (w *speechWiring) build(strict bool) (speechRoutes, error) {
	cfg, err := withProviderKeys(w.flags, w.keys)
	if err != nil {
		return speechRoutes{}, err
	}
	saved, err := w.saved.Load()
	if err != nil {
		return speechRoutes{}, err
	}
	if cfg.STTRoutes == "" {
		cfg.STTRoutes = strings.Join(saved.Routes, ",")
	}
	if cfg.WhisperModel == "" && saved.WhisperModel != "" {
		// A chosen model since removed: the best one pulled serves.
		if m, err := w.models.Find(saved.WhisperModel); err == nil && w.models.Present(m) {
			cfg.WhisperModel = w.models.Path(m)
		}
	}
	routes, err := newSpeechRoutes(cfg, w.deps, &w.built, strict)
	if err != nil {
		return routes, err
	}
	w.status.Store(&routes.status)
	return routes, nil
}

// rebuild applies the settings as they are now to new sessions.
func (w *speechWiring) rebuild() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	routes, err := w.build(false)
	if err != nil {
		return err
	}
	w.router.Set(routes.streaming...)
	w.batch.SetRoutes(routes.batch...)
	return nil
}

// Routes implements api.Speech: the routes in effect now.
func (w *speechWiring) Routes() []appliance.RouteStatus { return slices.Clone(*w.status.Load()) }

// Settings implements api.Speech.
func (w *speechWiring) Settings() appliance.SpeechSettings {
	saved, err := w.saved.Load()
	if err != nil {
		w.deps.logger.Warn("speech settings", "err", err)
	}
	var s appliance.SpeechSettings
	for _, r := range w.Routes() {
		s.Order = append(s.Order, r.Name)
	}
	for _, n := range routeNames() { // the routes left out, after
		if !slices.Contains(s.Order, n) {
			s.Order = append(s.Order, n)
		}
	}
	if w.flags.STTRoutes != "" {
		s.OrderFixedBy = "--stt-routes"
	}
	s.WhisperModel = saved.WhisperModel
	if w.flags.WhisperModel != "" {
		s.WhisperModel, s.WhisperModelFixedBy = w.flags.WhisperModel, "--whisper-model"
	}
	return s
}

// SetOrder implements api.Speech.
func (w *speechWiring) SetOrder(order []string) error {
	if w.flags.STTRoutes != "" {
		return appliance.Errorf(appliance.ECONFLICT, "The routes' order is set by --stt-routes (HEARTH_STT_ROUTES) when the appliance starts; remove it there to choose the order here")
	}
	known := routeNames()
	for i, name := range order {
		if !slices.Contains(known, name) {
			return appliance.Errorf(appliance.EINVALID, "No speech route is called %q (known: %s)", name, strings.Join(known, ", "))
		}
		if slices.Contains(order[:i], name) {
			return appliance.Errorf(appliance.EINVALID, "The route %s is named twice in the order", name)
		}
	}
	if err := w.saved.Update(func(s *speechsettings.Settings) { s.Routes = order }); err != nil {
		return err
	}
	return w.rebuild()
}

// SetWhisperModel implements api.Speech.
func (w *speechWiring) SetWhisperModel(name string) error {
	if w.flags.WhisperModel != "" {
		return appliance.Errorf(appliance.ECONFLICT, "The whisper model is set by --whisper-model (HEARTH_WHISPER_MODEL) when the appliance starts; remove it there to choose one here")
	}
	if name != "" {
		m, err := w.models.Find(name)
		if err != nil || m.Kind != models.KindWhisper {
			return appliance.Errorf(appliance.ENOTFOUND, "No whisper model is called %q in the catalog", name)
		}
		if !w.models.Present(m) {
			return appliance.Errorf(appliance.ECONFLICT, "%s is not pulled yet: pull it first", name)
		}
	}
	if err := w.saved.Update(func(s *speechsettings.Settings) { s.WhisperModel = name }); err != nil {
		return err
	}
	return w.rebuild()
}

// whisperModel is the model the whisper route runs now, by catalog name, or "".
func (w *speechWiring) whisperModel() string {
	for _, r := range w.Routes() {
		if r.Name == localstt.Name && r.On {
			return r.Model
		}
	}
	return ""
}

// keysThatApply are the console's provider keys: saving or removing one
// rebuilds the routes, so the key is in use (or no longer) for the next
// session.
type keysThatApply struct {
	*providerkeys.File
	w *speechWiring
}

func (k keysThatApply) Set(provider, key string) error {
	if err := k.File.Set(provider, key); err != nil {
		return err
	}
	return k.w.rebuild()
}

// modelPulled rebuilds the routes when a model is pulled: the whisper
// route's first model, or a better one, serves the next session.
func (w *speechWiring) modelPulled(m models.Model) {
	if m.Kind != models.KindWhisper {
		return
	}
	if err := w.rebuild(); err != nil {
		w.deps.logger.Warn("speech routes after a model pull", "model", m.Name, "err", err)
	}
}
