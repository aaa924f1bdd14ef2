package api

import (
	"context"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// ctxPrincipal is the echo context key of the authenticated principal.
const ctxPrincipal = "hearth.principal"

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

// Authenticator is the one credential check (appliance/authn).
type Authenticator interface {
	Authenticate(ctx context.Context, credential string) (appliance.Principal, error)
}

// surface is a family of routes and the credentials it takes, with the
// reference's 401 messages for everything else.
type surface struct {
	accepts   []appliance.PrincipalKind
	allowBare bool   // MCP clients may send a key without "Bearer "
	missing   string // no credential
	invalid   string // a credential of an accepted family that does not authenticate
	// wrongFamily answers a credential of another family by what it
	// does authenticate; a family not named here gets invalid.
	wrongFamily map[appliance.PrincipalKind]string
}

var (
	devSurface = surface{
		accepts: []appliance.PrincipalKind{appliance.PrincipalDev},
		missing: msgMissingBearer, invalid: msgInvalidKey,
		wrongFamily: map[appliance.PrincipalKind]string{appliance.PrincipalMCP: msgMCPKeyOnDev},
	}
	mcpSurface = surface{
		accepts:   []appliance.PrincipalKind{appliance.PrincipalMCP, appliance.PrincipalOAuth},
		allowBare: true, missing: msgMissingBearer, invalid: msgInvalidKey,
		wrongFamily: map[appliance.PrincipalKind]string{
			appliance.PrincipalDev: msgDevKeyUsage + " This endpoint requires an MCP API key (hearth keys create --kind mcp).",
		},
	}
	idTokenSurface = surface{
		accepts: []appliance.PrincipalKind{appliance.PrincipalIDToken},
		missing: msgMissingToken, invalid: msgInvalidToken,
		wrongFamily: map[appliance.PrincipalKind]string{
			appliance.PrincipalDev:   msgDevKeyUsage + " " + msgNeedsIDToken,
			appliance.PrincipalMCP:   msgMCPKeyUsage + " " + msgNeedsIDToken,
			appliance.PrincipalOAuth: msgInvalidToken,
		},
	}
)

// principal authenticates the request's credential for a surface. A
// credential of another family is refused by its prefix alone, before any
// lookup.
func (s *Server) principal(c echo.Context, sf surface) (appliance.Principal, error) {
	raw, ok := appliance.ParseAuthorization(c.Request().Header.Get(echo.HeaderAuthorization), sf.allowBare)
	if !ok {
		return appliance.Principal{}, unauthorized(sf.missing)
	}
	if kind := appliance.CredentialKind(raw); !slices.Contains(sf.accepts, kind) {
		if msg, ok := sf.wrongFamily[kind]; ok {
			return appliance.Principal{}, unauthorized(msg)
		}
		return appliance.Principal{}, unauthorized(sf.invalid)
	}
	p, err := s.auth.Authenticate(c.Request().Context(), raw)
	if appliance.ErrorCode(err) == appliance.EUNAUTHORIZED {
		return appliance.Principal{}, unauthorized(sf.invalid)
	}
	return p, err
}

// require authenticates a surface's credential and checks scope; the
// principal is then in the echo context and the request's context.
func (s *Server) require(sf surface, scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p, err := s.principal(c, sf)
			if err != nil {
				return err
			}
			if !p.Can(scope) {
				return appliance.Errorf(appliance.EFORBIDDEN, "%s%s", msgInsufficientPerm, scope)
			}
			setPrincipal(c, p)
			return next(c)
		}
	}
}

// requireDevKey authenticates a developer key and checks scope.
func (s *Server) requireDevKey(scope string) echo.MiddlewareFunc { return s.require(devSurface, scope) }

// requireMCPKey authenticates an MCP key or an OAuth access token (the MCP
// REST twins) and checks scope.
func (s *Server) requireMCPKey(scope string) echo.MiddlewareFunc { return s.require(mcpSurface, scope) }

// requireIDToken authenticates an ID token from this appliance's identity
// provider whose user still exists.
func (s *Server) requireIDToken(next echo.HandlerFunc) echo.HandlerFunc {
	return s.require(idTokenSurface, "")(next)
}

func setPrincipal(c echo.Context, p appliance.Principal) {
	c.Set(ctxPrincipal, p)
	c.SetRequest(c.Request().WithContext(appliance.NewContextWithPrincipal(c.Request().Context(), p)))
}

// limit charges the request to policies, counted per key when a key
// authenticated it and per user otherwise. It runs after authentication.
func (s *Server) limit(policies ...Policy) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if d := s.limiter.Allow(rateSubject(c), policies...); d != nil {
				return rateLimited(c, d)
			}
			return next(c)
		}
	}
}

func rateSubject(c echo.Context) string {
	p, _ := c.Get(ctxPrincipal).(appliance.Principal)
	if (p.Kind == appliance.PrincipalDev || p.Kind == appliance.PrincipalMCP) && p.CredentialID != "" {
		return "key:" + p.CredentialID
	}
	return "user:" + p.UserID
}

func userID(c echo.Context) string {
	p, _ := c.Get(ctxPrincipal).(appliance.Principal)
	return p.UserID
}
