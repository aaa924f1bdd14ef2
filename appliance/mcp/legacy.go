package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The legacy HTTP+SSE transport (protocol revision 2024-11-05), served
// beside streamable HTTP on the same path, as the MCP specification's
// backwards-compatibility section describes. A URL ending in /sse invites
// it: older clients and some connectors GET the path, read an `endpoint`
// event naming where to POST (this path with ?sessionid=…), and POST their
// messages there; replies travel on the GET stream.
//
//   - GET without Mcp-Session-Id opens a legacy session (a GET that carries
//     one is the streamable transport's stream);
//   - POST with ?sessionid= is a legacy message.
//
// The same credentials, rate limits, tools and errors apply. The SDK's SSE
// transport does not carry the caller's token into tool calls, so each
// legacy session gets a server of its own whose calls run as the user who
// opened it; and a POST is taken only from that same user, or anyone
// holding a valid key and a session id could act as its owner.

// legacyVersion is the protocol revision of the HTTP+SSE transport.
const legacyVersion = "2024-11-05"

type legacy struct {
	d      *Deps
	logger *slog.Logger
	ping   time.Duration
	sse    *sdk.SSEHandler

	tools map[string]bool // the tools' names, for "Unknown tool: X"

	mu       sync.Mutex
	sessions map[string]legacySession // by session id
}

// legacySession is whose a session is and the stream its replies go on.
type legacySession struct {
	user   string
	stream *responseWriter
}

func newLegacy(d *Deps, logger *slog.Logger, ping time.Duration) *legacy {
	l := &legacy{d: d, logger: logger, ping: ping, tools: map[string]bool{}, sessions: map[string]legacySession{}}
	for _, t := range allTools(d) {
		l.tools[t.tool.Name] = true
	}
	l.sse = sdk.NewSSEHandler(func(r *http.Request) *sdk.Server {
		ti := auth.TokenInfoFromContext(r.Context())
		if ti == nil {
			return nil // authenticate guarantees one
		}
		return newSessionServer(d, logger, ti)
	}, &sdk.SSEOptions{DisableLocalhostProtection: true, MaxRequestBodyBytes: maxBodyBytes})
	return l
}

// isLegacy tells a legacy request from a streamable one.
func isLegacy(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet:
		return r.Header.Get(sessionHeader) == ""
	case http.MethodPost:
		return r.URL.Query().Get("sessionid") != ""
	}
	return false
}

// serve handles an authenticated legacy request.
func (l *legacy) serve(w http.ResponseWriter, r *http.Request) {
	ti := auth.TokenInfoFromContext(r.Context())
	if r.Method == http.MethodPost {
		id := r.URL.Query().Get("sessionid")
		l.mu.Lock()
		sess, ok := l.sessions[id]
		l.mu.Unlock()
		if !ok || ti == nil || sess.user != ti.UserID {
			writeDetail(w, http.StatusNotFound, "Session not found")
			return
		}
		l.post(w, r, sess.stream)
		return
	}
	// GET: the stream, with the reference's keep-alive pings between the
	// SDK's events; the endpoint event tells which session is whose.
	rw := &responseWriter{w: w, sse: true}
	cw := &endpointCapture{rw: rw, found: func(id string) {
		l.mu.Lock()
		l.sessions[id] = legacySession{user: ti.UserID, stream: rw}
		l.mu.Unlock()
	}}
	stop := make(chan struct{})
	defer func() {
		rw.close()
		close(stop)
		if cw.id != "" {
			l.mu.Lock()
			delete(l.sessions, cw.id)
			l.mu.Unlock()
		}
	}()
	go func() {
		t := time.NewTicker(l.ping)
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
	l.sse.ServeHTTP(cw, r)
}

// post takes one legacy message. A call of an unknown method or tool is
// answered here, on the session's stream as every reply of this transport
// is, with the code and message streamable HTTP gives: the SDK would refuse
// an unknown method with an HTTP 400 text and rewrite the tool's -32601 to
// its own message. Other messages go to the SDK.
func (l *legacy) post(w http.ResponseWriter, r *http.Request, stream *responseWriter) {
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
	if msgs, isBatch, ok := parseMessages(body); ok && !isBatch {
		m := msgs[0]
		method := rawString(m["method"])
		isCall := len(m["id"]) > 0 && string(m["id"]) != "null"
		var reply []byte
		switch {
		case method == "" || m["result"] != nil || m["error"] != nil:
		case !isCall && !knownNotifications[method]:
			w.WriteHeader(http.StatusAccepted) // ignored, as on streamable HTTP
			return
		case isCall && !knownCalls[method]:
			reply = rpcErrorMessage(m["id"], jsonrpc.CodeMethodNotFound, "Method not found: "+method)
		case isCall && method == "tools/call" && toolName(m["params"]) != "" && !l.tools[toolName(m["params"])]:
			reply = rpcErrorMessage(m["id"], jsonrpc.CodeMethodNotFound, "Unknown tool: "+toolName(m["params"]))
		}
		if reply != nil {
			if !stream.send(reply) {
				writeDetail(w, http.StatusNotFound, "Session not found")
				return
			}
			w.WriteHeader(http.StatusAccepted)
			return
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	l.sse.ServeHTTP(w, r)
}

// newSessionServer is a protocol server for one legacy session: the same
// tools, with every request run as the user who opened the session.
func newSessionServer(d *Deps, logger *slog.Logger, ti *auth.TokenInfo) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: ServerName, Version: ServerVersion}, &sdk.ServerOptions{
		Instructions: Instructions, Logger: logger,
		SupportedProtocolVersions: []string{legacyVersion, ProtocolVersion},
		Capabilities:              &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	// Outermost, so that the scope filter and the tools see the user.
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			switch r := req.(type) {
			case *sdk.CallToolRequest:
				r.Extra = withToken(r.Extra, ti)
			case *sdk.ListToolsRequest:
				r.Extra = withToken(r.Extra, ti)
			}
			return next(ctx, method, req)
		}
	})
	registerTools(s, d)
	return s
}

func withToken(e *sdk.RequestExtra, ti *auth.TokenInfo) *sdk.RequestExtra {
	if e == nil {
		e = &sdk.RequestExtra{}
	}
	if e.TokenInfo == nil {
		e.TokenInfo = ti
	}
	return e
}

// endpointCapture passes an SSE stream through and learns the session id
// from the first `endpoint` event.
type endpointCapture struct {
	rw    *responseWriter
	found func(id string)
	id    string
	seen  bytes.Buffer
}

var endpointID = regexp.MustCompile(`sessionid=([A-Za-z0-9_-]+)`)

func (c *endpointCapture) Header() http.Header  { return c.rw.Header() }
func (c *endpointCapture) WriteHeader(code int) { c.rw.WriteHeader(code) }
func (c *endpointCapture) Flush()               { c.rw.Flush() }

func (c *endpointCapture) Write(p []byte) (int, error) {
	if c.id == "" && c.seen.Len() < 4096 {
		c.seen.Write(p)
		if m := endpointID.FindSubmatch(c.seen.Bytes()); m != nil {
			c.id = string(m[1])
			c.found(c.id)
		}
	}
	return c.rw.Write(p)
}
