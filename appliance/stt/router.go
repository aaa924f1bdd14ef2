package stt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"
)

// Router opens a stream on the first provider, in order, that serves the
// session's language and channel count, retrying each a few times at
// connection time and falling back to the next. It fails closed when none
// serves the language. Once audio has flowed, a failure is reported, never
// papered over by switching provider (the session sends stt_failed).
//
// Its providers can be replaced while it serves (Set): a settings change
// reaches the next session at once, and a session that pinned the router
// (Pin) keeps the providers it started with.
type Router struct {
	providers atomic.Pointer[[]StreamingProvider]
	attempts  int
	backoff   time.Duration
	log       *slog.Logger
}

// NewRouter returns a router over providers, in order of preference.
func NewRouter(logger *slog.Logger, providers ...StreamingProvider) *Router {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	r := &Router{attempts: 3, backoff: 200 * time.Millisecond, log: logger}
	r.providers.Store(&providers)
	return r
}

// Set replaces the providers, in order of preference, for every Open from
// now on; streams already open, and routers pinned before, keep theirs.
func (r *Router) Set(providers ...StreamingProvider) {
	r.providers.Store(&providers)
}

// Pin returns a router fixed to the providers in place now, for a
// session that reopens its route (after a pause, or to hand over) and
// must stay on the routes it started with. A nil router pins to nil.
func (r *Router) Pin() *Router {
	if r == nil {
		return nil
	}
	p := &Router{attempts: r.attempts, backoff: r.backoff, log: r.log}
	p.providers.Store(r.providers.Load())
	return p
}

// current is the providers in place now.
func (r *Router) current() []StreamingProvider { return *r.providers.Load() }

// WithRetry sets how often each provider is tried at connection time and
// the pause between tries (tests shorten it).
func (r *Router) WithRetry(attempts int, backoff time.Duration) *Router {
	r.attempts, r.backoff = max(attempts, 1), backoff
	return r
}

// Selection is what Open chose.
type Selection struct {
	Provider string
	// Undiarized: the provider names no speakers (it implements
	// Undiarized); the session tells voices apart itself.
	Undiarized bool
	// FallbackFrom names the preferred provider that could not be opened,
	// when another one serves the session instead.
	FallbackFrom string
	// Batch is the provider's batch side, when it has one: a live session
	// transcribes with it the audio its stream skipped while behind.
	Batch BatchProvider
}

// Reason is the ready event's reason: "fallback_from_<x>", or "".
func (s Selection) Reason() string {
	if s.FallbackFrom == "" {
		return ""
	}
	return "fallback_from_" + s.FallbackFrom
}

// ErrNoRoute is the failure when no provider serves a language.
var ErrNoRoute = errors.New("no speech route serves this language")

// ErrHearsNothing is wrapped by a route whose model yields no words on
// audio with speech, again and again: the router passes over it, and a
// stream that fails with it before any word came is handed to the next
// provider (handoff.go).
var ErrHearsNothing = errors.New("the speech route's model yields no words on speech")

// Unusable is a provider that cannot serve for now and says why: the
// whisper route without a model, or with one that hears nothing. The
// router passes over it without a word (the route logs its own state
// once); its reason is the answer when no other provider serves.
type Unusable interface {
	Unusable() error
}

// unusable is p's reason not to be used, or nil.
func unusable(p any) error {
	if u, ok := p.(Unusable); ok {
		return u.Unusable()
	}
	return nil
}

// Route is what every provider, live or batch, is named and chosen by.
type Route interface {
	Name() string
	Supports(language string, channels int) bool
}

// Ready is the one rule by which the live router and the batch service
// (appliance/transcribe) pick routes, in the owner's order: p serves
// language with channels now. why is the reason of one that would serve
// them but is Unusable for now: it is passed over, and its reason is the
// answer when no other route serves.
func Ready(p Route, language string, channels int) (ok bool, why error) {
	if !p.Supports(language, channels) {
		return false, nil
	}
	if err := unusable(p); err != nil {
		return false, err
	}
	return true, nil
}

// Open opens a stream for cfg.
func (r *Router) Open(ctx context.Context, cfg Config) (Stream, Selection, error) {
	cfg.Language = normLanguage(cfg.Language)
	if cfg.Channels == 0 {
		cfg.Channels = 1
	}
	var sel Selection
	var last, skipped error
	providers := r.current()
	for i, p := range providers {
		if ok, why := Ready(p, cfg.Language, cfg.Channels); !ok {
			if why != nil && skipped == nil {
				skipped = Classify(why, p.Name())
			}
			continue
		}
		for attempt := 1; attempt <= r.attempts; attempt++ {
			s, err := p.Open(ctx, cfg)
			if err == nil {
				sel.Provider = p.Name()
				sel.Batch, _ = p.(BatchProvider)
				if u, ok := p.(Undiarized); ok && u.Undiarized() {
					sel.Undiarized = true
				}
				return r.handoff(ctx, cfg, s, p, providers[i+1:]), sel, nil
			}
			last = Classify(err, p.Name())
			r.log.Warn("speech route did not open", "provider", p.Name(), "attempt", attempt, "err", err)
			if ce := Classify(err, p.Name()); ce.Outcome == ConfigError || ctx.Err() != nil {
				break // retrying a misconfigured route cannot help
			}
			select {
			case <-ctx.Done():
				return nil, sel, ctx.Err()
			case <-time.After(r.backoff * time.Duration(attempt)):
			}
		}
		if sel.FallbackFrom == "" {
			sel.FallbackFrom = p.Name()
		}
	}
	if last == nil && skipped != nil {
		return nil, sel, skipped
	}
	if last == nil {
		return nil, sel, &Error{Outcome: ConfigError, Provider: "", Reason: "unsupported_language",
			Err: fmt.Errorf("%w: %s", ErrNoRoute, cfg.Language)}
	}
	return nil, sel, last
}

// Batch is the batch side of the first usable provider that serves
// language (mono), in order, or nil: where a live session sends audio it
// skipped when the route it opened on has since been passed over (a
// whisper model found to hear nothing, the session handed on).
func (r *Router) Batch(language string) BatchProvider {
	for _, p := range r.current() {
		b, ok := p.(BatchProvider)
		if ready, _ := Ready(p, normLanguage(language), 1); ok && ready {
			return b
		}
	}
	return nil
}

// Serves reports whether any provider serves language with channels (an
// unusable one counts: Open then says why it cannot).
func (r *Router) Serves(language string, channels int) bool {
	for _, p := range r.current() {
		if p.Supports(normLanguage(language), max(channels, 1)) {
			return true
		}
	}
	return false
}
