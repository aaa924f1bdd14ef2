package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/mcp"
)

// mountMCP serves the MCP endpoint at /v1/mcp/sse behind a per-user rate
// limit (policy mcp:sse).
func (s *Server) mountMCP() {
	h := mcp.New(s.mcpDeps())
	s.echo.Any("/v1/mcp/sse", echo.WrapHandler(h), s.mcpRateLimit)
}

// mcpDeps are the MCP server's parts; the REST twins use them too, so that
// both answer from the same code.
func (s *Server) mcpDeps() mcp.Deps {
	return mcp.Deps{
		Store:   s.store,
		Search:  s.searcher,
		Indexer: s.indexer,
		Verify:  s.verifyMCP,
		ResourceMetadataURL: func(r *http.Request) string {
			return baseURL(r) + "/.well-known/oauth-protected-resource/v1/mcp/sse"
		},
		Logger: s.log,
		Now:    s.now,
	}
}

// verifyMCP accepts an MCP key or an OAuth access token. Nothing is cached,
// so a revoked key or grant is refused on its next request.
func (s *Server) verifyMCP(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if strings.HasPrefix(token, accessTokenPrefix) {
		g, err := s.store.TokenGrant(ctx, hashToken(token), "access", s.now().UTC())
		if appliance.ErrorCode(err) == appliance.ENOTFOUND {
			return nil, auth.ErrInvalidToken
		} else if err != nil {
			return nil, err
		}
		return &auth.TokenInfo{UserID: g.UserID, Scopes: g.Scopes}, nil
	}
	key, err := s.keyFor(ctx, token, appliance.KeyKindMCP)
	if code := appliance.ErrorCode(err); code == appliance.EUNAUTHORIZED {
		return nil, auth.ErrInvalidToken
	} else if err != nil {
		return nil, err
	}
	return &auth.TokenInfo{UserID: key.UserID, Scopes: key.Scopes}, nil
}

// mcpRateLimit charges each MCP request to its user. A request whose
// credential does not verify passes through, so the MCP handler answers it
// with its own 401 and challenge.
func (s *Server) mcpRateLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		cred := strings.TrimSpace(c.Request().Header.Get(echo.HeaderAuthorization))
		if len(cred) > 7 && strings.EqualFold(cred[:7], "bearer ") {
			cred = strings.TrimSpace(cred[7:])
		}
		if cred != "" {
			if info, err := s.verifyMCP(c.Request().Context(), cred, c.Request()); err == nil {
				if d := s.limiter.Allow("user:"+info.UserID, PolicyMCPSSE); d != nil {
					return rateLimited(c, d)
				}
			}
		}
		return next(c)
	}
}
