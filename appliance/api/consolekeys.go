package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// consoleKeyRoutes serves the keys and assistants page: developer and MCP
// keys (the raw key is in the create reply only), the MCP connection
// card's facts, and the assistants connected by OAuth (revocable).
func (s *Server) consoleKeyRoutes(g *echo.Group) {
	for kind, path := range map[appliance.KeyKind]string{appliance.KeyKindDev: "/keys/dev", appliance.KeyKindMCP: "/keys/mcp"} {
		g.GET(path, s.listKeys(kind))
		g.POST(path, s.createKey(kind))
		g.DELETE(path+"/:id", s.deleteKey(kind))
	}
	g.GET("/mcp", s.mcpInfo)
	g.GET("/oauth/grants", s.consoleOAuthGrants)
	g.DELETE("/oauth/grants/:id", s.consoleRevokeGrant)
}

// grantJSON is one assistant connected by OAuth, as the console lists it.
type grantJSON struct {
	ID         string    `json:"id"`
	ClientID   string    `json:"client_id"`
	ClientName string    `json:"client_name"`
	Scopes     []string  `json:"scopes"`
	CreatedAt  time.Time `json:"created_at"`
}

// GET /console/api/oauth/grants: the signed-in user's live OAuth grants,
// each named after its client.
func (s *Server) consoleOAuthGrants(c echo.Context) error {
	ctx := c.Request().Context()
	gs, err := s.store.OAuthGrants(ctx, userID(c))
	if err != nil {
		return err
	}
	out := []grantJSON{}
	for _, g := range gs {
		if g.RevokedAt != nil {
			continue
		}
		name := g.ClientID
		if client, ok, err := s.oauthClient(ctx, g.ClientID); err != nil {
			return err
		} else if ok {
			name = clientName(client)
		}
		out = append(out, grantJSON{ID: g.ID, ClientID: g.ClientID, ClientName: name, Scopes: g.Scopes, CreatedAt: g.CreatedAt})
	}
	return c.JSON(http.StatusOK, out)
}

// DELETE /console/api/oauth/grants/{id}: 204. Every access and refresh
// token issued under the grant is refused from now on.
func (s *Server) consoleRevokeGrant(c echo.Context) error {
	if err := s.store.RevokeGrant(c.Request().Context(), userID(c), c.Param("id"), s.now().UTC()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
