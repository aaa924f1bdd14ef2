package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
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
	if *from, err = queryTime(c, fromParam); err != nil {
		return err
	}
	if *to, err = queryTime(c, toParam); err != nil {
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

func (s *Server) parseActionItemInput(f fields, uid string, now time.Time) *appliance.ActionItem {
	desc, ok := f.boundedStr("description", true, 500)
	completed, _ := f.bool("completed", false)
	var due *time.Time
	if t, present := f.datetime("due_at"); present {
		due = &t
	}
	if !ok {
		return nil
	}
	a := &appliance.ActionItem{ID: newID(), UserID: uid, Description: desc, Completed: completed, CreatedAt: &now, UpdatedAt: &now, DueAt: due}
	if completed {
		a.CompletedAt = &now
	}
	return a
}

// POST /v1/dev/user/action-items
func (s *Server) createActionItem(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	a := s.parseActionItemInput(newFields(m, v, "body"), userID(c), s.now().UTC())
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.CreateActionItems(c.Request().Context(), []*appliance.ActionItem{a}); err != nil {
		return err
	}
	s.published(appliance.EventActionItemChanged, userID(c))
	return c.JSON(http.StatusOK, view.ActionItemOf(a))
}

// POST /v1/dev/user/action-items/batch (at most 50)
func (s *Server) createActionItemsBatch(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	now, uid := s.now().UTC(), userID(c)
	var items []*appliance.ActionItem
	for _, f := range newFields(m, v, "body").objectList("action_items", 50) {
		if a := s.parseActionItemInput(f, uid, now); a != nil {
			items = append(items, a)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.CreateActionItems(c.Request().Context(), items); err != nil {
		return err
	}
	s.published(appliance.EventActionItemChanged, userID(c))
	out := make([]view.ActionItem, len(items))
	for i, a := range items {
		out[i] = view.ActionItemOf(a)
	}
	return c.JSON(http.StatusOK, map[string]any{"action_items": out, "created_count": len(out)})
}

// PATCH /v1/dev/user/action-items/{id}
func (s *Server) patchActionItem(c echo.Context) error {
	body, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(body, v, "body")
	desc, hasDesc := f.boundedStr("description", false, 500)
	completed, hasCompleted := f.bool("completed", false)
	due, hasDue := f.datetime("due_at")
	if err := v.Err(); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), userID(c)
	a, err := s.store.ActionItem(ctx, uid, c.Param("id"))
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return errNotFound("Action item not found")
	} else if err != nil {
		return err
	}
	if !hasDesc && !hasCompleted && !hasDue {
		return errUnprocessable("value_error", "At least one field must be provided", "body")
	}
	if a.IsLocked {
		return errLocked("action item")
	}
	now := s.now().UTC()
	if hasDesc {
		a.Description = desc
	}
	if hasCompleted {
		a.Completed, a.CompletedAt = completed, nil
		if completed {
			a.CompletedAt = &now
		}
	}
	if hasDue {
		a.DueAt = &due
	}
	a.UpdatedAt = &now
	if err := s.store.UpdateActionItem(ctx, a); err != nil {
		return err
	}
	s.published(appliance.EventActionItemChanged, userID(c))
	return c.JSON(http.StatusOK, view.ActionItemOf(a))
}

// DELETE /v1/dev/user/action-items/{id}
func (s *Server) deleteActionItem(c echo.Context) error {
	ctx, uid, id := c.Request().Context(), userID(c), c.Param("id")
	a, err := s.store.ActionItem(ctx, uid, id)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return errNotFound("Action item not found")
	} else if err != nil {
		return err
	}
	if a.IsLocked {
		return errLocked("action item")
	}
	if err := s.store.DeleteActionItem(ctx, uid, id); err != nil {
		return err
	}
	s.published(appliance.EventActionItemChanged, uid)
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}
