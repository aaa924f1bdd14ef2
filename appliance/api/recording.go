package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
)

// endRecording serves POST /v1/conversations (body {} or empty): the user's
// in-progress conversation is processed now instead of after the silence
// timeout. Force-processing never discards (reference-facts §6.4, §7).
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
	uid := userID(c)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), processTimeout)
	defer cancel()
	conv, err := s.store.InProgressConversation(ctx, uid)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return errNotFound("Conversation in progress not found")
	} else if err != nil {
		return err
	}
	conv.Status = appliance.StatusProcessing
	if err := s.store.SaveConversation(ctx, conv); err != nil {
		return err
	}
	memories, err := s.process(ctx, conv, pipeline.Options{ForceProcess: true})
	if err != nil {
		conv.Status = appliance.StatusFailed
		conv.UpdatedAt = s.now().UTC()
		if serr := s.store.SaveConversation(ctx, conv); serr != nil {
			s.log.Error("mark conversation failed", "conversation_id", conv.ID, "err", serr)
		}
		return err
	}
	if err := s.saveProcessed(ctx, conv, memories); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"conversation": conv, "messages": []any{}})
}
