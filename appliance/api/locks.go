package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// On an appliance, "locked" means hidden from assistants: MCP answers
// -32002 for the item and shows it truncated in lists. These endpoints are
// how the owner sets and clears the lock; they work on locked items, which
// every other mutation refuses with 402.

// readLocked reads {"locked": bool}.
func (s *Server) readLocked(c echo.Context) (bool, error) {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return false, err
	}
	v := &appliance.ValidationError{}
	locked, ok := newFields(m, v, "body").bool("locked", true)
	if err := v.Err(); err != nil {
		return false, err
	}
	return locked && ok, nil
}

// PUT /v1/dev/user/conversations/{id}/locked {locked: bool}
func (s *Server) lockConversation(c echo.Context) error {
	locked, err := s.readLocked(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	if err := s.conv.Lock(c.Request().Context(), userID(c), id, locked); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": id, "locked": locked})
}

// PUT /v1/dev/user/memories/{id}/locked {locked: bool}
func (s *Server) lockMemory(c echo.Context) error {
	locked, err := s.readLocked(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	if err := s.records.LockMemory(c.Request().Context(), userID(c), id, locked); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": id, "locked": locked})
}
