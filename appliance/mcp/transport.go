package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Messages of the HTTP layer, worded as the reference's (the challenge says
// Hearth where the reference says Omi).
const (
	msgUnauthorized    = "Invalid or missing API key. Provide via Authorization header."
	challengeDesc      = "Valid Hearth MCP OAuth bearer token required"
	msgInvalidJSON     = "Invalid JSON body"
	msgOriginRefused   = "Origin not allowed"
	msgBodyTooLarge    = "Request body too large"
	msgInternal        = "Internal error."
	msgNotInitialized  = "Session not initialized: send initialize first (tools are available only after initialization)"
	sessionHeader      = "Mcp-Session-Id"
	versionHeader      = "Mcp-Protocol-Version"
	challengeURLHeader = "X-Hearth-Mcp-Resource-Metadata"
)

// handler is the layer in front of the SDK's streamable HTTP handler.
type handler struct {
	deps  *Deps
	sdk   http.Handler
	ping  time.Duration
	tools map[string]bool // names of the tools, for -32601 on others
	// legacy serves the HTTP+SSE transport of revision 2024-11-05.
	legacy *legacy
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !originAllowed(r, h.deps.SameOrigin) {
		writeDetail(w, http.StatusForbidden, msgOriginRefused)
		return
	}
	if isLegacy(r) {
		h.authenticate(w, r, h.legacy.serve)
		return
	}
	h.authenticate(w, r, h.serveAuthenticated)
}

// originAllowed refuses browser pages of other sites. A request without
// Origin is not from a browser page (assistants' back ends, CLI clients)
// and passes; credentials still gate it. A page of the appliance itself may
// call the endpoint: what sameOrigin accepts (the configured public URL,
// the addresses served, a trusted proxy's forwarded host), or without it
// the host the browser addressed. A client's own X-Forwarded-Host is never believed: it
// would let any page claim to be the appliance.
func originAllowed(r *http.Request, sameOrigin func(*http.Request, string) bool) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // includes "null" (sandboxed frames, file:)
	}
	if sameOrigin != nil {
		// The appliance knows its own addresses: the Host header alone is
		// the client's word (a rebound DNS name sends Host: evil.example
		// with Origin: http://evil.example).
		return sameOrigin(r, origin)
	}
	return strings.EqualFold(u.Host, r.Host)
}

// authenticate runs next with the caller's TokenInfo in the request context,
// or answers 401 in the reference's words. The SDK's RequireBearerToken does
// the checking (so the SDK's session-hijack guard sees TokenInfo.UserID);
// its failure replies are rewritten, never shown.
func (h *handler) authenticate(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
	// The reference accepts a bare key as well as "Bearer <key>".
	if v := strings.TrimSpace(r.Header.Get("Authorization")); v != "" && len(strings.Fields(v)) == 1 && !strings.EqualFold(v, "bearer") {
		r.Header.Set("Authorization", "Bearer "+v)
	}
	metadataURL := h.deps.ResourceMetadataURL(r)
	reached := false
	inner := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		reached = true
		// Tools need the challenge address for -32003's data, but see
		// only headers; a client cannot usefully spoof its own challenge.
		r.Header.Set(challengeURLHeader, metadataURL)
		next(w, r)
	})
	verify := func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		if h.deps.Verify == nil {
			return nil, auth.ErrInvalidToken
		}
		ti, err := h.deps.Verify(ctx, token, r)
		if err == nil && ti != nil && ti.UserID == "" {
			// Without a user nothing can be served, and the SDK's
			// per-user session guard would be off.
			return nil, auth.ErrInvalidToken
		}
		return ti, err
	}
	rec := &failureRecorder{header: http.Header{}}
	auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL:    metadataURL,
		AllowMissingExpiration: true, // API keys do not expire
	})(inner).ServeHTTP(rec, r)
	if reached {
		return
	}
	if rec.status >= 500 {
		h.deps.Logger.Error("mcp: verifying credential failed", "err", strings.TrimSpace(rec.body.String()))
		writeDetail(w, http.StatusInternalServerError, msgInternal)
		return
	}
	challenge := `Bearer `
	if metadataURL != "" {
		challenge += `resource_metadata="` + metadataURL + `", `
	}
	challenge += `error="invalid_token", error_description="` + challengeDesc + `"`
	w.Header().Set("WWW-Authenticate", challenge)
	writeDetail(w, http.StatusUnauthorized, msgUnauthorized)
}

// failureRecorder catches what RequireBearerToken writes when it refuses.
type failureRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (f *failureRecorder) Header() http.Header { return f.header }
func (f *failureRecorder) WriteHeader(code int) {
	if f.status == 0 {
		f.status = code
	}
}
func (f *failureRecorder) Write(p []byte) (int, error) {
	if f.status == 0 {
		f.status = http.StatusOK
	}
	return f.body.Write(p)
}

func (h *handler) serveAuthenticated(w http.ResponseWriter, r *http.Request) {
	// The reference ignores the protocol-version header; the SDK refuses
	// versions it was not configured for, and takes versions from 2026 on as
	// a switch to another protocol. Only the pinned revision is passed on.
	if v := r.Header.Get(versionHeader); v != "" && v != ProtocolVersion {
		r.Header.Del(versionHeader)
	}
	switch r.Method {
	case http.MethodHead:
		w.WriteHeader(http.StatusOK)
	case http.MethodPost:
		h.servePOST(w, r)
	case http.MethodGet:
		h.serveGET(w, r)
	default:
		rw := &responseWriter{w: w}
		h.sdk.ServeHTTP(rw, r)
		rw.finish()
	}
}

// Methods the server answers; other calls get -32601 as in the reference,
// and other notifications are ignored.
var (
	knownCalls = map[string]bool{"initialize": true, "ping": true, "tools/list": true, "tools/call": true}
	// Notifications the SDK accepts; notifications/progress needs params.
	knownNotifications = map[string]bool{"notifications/initialized": true, "notifications/cancelled": true,
		"notifications/roots/list_changed": true, "notifications/progress": true}
)

func (h *handler) servePOST(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeDetail(w, http.StatusRequestEntityTooLarge, msgBodyTooLarge)
			return
		}
		writeDetail(w, http.StatusBadRequest, msgInvalidJSON)
		return
	}
	wantSSE := acceptsSSE(r.Header.Values("Accept"))
	msgs, isBatch, ok := parseMessages(body)
	if !ok {
		writeDetail(w, http.StatusBadRequest, msgInvalidJSON)
		return
	}
	hasSession := r.Header.Get(sessionHeader) != ""
	initializing := false
	for _, m := range msgs {
		initializing = initializing || rawString(m["method"]) == "initialize"
	}
	// Some calls are answered here rather than by the SDK, whose answers
	// differ from the reference's: it rewrites every -32601 to its own
	// message, refuses a body holding an unknown method with HTTP 400, and
	// answers calls made before initialize with code 0.
	var local [][]byte
	changed := false
	kept := msgs[:0:0]
	for _, m := range msgs {
		method := rawString(m["method"])
		isCall := len(m["id"]) > 0 && string(m["id"]) != "null"
		tool := toolName(m["params"])
		switch {
		case method == "" || m["result"] != nil || m["error"] != nil:
			// A response from the client, or malformed: the SDK judges.
		case !isCall && !knownNotifications[method]:
			changed = true // ignored, as the reference does
			continue
		case isCall && !knownCalls[method]:
			local = append(local, rpcErrorMessage(m["id"], jsonrpc.CodeMethodNotFound, "Method not found: "+method))
			changed = true
			continue
		case isCall && method == "tools/call" && tool != "" && !h.tools[tool]:
			local = append(local, rpcErrorMessage(m["id"], jsonrpc.CodeMethodNotFound, "Unknown tool: "+tool))
			changed = true
			continue
		case isCall && !hasSession && !initializing && method != "ping":
			local = append(local, rpcErrorMessage(m["id"], jsonrpc.CodeInvalidRequest, msgNotInitialized))
			changed = true
			continue
		case isCall && (len(m["params"]) == 0 || string(m["params"]) == "null"):
			// initialize "params may be empty" (service interface); the
			// SDK requires the member.
			m["params"] = json.RawMessage(`{}`)
			changed = true
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 {
		if len(local) == 0 {
			w.WriteHeader(http.StatusAccepted)
		} else {
			writeMessages(w, wantSSE, local)
		}
		return
	}
	if changed {
		if isBatch {
			body, _ = json.Marshal(kept)
		} else {
			body, _ = json.Marshal(kept[0])
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	// The SDK insists on both media types and on a JSON content type; the
	// reference answers JSON unless the client accepts SSE, and reads any
	// body as JSON.
	r.Header.Set("Accept", "application/json, text/event-stream")
	if ct := r.Header.Get("Content-Type"); ct == "" || strings.HasPrefix(ct, "text/plain") {
		r.Header.Set("Content-Type", "application/json")
	}
	// The SDK streams SSE. It is passed through to a client that accepts
	// SSE, unless local answers must join its own.
	rw := &responseWriter{w: w, collect: !wantSSE || len(local) > 0, sse: wantSSE, extra: local}
	h.sdk.ServeHTTP(rw, r)
	rw.finish()
}

// serveGET opens the server-to-client SSE stream. With a session id it is
// the SDK's stream; without one the reference still answers a keep-alive
// stream, and so does this. Either way "event: ping" frames keep proxies and
// clients from timing it out.
func (h *handler) serveGET(w http.ResponseWriter, r *http.Request) {
	r.Header.Set("Accept", "text/event-stream")
	rw := &responseWriter{w: w}
	stop := make(chan struct{})
	defer func() {
		// No ping may touch w once the handler has returned.
		rw.close()
		close(stop)
	}()
	go func() {
		t := time.NewTicker(h.ping)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-r.Context().Done():
				return
			case <-t.C:
				rw.ping()
			}
		}
	}()
	if r.Header.Get(sessionHeader) == "" {
		hd := rw.Header()
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("Cache-Control", "no-cache")
		hd.Set("Connection", "keep-alive")
		rw.WriteHeader(http.StatusOK)
		rw.Flush()
		<-r.Context().Done()
		return
	}
	h.sdk.ServeHTTP(rw, r)
	rw.finish()
}

// acceptsSSE reports whether the client named text/event-stream: only then
// does the reference stream its reply.
func acceptsSSE(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			base, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(base), "text/event-stream") {
				return true
			}
		}
	}
	return false
}

// parseMessages splits a body into JSON-RPC message objects.
func parseMessages(body []byte) (msgs []map[string]json.RawMessage, isBatch, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return nil, false, false
	}
	if body[0] == '[' {
		if err := json.Unmarshal(body, &msgs); err != nil || len(msgs) == 0 {
			return nil, true, false
		}
		return msgs, true, true
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, false, false
	}
	return []map[string]json.RawMessage{m}, false, true
}

func toolName(params json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
	}
	json.Unmarshal(params, &p)
	return p.Name
}

func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// rpcErrorMessage encodes one JSON-RPC error response.
func rpcErrorMessage(id json.RawMessage, code int, msg string) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	return data
}

// writeMessages writes JSON-RPC messages as SSE frames or as JSON (one
// object for one message, else an array), as the reference does.
func writeMessages(w http.ResponseWriter, sse bool, msgs [][]byte) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	if sse {
		h.Set("Content-Type", "text/event-stream")
		h.Set("Connection", "keep-alive")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		for _, m := range msgs {
			w.Write([]byte("event: message\ndata: "))
			w.Write(m)
			w.Write([]byte("\n\n"))
		}
		return
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if len(msgs) == 1 {
		w.Write(msgs[0])
		return
	}
	w.Write([]byte{'['})
	for i, m := range msgs {
		if i > 0 {
			w.Write([]byte{','})
		}
		w.Write(m)
	}
	w.Write([]byte{']'})
}

// writeDetail writes the appliance's error body {"detail": msg}.
func writeDetail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"detail": msg})
}

// responseWriter sits between the SDK and the client. It
//   - turns the SDK's plain-text HTTP errors into {"detail": ...};
//   - with collect, holds back the SDK's SSE reply and sends its responses,
//     and extra ones, in the client's framing (JSON unless sse);
//   - lets ping add keep-alive frames between the SDK's events.
//
// The SDK writes from its session goroutine while the request goroutine
// pings, hence the mutex.
type responseWriter struct {
	w       http.ResponseWriter
	collect bool
	sse     bool
	extra   [][]byte

	mu        sync.Mutex
	closed    bool // the request is over: w is not ours any more
	status    int
	buffering bool // body held back for finish
	streaming bool // an SSE body is passing through
	boundary  bool // the last write ended an SSE event
	buf       bytes.Buffer
}

func (rw *responseWriter) Header() http.Header { return rw.w.Header() }

func (rw *responseWriter) WriteHeader(code int) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.writeHeaderLocked(code)
}

func (rw *responseWriter) writeHeaderLocked(code int) {
	if rw.status != 0 {
		return
	}
	rw.status = code
	ct := rw.w.Header().Get("Content-Type")
	switch {
	case code >= 400 && strings.HasPrefix(ct, "text/plain"):
		rw.buffering = true
	case rw.collect && code < 300:
		rw.buffering = true
	default:
		if strings.HasPrefix(ct, "text/event-stream") {
			rw.streaming, rw.boundary = true, true
			rw.w.Header().Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
		}
		rw.w.WriteHeader(code)
	}
}

func (rw *responseWriter) Write(p []byte) (int, error) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.writeHeaderLocked(http.StatusOK)
	if rw.buffering {
		return rw.buf.Write(p)
	}
	if len(p) > 0 {
		rw.boundary = bytes.HasSuffix(p, []byte("\n\n"))
	}
	return rw.w.Write(p)
}

// Flush passes through while streaming (the SDK flushes after each event).
func (rw *responseWriter) Flush() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if !rw.buffering {
		http.NewResponseController(rw.w).Flush()
	}
}

// ping writes a reference-style keep-alive frame when an SSE stream is open
// and not in the middle of an event.
func (rw *responseWriter) ping() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.closed || !rw.streaming || !rw.boundary {
		return
	}
	if _, err := rw.w.Write([]byte("event: ping\ndata: {}\n\n")); err == nil {
		http.NewResponseController(rw.w).Flush()
	}
}

// send writes one JSON-RPC message as an event on an open SSE stream; the
// SDK writes each event whole, so this never splits one of its events.
func (rw *responseWriter) send(msg []byte) bool {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.closed || !rw.streaming {
		return false
	}
	if _, err := rw.w.Write([]byte("event: message\ndata: " + string(msg) + "\n\n")); err != nil {
		return false
	}
	http.NewResponseController(rw.w).Flush()
	return true
}

// close ends pinging; the handler is about to return.
func (rw *responseWriter) close() {
	rw.mu.Lock()
	rw.closed = true
	rw.mu.Unlock()
}

// finish sends what was held back, once the SDK is done with the request.
func (rw *responseWriter) finish() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if !rw.buffering {
		return
	}
	rw.buffering = false
	if rw.status >= 400 {
		writeDetail(rw.w, rw.status, strings.TrimSpace(rw.buf.String()))
		return
	}
	msgs := append(sseResponses(rw.buf.Bytes()), rw.extra...)
	if len(msgs) == 0 {
		rw.w.WriteHeader(rw.status) // 202: notifications only
		return
	}
	if !rw.sse {
		rw.w.Header().Del("Connection")
	}
	writeMessages(rw.w, rw.sse, msgs)
}

// sseResponses extracts the JSON-RPC responses from an SSE body. Requests
// and notifications from the server cannot travel in a JSON reply and are
// dropped, as they would be with the SDK's own JSON mode.
func sseResponses(body []byte) [][]byte {
	var out [][]byte
	for _, event := range bytes.Split(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n\n")) {
		name := ""
		var data []byte
		for _, line := range bytes.Split(event, []byte("\n")) {
			switch {
			case bytes.HasPrefix(line, []byte("event:")):
				name = string(bytes.TrimSpace(line[len("event:"):]))
			case bytes.HasPrefix(line, []byte("data:")):
				d := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
				if data != nil {
					data = append(data, '\n')
				}
				data = append(data, d...)
			}
		}
		if len(data) == 0 || (name != "" && name != "message") {
			continue
		}
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(data, &probe) != nil || len(probe.ID) == 0 || (probe.Result == nil && probe.Error == nil) {
			continue
		}
		out = append(out, data)
	}
	return out
}
