package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// endRecording serves POST /v1/conversations (body {} or empty): the user's
// in-progress conversation is processed now instead of after the silence
// timeout. An ended recording is never discarded.
func (s *Server) endRecording(c echo.Context) error {
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	if len(body) > 0 {
		if _, err := decodeJSONObject(body); err != nil {
			return err
		}
	}
	conv, err := s.conv.EndRecording(c.Request().Context(), userID(c))
	if err != nil {
		return err
	}
	conv.AudioFiles = s.audioFilesOf(userID(c), conv.ID)
	return c.JSON(http.StatusOK, map[string]any{"conversation": conv, "messages": []any{}})
}
