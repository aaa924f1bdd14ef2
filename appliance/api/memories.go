package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// GET /v1/dev/user/memories
func (s *Server) listMemories(c echo.Context) error {
	limit, offset, err := queryPage(c, 25, 500)
	if err != nil {
		return err
	}
	return s.renderMemories(c, appliance.MemoryFilter{Limit: limit, Offset: offset}, false)
}

// renderMemories lists memories with f and the ?categories the request
// names; whole shows locked memories unredacted (the owner's console).
func (s *Server) renderMemories(c echo.Context, f appliance.MemoryFilter, whole bool) error {
	var err error
	if f.Categories, err = memoryCategories(c); err != nil {
		return err
	}
	ms, err := s.store.Memories(c.Request().Context(), userID(c), f)
	if err != nil {
		return err
	}
	out := make([]view.Memory, len(ms))
	for i, m := range ms {
		out[i] = view.MemoryOf(m)
		if whole {
			out[i].Content = m.Content
		}
	}
	return c.JSON(http.StatusOK, out)
}

// memoryCategories reads ?categories=a,b of memory lists.
func memoryCategories(c echo.Context) ([]string, error) {
	var out []string
	for _, name := range strings.Split(c.QueryParam("categories"), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !appliance.ValidMemoryCategory(name) {
			return nil, errBadRequest("Invalid category '" + name + "' is not a valid MemoryCategory")
		}
		out = append(out, appliance.NormalizeMemoryCategory(name))
	}
	return out, nil
}

// parseMemoryInput reads one create-memory object.
func parseMemoryInput(f fields) (records.MemoryInput, bool) {
	content, ok := f.boundedStr("content", true, records.MaxText)
	category, _ := f.enum("category", appliance.MemoryCategoriesIn)
	visibility := appliance.VisibilityPrivate
	if v, present := f.enum("visibility", []string{"private", "public"}); present {
		visibility = appliance.Visibility(v)
	}
	tags, _ := f.stringList("tags")
	return records.MemoryInput{Content: content, Category: category, Visibility: visibility, Tags: tags}, ok
}

// POST /v1/dev/user/memories
func (s *Server) createMemory(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	in, _ := parseMemoryInput(newFields(m, v, "body"))
	if err := v.Err(); err != nil {
		return err
	}
	ms, err := s.records.CreateMemories(c.Request().Context(), userID(c), []records.MemoryInput{in})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ms[0])
}

// POST /v1/dev/user/memories/batch (at most 25)
func (s *Server) createMemoriesBatch(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	var ins []records.MemoryInput
	for _, item := range newFields(m, v, "body").objectList("memories", 25) {
		if in, ok := parseMemoryInput(item); ok {
			ins = append(ins, in)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	out, err := s.records.CreateMemories(c.Request().Context(), userID(c), ins)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"memories": out, "created_count": len(out)})
}

// PATCH /v1/dev/user/memories/{id}
func (s *Server) patchMemory(c echo.Context) error {
	body, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(body, v, "body")
	var p records.MemoryPatch
	if content, ok := f.boundedStr("content", false, records.MaxText); ok {
		p.Content = &content
	}
	if category, ok := f.enum("category", appliance.MemoryCategoriesIn); ok {
		p.Category = &category
	}
	if tags, ok := f.stringList("tags"); ok {
		p.Tags = &tags
	}
	if visibility, ok := f.str("visibility", false); ok {
		p.Visibility = &visibility
	}
	if err := v.Err(); err != nil {
		return err
	}
	mem, err := s.records.UpdateMemory(c.Request().Context(), userID(c), c.Param("id"), p)
	switch {
	case errors.Is(err, records.ErrNothingToChange):
		return errUnprocessable("value_error", "At least one field (content, visibility, tags, or category) must be provided", "body")
	case errors.Is(err, records.ErrVisibility):
		return errUnprocessable("value_error", "visibility must be 'public' or 'private'", "body", "visibility")
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, mem)
}

// DELETE /v1/dev/user/memories/{id}
func (s *Server) deleteMemory(c echo.Context) error {
	if err := s.records.DeleteMemory(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}
