package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// mcpInfo serves GET /v1/mcp/sse/info: no credential needed, so an owner
// can check reachability and read how to connect; the reference serves the
// same document.
func (s *Server) mcpInfo(c echo.Context) error {
	base := s.public.Base(c.Request())
	return c.JSON(http.StatusOK, map[string]any{
		"endpoint":         "/v1/mcp/sse",
		"transport":        "streamable-http",
		"protocol_version": "2025-03-26",
		"authentication": map[string]any{
			"methods": []string{"oauth2", "api_key"},
			"api_key": map[string]string{"header": "Authorization", "format": "Bearer <api_key>"},
			"oauth2": map[string]any{
				"authorization_endpoint": base + "/oauth/authorize",
				"token_endpoint":         base + "/oauth/token",
				"resource":               base + "/v1/mcp/sse",
				"scopes":                 mcpOAuthScopes,
			},
		},
		"instructions": map[string]string{
			"step1": "Create an MCP API key on the appliance: hearth keys create --data DIR --user UID --kind mcp",
			"step2": "Set Server URL to: " + base + "/v1/mcp/sse",
			"step3": "Set Authorization header to your key",
		},
	})
}

// mcpOAuthScopes are the OAuth scopes of assistant connectors (reference
// names); an API key's colon-style scopes map onto them one to one.
var mcpOAuthScopes = []string{"memories.read", "memories.write", "conversations.read", "action_items.read",
	"action_items.write", "goals.read", "people.read"}
