package api

import (
	"context"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/hearth-appliance/hearth/appliance"
)

// mountMCP serves the MCP endpoint (built in cmd, passed in Deps.MCP) at
// each of mcpPaths; both transports answer on each. The credential is checked here, once per request, and the
// request is charged to its user's mcp:sse budget; the MCP handler reads
// the principal from the request's context (MCPTokenInfo).
func (s *Server) mountMCP() {
	if s.mcp == nil {
		return
	}
	for _, path := range mcpPaths {
		s.echo.Any(path, echo.WrapHandler(s.mcp), s.mcpAuth)
	}
}

// mcpAuth authenticates an MCP key or OAuth access token and rate-limits
// per user. A request without a valid credential passes through without a
// principal, so that the MCP handler answers it with its own 401 and
// challenge, in the reference's words.
func (s *Server) mcpAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, err := s.principal(c, mcpSurface)
		switch {
		case appliance.ErrorCode(err) == appliance.EUNAUTHORIZED:
			return next(c)
		case err != nil:
			return err
		}
		setPrincipal(c, p)
		if d := s.limiter.Allow("user:"+p.UserID, PolicyMCPSSE); d != nil {
			return rateLimited(c, d)
		}
		return next(c)
	}
}

// MCPTokenInfo is the MCP handler's credential check (mcp.Deps.Verify): the
// principal this router already authenticated for the request, so a
// credential is verified once. Without one it refuses.
func MCPTokenInfo(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
	p, ok := appliance.PrincipalFromContext(r.Context())
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: p.UserID, Scopes: p.Scopes}, nil
}

// mcpPaths are the paths the MCP endpoint answers on: /v1/mcp/sse, the
// reference's, and /v1/mcp and /mcp, where clients that assume the usual
// path (the MCP Inspector's --transport http) look for it.
var mcpPaths = []string{"/v1/mcp/sse", "/v1/mcp", "/mcp"}

// MCPResourceMetadata is the OAuth protected-resource metadata address
// named in the MCP endpoint's 401 challenge (mcp.Deps.ResourceMetadataURL):
// the one for the path asked, since an OAuth client checks that the
// metadata's resource is the URL it was given (RFC 9728, section 3.3).
func (p *PublicURL) MCPResourceMetadata(r *http.Request) string {
	path := mcpPaths[0]
	if slices.Contains(mcpPaths, r.URL.Path) {
		path = r.URL.Path
	}
	return p.Base(r) + protectedResourcePrefix + path
}
