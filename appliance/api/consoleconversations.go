package api

import "github.com/labstack/echo/v4"

// consoleConversationRoutes serves the console's conversations page with
// the developer API's own handlers: the session's principal is the owner.
func (s *Server) consoleConversationRoutes(g *echo.Group) {
	g.GET("/conversations", s.listConversations)
	g.GET("/conversations/:id", s.getConversation)
}
