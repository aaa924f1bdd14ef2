package api

import (
	"context"
	"crypto/subtle"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// Context keys for what authentication established.
const (
	ctxUser = "hearth.user"
	ctxKey  = "hearth.key"
)

// 401 messages, in the reference's words with our key prefixes and CLI.
const (
	msgMissingBearer = "Missing or invalid Authorization header. Must be 'Bearer API_KEY'"
	msgInvalidKey    = "Invalid API Key"
	msgMCPKeyOnDev   = "MCP API keys (hearth_mcp_...) only authenticate the MCP endpoints under /v1/mcp/ " +
		"(for example GET /v1/mcp/memories, GET /v1/mcp/conversations) and the MCP server at /v1/mcp/sse. " +
		"This endpoint requires a Developer API key (hearth keys create --kind dev)."
	msgDevKeyUsage = "Developer API keys (hearth_dev_...) only authenticate the Developer API under /v1/dev/ " +
		"(for example GET /v1/dev/user/conversations)."
	msgMCPKeyUsage = "MCP API keys (hearth_mcp_...) only authenticate the MCP endpoints under /v1/mcp/ " +
		"(for example GET /v1/mcp/memories, GET /v1/mcp/conversations) and the MCP server at /v1/mcp/sse."
	msgNeedsIDToken     = "This endpoint requires an ID token from this appliance (hearth token --user UID)."
	msgMissingToken     = "Authorization header not found"
	msgInvalidToken     = "Invalid authorization token"
	msgInsufficientPerm = "Insufficient permissions. Required scope: "
)

func unauthorized(msg string) error { return appliance.Errorf(appliance.EUNAUTHORIZED, "%s", msg) }

// bearer returns the credential of an "Authorization: Bearer X" header.
func bearer(c echo.Context) (string, bool) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	const p = "Bearer "
	if len(h) < len(p) || !strings.EqualFold(h[:len(p)], p) {
		return "", false
	}
	return strings.TrimSpace(h[len(p):]), true
}

// requireDevKey authenticates a developer key and checks scope.
func (s *Server) requireDevKey(scope string) echo.MiddlewareFunc {
	return s.requireKey(appliance.KeyKindDev, scope)
}

// requireMCPKey authenticates an MCP key on the MCP REST twins.
func (s *Server) requireMCPKey(scope string) echo.MiddlewareFunc {
	return s.requireKey(appliance.KeyKindMCP, scope)
}

// wrongFamily is the 401 for a key of the other family: what the presented
// key does authenticate, then what this endpoint needs.
var wrongFamily = map[appliance.KeyKind]string{
	appliance.KeyKindDev: msgMCPKeyOnDev,
	appliance.KeyKindMCP: msgDevKeyUsage + " This endpoint requires an MCP API key (hearth keys create --kind mcp).",
}

// requireKey authenticates a key of one family and checks scope.
func (s *Server) requireKey(family appliance.KeyKind, scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			raw, ok := bearer(c)
			if !ok && family == appliance.KeyKindMCP {
				// MCP credentials may come bare, as with the reference's MCP server.
				raw = strings.TrimSpace(c.Request().Header.Get(echo.HeaderAuthorization))
				ok = strings.HasPrefix(raw, appliance.MCPKeyPrefix) || strings.HasPrefix(raw, accessTokenPrefix)
			}
			if !ok || raw == "" {
				return unauthorized(msgMissingBearer)
			}
			if family == appliance.KeyKindMCP && strings.HasPrefix(raw, accessTokenPrefix) {
				return s.withOAuthToken(c, raw, scope, next)
			}
			key, err := s.keyFor(c.Request().Context(), raw, family)
			if err != nil {
				return err
			}
			if scope != "" && !key.HasScope(scope) {
				return appliance.Errorf(appliance.EFORBIDDEN, "%s%s", msgInsufficientPerm, scope)
			}
			c.Set(ctxKey, key)
			c.Set(ctxUser, key.UserID)
			return next(c)
		}
	}
}

// withOAuthToken authenticates an OAuth access token on the MCP surfaces.
// A revoked grant is refused at once: nothing is cached.
func (s *Server) withOAuthToken(c echo.Context, raw, scope string, next echo.HandlerFunc) error {
	g, err := s.oauthGrant(c, raw)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return unauthorized(msgInvalidKey)
	} else if err != nil {
		return err
	}
	if scope != "" && !ScopeGranted(g.Scopes, scope) {
		return appliance.Errorf(appliance.EFORBIDDEN, "%s%s", msgInsufficientPerm, scope)
	}
	c.Set(ctxUser, g.UserID)
	return next(c)
}

// ScopeGranted reports whether granted holds scope, reading the API keys'
// "memories:read" and OAuth's "memories.read" as the same scope.
func ScopeGranted(granted []string, scope string) bool {
	want := strings.ReplaceAll(scope, ":", ".")
	for _, g := range granted {
		if strings.ReplaceAll(g, ":", ".") == want {
			return true
		}
	}
	return false
}

// keyFor resolves a raw key of the wanted family to its live record, with
// the reference's 401 messages.
func (s *Server) keyFor(ctx context.Context, raw string, family appliance.KeyKind) (*appliance.Key, error) {
	kind, hash, wellFormed := appliance.ParseKey(raw)
	if kind != "" && kind != family {
		return nil, unauthorized(wrongFamily[family])
	}
	if !wellFormed {
		return nil, unauthorized(msgInvalidKey)
	}
	key, err := s.store.KeyByHash(ctx, hash)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, unauthorized(msgInvalidKey)
	} else if err != nil {
		return nil, err
	}
	// The index lookup already matched; the constant-time compare keeps
	// the decision itself free of timing differences.
	if subtle.ConstantTimeCompare([]byte(key.Hash), []byte(hash)) != 1 || key.RevokedAt != nil || key.Kind != family {
		return nil, unauthorized(msgInvalidKey)
	}
	s.touch.mark(s, key.ID)
	return key, nil
}

// requireIDToken authenticates an ID token from this appliance's identity
// provider and checks that its user still exists.
func (s *Server) requireIDToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		raw, ok := bearer(c)
		if !ok || raw == "" {
			return unauthorized(msgMissingToken)
		}
		switch kind, _, _ := appliance.ParseKey(raw); kind {
		case appliance.KeyKindDev:
			return unauthorized(msgDevKeyUsage + " " + msgNeedsIDToken)
		case appliance.KeyKindMCP:
			return unauthorized(msgMCPKeyUsage + " " + msgNeedsIDToken)
		}
		uid, err := s.tokens.Verify(raw)
		if err != nil {
			s.log.Debug("id token refused", "err", err)
			return unauthorized(msgInvalidToken)
		}
		if _, err := s.store.User(c.Request().Context(), uid); appliance.ErrorCode(err) == appliance.ENOTFOUND {
			return unauthorized(msgInvalidToken)
		} else if err != nil {
			return err
		}
		c.Set(ctxUser, uid)
		return next(c)
	}
}

// limit charges the request to policies; the subject is the key when a key
// authenticated the request, else the user.
func (s *Server) limit(policies ...Policy) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			subject := "user:" + userID(c)
			if k, ok := c.Get(ctxKey).(*appliance.Key); ok {
				subject = "key:" + k.ID
			}
			if d := s.limiter.Allow(subject, policies...); d != nil {
				return rateLimited(c, d)
			}
			return next(c)
		}
	}
}

func userID(c echo.Context) string {
	uid, _ := c.Get(ctxUser).(string)
	return uid
}

// keyToucher records last_used_at at most once a minute per key, off the
// request path, so that reads stay reads.
type keyToucher struct {
	mu   sync.Mutex
	last map[string]time.Time
}

func (t *keyToucher) mark(s *Server, keyID string) {
	now := s.now()
	t.mu.Lock()
	if now.Sub(t.last[keyID]) < time.Minute {
		t.mu.Unlock()
		return
	}
	t.last[keyID] = now
	t.mu.Unlock()
	s.background(func() {
		if err := s.store.TouchKey(s.baseCtx, keyID, now); err != nil {
			s.log.Warn("record key use", "key_id", keyID, "err", err)
		}
	})
}
