package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
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

// parseMemoryInput reads one create-memory object.
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

func (s *Server) parseMemoryInput(f fields, uid string, now time.Time) *appliance.Memory {
	content, ok := f.boundedStr("content", true, 500)
	category, hasCategory := f.enum("category", appliance.MemoryCategoriesIn)
	visibility := string(appliance.VisibilityPrivate)
	if v, present := f.enum("visibility", []string{"private", "public"}); present {
		visibility = v
	}
	tags, _ := f.stringList("tags")
	if !ok {
		return nil
	}
	if hasCategory {
		category = appliance.NormalizeMemoryCategory(category)
	} else {
		category = appliance.GuessMemoryCategory(content)
	}
	yes := true
	return &appliance.Memory{ID: newID(), UserID: uid, Content: content, Category: category, Tags: tags,
		Visibility: appliance.Visibility(visibility), CreatedAt: now, UpdatedAt: now,
		ManuallyAdded: true, Reviewed: true, UserReview: &yes}
}

// POST /v1/dev/user/memories
func (s *Server) createMemory(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	mem := s.parseMemoryInput(newFields(m, v, "body"), userID(c), s.now().UTC())
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.CreateMemories(c.Request().Context(), []*appliance.Memory{mem}); err != nil {
		return err
	}
	s.published(appliance.EventMemoryCreated, mem.UserID, mem)
	return c.JSON(http.StatusOK, view.MemoryOf(mem))
}

// POST /v1/dev/user/memories/batch (at most 25)
func (s *Server) createMemoriesBatch(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	now, uid := s.now().UTC(), userID(c)
	var ms []*appliance.Memory
	for _, item := range newFields(m, v, "body").objectList("memories", 25) {
		if mem := s.parseMemoryInput(item, uid, now); mem != nil {
			ms = append(ms, mem)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.CreateMemories(c.Request().Context(), ms); err != nil {
		return err
	}
	s.published(appliance.EventMemoryCreated, userID(c), ms...)
	out := make([]view.Memory, len(ms))
	for i, mem := range ms {
		out[i] = view.MemoryOf(mem)
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
	content, hasContent := f.boundedStr("content", false, 500)
	category, hasCategory := f.enum("category", appliance.MemoryCategoriesIn)
	tags, hasTags := f.stringList("tags")
	visibility, hasVisibility := f.str("visibility", false)
	if err := v.Err(); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), userID(c)
	mem, err := s.store.Memory(ctx, uid, c.Param("id"))
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return errNotFound("Memory not found")
	} else if err != nil {
		return err
	}
	if !hasContent && !hasCategory && !hasTags && !hasVisibility {
		return errUnprocessable("value_error", "At least one field (content, visibility, tags, or category) must be provided", "body")
	}
	if mem.IsLocked {
		return errLocked("memory")
	}
	if hasVisibility && visibility != "public" && visibility != "private" {
		return errUnprocessable("value_error", "visibility must be 'public' or 'private'", "body", "visibility")
	}
	if hasContent {
		mem.Content, mem.Edited = content, true
	}
	if hasCategory {
		mem.Category = appliance.NormalizeMemoryCategory(category)
	}
	if hasTags {
		mem.Tags = tags
	}
	if hasVisibility {
		mem.Visibility = appliance.Visibility(visibility)
	}
	mem.UpdatedAt = s.now().UTC()
	if err := s.store.UpdateMemory(ctx, mem); err != nil {
		return err
	}
	s.published(appliance.EventMemoryChanged, mem.UserID, mem)
	return c.JSON(http.StatusOK, view.MemoryOf(mem))
}

// DELETE /v1/dev/user/memories/{id}
func (s *Server) deleteMemory(c echo.Context) error {
	ctx, uid, id := c.Request().Context(), userID(c), c.Param("id")
	mem, err := s.store.Memory(ctx, uid, id)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return errNotFound("Memory not found")
	} else if err != nil {
		return err
	}
	if mem.IsLocked {
		return errLocked("memory")
	}
	if err := s.store.DeleteMemory(ctx, uid, id); err != nil {
		return err
	}
	s.published(appliance.EventMemoryChanged, uid)
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}
