package main

import "net/http"

// lazyHandler is a handler built after the appliance has started serving,
// off the path to its first answer: building the MCP endpoint (the SDK's
// server and every tool's JSON schema) took ~3 ms of a restart's ~20 before
// /healthz could answer. A request that arrives before it is built waits
// for it, or for its own end.
type lazyHandler struct {
	ready chan struct{}
	h     http.Handler
}

func newLazyHandler() *lazyHandler { return &lazyHandler{ready: make(chan struct{})} }

// build makes the handler; call it once.
func (l *lazyHandler) build(newHandler func() http.Handler) {
	l.h = newHandler()
	close(l.ready)
}

func (l *lazyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-l.ready:
		l.h.ServeHTTP(w, r)
	case <-r.Context().Done():
	}
}
