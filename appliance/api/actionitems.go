package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// GET /v1/dev/user/action-items: conversation_id, completed, start_date and
// end_date (created); locked items are left out.
func (s *Server) listActionItems(c echo.Context) error {
	return s.renderActionItems(c, "start_date", "end_date", false, false)
}

// renderActionItems lists action items with the paging and filters both the
// developer API and the MCP twin take; the two date parameters bound
// created_at, or due_at when due is set. The owner's console lists the
// items of locked conversations too (withLocked).
func (s *Server) renderActionItems(c echo.Context, fromParam, toParam string, due, withLocked bool) error {
	limit, offset, err := queryPage(c, 100, 500)
	if err != nil {
		return err
	}
	f := appliance.ActionItemFilter{Limit: limit, Offset: offset, IncludeLocked: withLocked}
	if cid := c.QueryParam("conversation_id"); cid != "" {
		f.ConversationID = &cid
	}
	if c.QueryParams().Has("completed") {
		b, err := queryBool(c, "completed", false)
		if err != nil {
			return err
		}
		f.Completed = &b
	}
	from, to := &f.StartDate, &f.EndDate
	if due {
		from, to = &f.DueStart, &f.DueEnd
	}
	if *from, err = s.queryTime(c, fromParam); err != nil {
		return err
	}
	if *to, err = s.queryTime(c, toParam); err != nil {
		return err
	}
	items, err := s.store.ActionItems(c.Request().Context(), userID(c), f)
	if err != nil {
		return err
	}
	out := make([]view.ActionItem, len(items))
	for i, a := range items {
		out[i] = view.ActionItemOf(a)
	}
	return c.JSON(http.StatusOK, out)
}

// parseActionItemInput reads one create-action-item object.
func parseActionItemInput(f fields) (records.ActionItemInput, bool) {
	desc, ok := f.boundedStr("description", true, records.MaxText)
	completed, _ := f.bool("completed", false)
	in := records.ActionItemInput{Description: desc, Completed: completed}
	if t, present := f.datetime("due_at"); present {
		in.Due = &t
	}
	return in, ok
}

// POST /v1/dev/user/action-items
func (s *Server) createActionItem(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	in, _ := parseActionItemInput(newFields(m, v, "body"))
	if err := v.Err(); err != nil {
		return err
	}
	items, err := s.records.CreateActionItems(c.Request().Context(), userID(c), []records.ActionItemInput{in})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, items[0])
}

// POST /v1/dev/user/action-items/batch (at most 50)
func (s *Server) createActionItemsBatch(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	var ins []records.ActionItemInput
	for _, f := range newFields(m, v, "body").objectList("action_items", 50) {
		if in, ok := parseActionItemInput(f); ok {
			ins = append(ins, in)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	out, err := s.records.CreateActionItems(c.Request().Context(), userID(c), ins)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"action_items": out, "created_count": len(out)})
}

// PATCH /v1/dev/user/action-items/{id}: an item of a locked conversation
// is refused as a locked item is, and completed_at changes only when the
// state flips (records.UpdateActionItem).
func (s *Server) patchActionItem(c echo.Context) error {
	body, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(body, v, "body")
	var p records.ActionItemPatch
	if desc, ok := f.boundedStr("description", false, records.MaxText); ok {
		p.Description = &desc
	}
	if completed, ok := f.bool("completed", false); ok {
		p.Completed = &completed
	}
	if due, ok := f.datetime("due_at"); ok {
		p.Due = &due
	}
	if err := v.Err(); err != nil {
		return err
	}
	it, err := s.records.UpdateActionItem(c.Request().Context(), userID(c), c.Param("id"), p)
	if errors.Is(err, records.ErrNothingToChange) {
		return errUnprocessable("value_error", "At least one field must be provided", "body")
	} else if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, it)
}

// DELETE /v1/dev/user/action-items/{id}
func (s *Server) deleteActionItem(c echo.Context) error {
	if err := s.records.DeleteActionItem(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}
