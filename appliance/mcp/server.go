// Package mcp serves the owner's memories, conversations, action items and
// people to assistants (Claude, ChatGPT, Cursor, local agents) over the
// Model Context Protocol, as the reference service does at /v1/mcp/sse:
// streamable HTTP, protocol revision 2025-03-26, stateful sessions, sixteen
// tools whose arguments, results and JSON-RPC error codes follow the
// reference's.
//
// The transport and protocol are the official go-sdk's. This package puts a
// thin layer in front of it for what the reference does differently from the
// SDK's defaults: a bare key in Authorization, the exact 401 body and
// challenge, JSON replies to clients that do not accept SSE, -32601 for
// unknown methods, keep-alive pings on the GET stream, and an Origin check
// instead of the SDK's loopback-only DNS-rebinding guard (the appliance is
// reached over the LAN).
//
// The tools' logic lives in appliance/records, which the REST twins under
// /v1/mcp/ call too; this package is the protocol layer: schemas, argument
// decoding, JSON-RPC errors and the transport.
package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hearth-appliance/hearth/appliance/records"
)

// Identity and protocol of the server, as announced in initialize.
const (
	ServerName      = "hearth-mcp-server"
	ServerVersion   = "1.0.0"
	ProtocolVersion = "2025-03-26"
)

// Instructions is the initialize result's instructions string: how an
// assistant should use the tools.
const Instructions = `Hearth keeps the owner's conversations (recorded by a wearable, transcribed and structured on the appliance), memories (facts about the owner, and interesting things others said), action items and the people who speak in conversations.

- Use search_memories, search_conversations and search_action_items to find things by meaning; use get_memories, get_conversations (filter by start_date/end_date as YYYY-MM-DD, categories) and get_action_items to list recent ones.
- get_conversation_by_id returns one conversation with its transcript; get_people lists known speakers; get_user_profile summarises what is known about the owner.
- create_memory stores a new fact (the category is chosen automatically); edit_memory and delete_memory change existing ones. create_action_item, complete_action_item, update_action_item and delete_action_item manage tasks.
- Some items are locked by the owner: they show truncated in lists, and reading or changing them fails with error -32002. Newly written items can take a few minutes to become searchable by meaning.`

// Deps are what the MCP endpoint is built from (wired by hand in cmd).
type Deps struct {
	// Assistant runs the tools.
	Records *records.Service
	// Verify checks a hearth_mcp_ key or an OAuth access token and returns
	// TokenInfo{UserID, Scopes, Expiration}; a zero Expiration means the
	// credential does not expire (API keys). It returns auth.ErrInvalidToken
	// for a credential it does not accept. The appliance's router has
	// already authenticated the request, so its Verify reads the principal
	// from the request's context.
	Verify func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error)
	// ResourceMetadataURL is the OAuth protected-resource metadata address
	// named in the WWW-Authenticate challenge; nil leaves it out.
	ResourceMetadataURL func(r *http.Request) string
	// SameOrigin decides which browser origins are the appliance's own
	// (the configured public URL, the addresses it serves, a trusted
	// proxy's forwarded host); nil accepts only the host addressed.
	SameOrigin func(r *http.Request, origin string) bool
	// Logger receives internal errors; nil discards.
	Logger *slog.Logger
}

// Transport tuning.
const (
	// pingInterval matches the reference's keep-alive on GET streams, and is
	// short enough for proxies' idle timeouts (nginx: 60 s).
	pingInterval = 30 * time.Second
	// sessionIdleTimeout frees sessions that assistants abandon without a
	// DELETE (most do). It is long because a client whose session vanished
	// gets 404 and must initialize again, which some clients handle poorly.
	sessionIdleTimeout = 24 * time.Hour
	// maxBodyBytes bounds a POST body; tool arguments are small.
	maxBodyBytes = 4 << 20
)

// options are the knobs tests turn; New uses the defaults.
type options struct {
	pingInterval time.Duration
}

// New returns the streamable HTTP handler of the MCP endpoint. It serves
// whatever path it is mounted at (the caller mounts /v1/mcp/sse): POST for
// JSON-RPC (a message or a batch), GET for the server-to-client SSE stream,
// DELETE to end a session, HEAD as an authenticated reachability check.
func New(d Deps) http.Handler {
	return newHandler(d, options{pingInterval: pingInterval})
}

func newHandler(d Deps, o options) http.Handler {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.ResourceMetadataURL == nil {
		d.ResourceMetadataURL = func(*http.Request) string { return "" }
	}
	// The SDK logs every session's start and end at info; only its warnings
	// and errors are worth the owner's log.
	sdkLog := slog.New(minLevel{d.Logger.Handler(), slog.LevelWarn}).With("component", "mcp")
	srv, tools := newServer(&d, sdkLog)
	sdkHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		// The appliance is reached over the LAN by its address or name, so
		// the SDK's guard (403 when a loopback listener sees a non-loopback
		// Host) would refuse legitimate clients and anything behind a local
		// reverse proxy. Browsers are kept out by checkOrigin instead, and
		// every request needs a credential.
		DisableLocalhostProtection: true,
		SessionTimeout:             sessionIdleTimeout,
		MaxRequestBodyBytes:        maxBodyBytes,
		Logger:                     sdkLog,
	})
	return &handler{deps: &d, sdk: sdkHandler, ping: o.pingInterval, tools: tools, legacy: newLegacy(&d, sdkLog, o.pingInterval)}
}

// newServer builds the protocol server shared by every session, and
// returns it with the names of its tools.
func newServer(d *Deps, logger *slog.Logger) (*sdk.Server, map[string]bool) {
	s := sdk.NewServer(&sdk.Implementation{Name: ServerName, Version: ServerVersion}, &sdk.ServerOptions{
		Instructions:              Instructions,
		Logger:                    logger,
		SupportedProtocolVersions: []string{ProtocolVersion},
		// {tools:{}} as the reference announces; no logging capability.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		// No KeepAlive: the SDK's keep-alive sends ping *requests* and closes
		// sessions whose client does not answer, and many clients never open
		// the GET stream those would travel on. The GET stream gets
		// reference-style "event: ping" frames instead (see handler).
	})
	return s, registerTools(s, d)
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
