package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/providerkeys"
)

// ProviderKeys keeps the remote routes' keys the owner enters in the
// console (appliance/providerkeys). Keys go in and never come back out.
type ProviderKeys interface {
	Known() []string // the providers that take a key, in the console's order
	Configured() (map[string]bool, error)
	Set(provider, key string) error
}

// Speech is the speech routes in effect and the owner's settings of them.
// A change is in effect for the next session when the call returns
// (cmd/hearth rebuilds the routes); sessions already running keep theirs.
type Speech interface {
	Routes() []appliance.RouteStatus // in effect now, in order
	Settings() appliance.SpeechSettings
	// SetOrder sets the routes' order (empty: the default order).
	SetOrder(order []string) error
	// SetWhisperModel picks the whisper route's model by its catalog
	// name (empty: the best one pulled).
	SetWhisperModel(name string) error
}

// ModelPuller downloads speech models in the background. Start fails with
// ErrModelPulling for a model already downloading; States is the catalog
// with each model's download, which the console gets as JSON unchanged.
type ModelPuller interface {
	Start(name string) error
	States() any
}

// ErrModelPulling is a second pull of a model already downloading.
var ErrModelPulling = errors.New("model already downloading")

// consoleSpeechRoutes serves the speech page: the routes in order and why
// any is off, the remote vendors' keys (write-only), the models with
// download progress, and the owner's voice profile recorded in the browser.
func (s *Server) consoleSpeechRoutes(g *echo.Group) {
	g.GET("/speech", s.consoleSpeech)
	// Routes, keys and models are the whole box's: the owner's alone.
	const what = "change the speech settings (they apply to everyone's audio)"
	g.PUT("/speech/keys/:provider", s.consoleSetProviderKey, s.ownerOnly(what, "speech key set", "provider", true))
	g.DELETE("/speech/keys/:provider", s.consoleDeleteProviderKey, s.ownerOnly(what, "speech key removed", "provider", true))
	g.POST("/speech/models/:name/pull", s.consolePullModel, s.ownerOnly(what, "model download started", "name", true))
	g.PUT("/speech/routes", s.consoleSetRouteOrder, s.ownerOnly(what, "speech route order set", "", true))
	g.PUT("/speech/whisper-model", s.consoleSetWhisperModel, s.ownerOnly(what, "whisper model chosen", "", true))
	if s.profiles != nil {
		g.GET("/speech-profile", s.speechProfileStatus)
		g.POST("/speech-profile", s.uploadSpeechProfile, s.limit(PolicySpeechProfile))
		g.DELETE("/speech-profile", s.deleteSpeechProfile)
		g.GET("/speech-profile/audio", s.speechProfileAudio)
	}
}

// providerKeyState is a vendor's key as the console sees it: set or not,
// and whether a route of the vendor is on now.
type providerKeyState struct {
	Name   string `json:"name"`
	Set    bool   `json:"set"`
	Active bool   `json:"active"`
}

// GET /console/api/speech. A member sees only their own voice profile's
// part: the routes, keys and models are the owner's settings.
func (s *Server) consoleSpeech(c echo.Context) error {
	if owner, err := s.isOwner(c); err != nil {
		return err
	} else if !owner {
		return c.JSON(http.StatusOK, map[string]any{"routes": []appliance.RouteStatus{}, "provider_keys": []providerKeyState{},
			"models": []any{}, "voice_profile": s.profiles != nil, "owner_only": true})
	}
	routes := []appliance.RouteStatus{}
	settings := appliance.SpeechSettings{Order: []string{}}
	if s.speech != nil {
		routes = append(routes, s.speech.Routes()...)
		settings = s.speech.Settings()
	}
	on := map[string]bool{}
	for _, r := range routes {
		on[r.Name] = r.On
	}
	keys := []providerKeyState{}
	if s.providerKeys != nil {
		set, err := s.providerKeys.Configured()
		if err != nil {
			return err
		}
		for _, p := range s.providerKeys.Known() {
			keys = append(keys, providerKeyState{Name: p, Set: set[p], Active: on[p]})
		}
	}
	var ms any = []any{}
	if s.models != nil {
		ms = s.models.States()
	}
	return c.JSON(http.StatusOK, map[string]any{"routes": routes, "settings": settings, "provider_keys": keys, "models": ms,
		"voice_profile": s.profiles != nil})
}

// PUT /console/api/speech/keys/{provider} {key}: 204. The key is in use
// for the next session; it is never shown again.
func (s *Server) consoleSetProviderKey(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	key, _ := newFields(m, v, "body").str("key", true)
	if err := v.Err(); err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	if key == "" || len(key) > 512 || strings.ContainsAny(key, "\r\n\t ") {
		return errUnprocessable("value_error", "A key is one line of 1 to 512 characters without spaces", "body", "key")
	}
	return s.setProviderKey(c, key)
}

// DELETE /console/api/speech/keys/{provider}: 204.
func (s *Server) consoleDeleteProviderKey(c echo.Context) error { return s.setProviderKey(c, "") }

func (s *Server) setProviderKey(c echo.Context, key string) error {
	if s.providerKeys == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "Provider keys cannot be saved on this appliance")
	}
	if err := s.providerKeys.Set(c.Param("provider"), key); errors.Is(err, providerkeys.ErrUnknownProvider) {
		return errNotFound("No remote route takes a key by that name")
	} else if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// POST /console/api/speech/models/{name}/pull: 202; GET /speech shows the
// progress.
func (s *Server) consolePullModel(c echo.Context) error {
	if s.models == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "Models cannot be pulled on this appliance")
	}
	switch err := s.models.Start(c.Param("name")); {
	case errors.Is(err, ErrModelPulling):
		return appliance.Errorf(appliance.ECONFLICT, "That model is already downloading")
	case err != nil:
		return errNotFound("No model by that name in the catalog")
	}
	return c.JSON(http.StatusAccepted, map[string]string{"status": "pulling"})
}

// PUT /console/api/speech/routes {order: [route…]}: 200 with the routes
// now in effect. An empty order is the default one.
func (s *Server) consoleSetRouteOrder(c echo.Context) error {
	if s.speech == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "The speech routes cannot be changed on this appliance")
	}
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	if _, present := f.get("order", true); !present {
		return v.Err()
	}
	order, _ := f.stringList("order")
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.speech.SetOrder(order); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"routes": s.speech.Routes(), "settings": s.speech.Settings()})
}

// PUT /console/api/speech/whisper-model {name}: 200 with the routes now in
// effect. An empty name is the best model pulled.
func (s *Server) consoleSetWhisperModel(c echo.Context) error {
	if s.speech == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "The whisper model cannot be chosen on this appliance")
	}
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	name, _ := newFields(m, v, "body").str("name", true)
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.speech.SetWhisperModel(strings.TrimSpace(name)); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"routes": s.speech.Routes(), "settings": s.speech.Settings()})
}

// routesInEffect are the names of the speech routes on now, in the order
// they are tried, for the System page.
func (s *Server) routesInEffect() []string {
	if s.speech == nil {
		return s.system.Routes
	}
	var names []string
	for _, r := range s.speech.Routes() {
		if r.On {
			names = append(names, r.Name)
		}
	}
	return names
}
