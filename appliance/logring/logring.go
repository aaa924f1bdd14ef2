// Package logring keeps the appliance's most recent log records in memory,
// so that the console's System page can show what happened lately without
// reading log files (which a service manager may keep anywhere, or nowhere).
package logring

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"
)

// Record is one kept log record. Attribute values are kept as strings: the
// console only shows them, and a string holds no reference to live values.
type Record struct {
	Time  time.Time         `json:"time"`
	Level string            `json:"level"`
	Msg   string            `json:"msg"`
	Attrs map[string]string `json:"attrs,omitempty"`
}

// Ring holds the last records, oldest overwritten first.
type Ring struct {
	mu   sync.Mutex
	recs []Record
	next int  // where the next record goes
	full bool // recs has wrapped
}

// NewRing keeps the last n records (at least one).
func NewRing(n int) *Ring { return &Ring{recs: make([]Record, max(n, 1))} }

func (r *Ring) add(rec Record) {
	r.mu.Lock()
	r.recs[r.next] = rec
	r.next++
	if r.next == len(r.recs) {
		r.next, r.full = 0, true
	}
	r.mu.Unlock()
}

// Records returns a copy of the kept records, oldest first.
func (r *Ring) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return slices.Clone(r.recs[:r.next])
	}
	return append(slices.Clone(r.recs[r.next:]), r.recs[:r.next]...)
}

// Handler tees records to another handler and keeps those at Min and above
// in a Ring, and those of the messages it is told to keep at any level.
// The ring's level is its own: a quiet log (--log-level warn) still leaves
// the console its info lines, and a debug log does not push them out with
// the libraries' chatter; the request lines, debug in the log, are what
// the console's owner looks for first, so they are kept by name.
type Handler struct {
	next   slog.Handler
	ring   *Ring
	min    slog.Leveler
	also   []string          // messages kept whatever their level
	prefix string            // group prefix for attribute keys ("a.b.")
	fixed  map[string]string // attributes from WithAttrs, flattened; never changed once set
}

// New returns a handler that passes records on to next and keeps in ring
// those at min and above and those whose message is one of also.
func New(next slog.Handler, ring *Ring, min slog.Leveler, also ...string) *Handler {
	return &Handler{next: next, ring: ring, min: min, also: also}
}

// Enabled reports whether either the next handler or the ring wants level.
func (h *Handler) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= h.min.Level() || len(h.also) > 0 || h.next.Enabled(ctx, level)
}

// Handle keeps r when it is at the ring's level or one of the messages
// kept by name, then passes it on when the next handler wants it.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= h.min.Level() || slices.Contains(h.also, r.Message) {
		h.ring.add(h.record(r))
	}
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *Handler) record(r slog.Record) Record {
	rec := Record{Time: r.Time, Level: r.Level.String(), Msg: r.Message}
	if len(h.fixed) > 0 || r.NumAttrs() > 0 {
		rec.Attrs = make(map[string]string, len(h.fixed)+r.NumAttrs())
	}
	for k, v := range h.fixed {
		rec.Attrs[k] = v
	}
	r.Attrs(func(a slog.Attr) bool {
		flatten(rec.Attrs, h.prefix, a)
		return true
	})
	return rec
}

// flatten writes a as strings, groups as dotted keys (as the text handler
// shows them).
func flatten(into map[string]string, prefix string, a slog.Attr) {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		p := prefix
		if a.Key != "" {
			p += a.Key + "."
		}
		for _, g := range v.Group() {
			flatten(into, p, g)
		}
		return
	}
	if a.Key == "" {
		return
	}
	into[prefix+a.Key] = v.String()
}

// WithAttrs returns a handler whose records carry attrs as well.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	h2 := *h
	h2.next = h.next.WithAttrs(attrs)
	// Flattened now, under the groups of now, as slog's handlers do; a
	// new map, since handlers derived from h share h's.
	h2.fixed = maps.Clone(h.fixed)
	if h2.fixed == nil {
		h2.fixed = map[string]string{}
	}
	for _, a := range attrs {
		flatten(h2.fixed, h.prefix, a)
	}
	return &h2
}

// WithGroup returns a handler that puts later attributes under name.
func (h *Handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.next = h.next.WithGroup(name)
	h2.prefix = h.prefix + name + "."
	return &h2
}
