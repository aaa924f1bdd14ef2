package api

import (
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// consoleKeyRoutes serves the keys and assistants page: developer and MCP
// keys (the raw key is in the create reply only), and the MCP connection
// card's facts.
func (s *Server) consoleKeyRoutes(g *echo.Group) {
	for kind, path := range map[appliance.KeyKind]string{appliance.KeyKindDev: "/keys/dev", appliance.KeyKindMCP: "/keys/mcp"} {
		g.GET(path, s.listKeys(kind))
		g.POST(path, s.createKey(kind))
		g.DELETE(path+"/:id", s.deleteKey(kind))
	}
	g.GET("/mcp", s.mcpInfo)
}
