package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// The MCP REST twins: plain JSON over the MCP credential (hearth_mcp_ key or
// OAuth access token). Each twin parses its query or body into the same
// request its MCP tool makes, calls the same records.Service method, and
// projects the result to its own, narrower shape (appliance/view). Locks,
// dates in the user's time zone and filters therefore mean the same on both.

// Rate policies of the twins, per key.
var (
	PolicyMCPRead          = Policy{"mcp:read", 300, time.Hour}
	PolicyMCPMemoriesRead  = Policy{"mcp:memories_read", 120, time.Hour}
	PolicyMCPMemoriesWrite = Policy{"mcp:memories_write", 120, time.Hour}
	PolicyMCPMemoryCreate  = Policy{"memories:create", 60, time.Hour}
	PolicyMCPSSE           = Policy{"mcp:sse", 2000, time.Hour}
)

func (s *Server) mcpRoutes() {
	g := s.echo.Group("/v1/mcp")
	memRead, memWrite := s.requireMCPKey(appliance.ScopeMemoriesRead), s.requireMCPKey(appliance.ScopeMemoriesWrite)
	convRead := s.requireMCPKey(appliance.ScopeConversationsRead)
	aiRead, aiWrite := s.requireMCPKey(appliance.ScopeActionItemsRead), s.requireMCPKey(appliance.ScopeActionItemsWrite)
	read := s.limit(PolicyMCPRead)
	g.GET("/memories", s.mcpListMemories, memRead, s.limit(PolicyMCPMemoriesRead))
	g.GET("/memories/search", s.mcpSearchMemories, memRead, s.limit(PolicyMCPMemoriesRead))
	g.POST("/memories", s.mcpCreateMemory, memWrite, s.limit(PolicyMCPMemoryCreate, PolicyMCPMemoriesWrite))
	g.PATCH("/memories/:id", s.mcpEditMemory, memWrite, s.limit(PolicyMCPMemoriesWrite))
	g.DELETE("/memories/:id", s.mcpDeleteMemory, memWrite, s.limit(PolicyMCPMemoriesWrite))
	g.GET("/conversations", s.mcpListConversations, convRead, read)
	g.GET("/conversations/search", s.mcpSearchConversations, convRead, read)
	g.GET("/conversations/:id", s.mcpGetConversation, convRead, read)
	g.GET("/action-items", s.mcpListActionItems, aiRead, read)
	g.GET("/action-items/search", s.mcpSearchActionItems, aiRead, read)
	g.POST("/action-items", s.mcpCreateActionItem, aiWrite, read)
	g.POST("/action-items/:id/complete", s.mcpCompleteActionItem, aiWrite, read)
	g.PATCH("/action-items/:id", s.mcpPatchActionItem, aiWrite, read)
	g.DELETE("/action-items/:id", s.mcpDeleteActionItem, aiWrite, read)
	g.GET("/people", s.mcpPeople, s.requireMCPKey(""), read)
}

// GET /v1/mcp/memories → [{id, content, category}] (get_memories)
func (s *Server) mcpListMemories(c echo.Context) error {
	limit, offset, err := queryPage(c, 25, 500)
	if err != nil {
		return err
	}
	q := records.MemoryQuery{Limit: limit, Offset: offset, Sort: c.QueryParam("sort"), UpdatedAfter: c.QueryParam("updated_after")}
	if !appliance.ValidMemorySort(q.Sort) {
		return errBadRequest("Invalid sort. Expected one of: " + strings.Join(appliance.MemorySorts, ", ") + ".")
	}
	for _, name := range strings.Split(c.QueryParam("categories"), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !appliance.ValidMemoryCategory(name) {
			return errBadRequest("Invalid category '" + name + "'")
		}
		q.Categories = append(q.Categories, name)
	}
	for name, dst := range map[string]**bool{"reviewed": &q.Reviewed, "manually_added": &q.ManuallyAdded} {
		if c.QueryParams().Has(name) {
			b, err := queryBool(c, name, false)
			if err != nil {
				return err
			}
			*dst = &b
		}
	}
	ms, err := s.records.Memories(c.Request().Context(), userID(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(ms, view.BriefOf))
}

// GET /v1/mcp/memories/search?query=&limit=10 (1..20) → [{id, content,
// category, relevance_score}] (search_memories)
func (s *Server) mcpSearchMemories(c echo.Context) error {
	q, limit, err := searchArgs(c, records.MaxSearchMemories)
	if err != nil {
		return err
	}
	ms, err := s.records.SearchMemories(c.Request().Context(), userID(c), q, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(ms, view.BriefOf))
}

// searchArgs reads query (422 when missing) and limit (default 10, clamped
// to 1..max, as the reference's twins do).
func searchArgs(c echo.Context, maxLimit int) (string, int, error) {
	q := strings.TrimSpace(c.QueryParam("query"))
	if q == "" {
		return "", 0, errUnprocessable("missing", "Field required", "query", "query")
	}
	limit, _, err := queryPage(c, 10, maxLimit)
	return q, limit, err
}

// POST /v1/mcp/memories {content, category?, visibility?, tags?} → the
// saved memory (create_memory; the category is the server's choice).
func (s *Server) mcpCreateMemory(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	content, _ := f.boundedStr("content", true, records.MaxText)
	f.enum("category", appliance.MemoryCategoriesIn) // accepted, and ignored
	visibility := appliance.VisibilityPrivate
	if vis, ok := f.enum("visibility", []string{"private", "public"}); ok {
		visibility = appliance.Visibility(vis)
	}
	tags, _ := f.stringList("tags")
	if err := v.Err(); err != nil {
		return err
	}
	mem, err := s.records.CreateMemory(c.Request().Context(), userID(c), records.MemoryInput{Content: content, Visibility: visibility, Tags: tags})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mem)
}

// PATCH /v1/mcp/memories/{id}?value=... (or body {"content": ...}) (edit_memory)
func (s *Server) mcpEditMemory(c echo.Context) error {
	content := strings.TrimSpace(c.QueryParam("value"))
	if content == "" {
		body, err := readBody(c, s.cfg.MaxBodyBytes)
		if err != nil {
			return err
		}
		if len(body) > 0 {
			m, err := decodeJSONObject(body)
			if err != nil {
				return err
			}
			v := &appliance.ValidationError{}
			content, _ = newFields(m, v, "body").boundedStr("content", true, records.MaxText)
			if err := v.Err(); err != nil {
				return err
			}
		}
	}
	if content == "" {
		return errUnprocessable("missing", "Field required", "query", "value")
	}
	if len([]rune(content)) > records.MaxText {
		return errUnprocessable("string_too_long", "String should have at most "+itoa(records.MaxText)+" characters", "query", "value")
	}
	if err := s.records.EditMemory(c.Request().Context(), userID(c), c.Param("id"), content); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// DELETE /v1/mcp/memories/{id} (delete_memory)
func (s *Server) mcpDeleteMemory(c echo.Context) error {
	if err := s.records.DeleteMemory(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// GET /v1/mcp/conversations (start_date, end_date, categories, limit=100,
// offset) (get_conversations)
func (s *Server) mcpListConversations(c echo.Context) error {
	limit, offset, err := queryPage(c, 100, 1000)
	if err != nil {
		return err
	}
	q := records.ConversationQuery{Limit: limit, Offset: offset, StartDate: c.QueryParam("start_date"), EndDate: c.QueryParam("end_date")}
	for _, name := range strings.Split(c.QueryParam("categories"), ",") {
		if name = strings.TrimSpace(name); name != "" {
			q.Categories = append(q.Categories, name)
		}
	}
	cs, err := s.records.Conversations(c.Request().Context(), userID(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(cs, view.BriefOfSummary))
}

// GET /v1/mcp/conversations/search?query=&limit=10&start_date&end_date
// (search_conversations)
func (s *Server) mcpSearchConversations(c echo.Context) error {
	q, limit, err := searchArgs(c, records.MaxSearchConversations)
	if err != nil {
		return err
	}
	cs, err := s.records.SearchConversations(c.Request().Context(), userID(c), q, c.QueryParam("start_date"), c.QueryParam("end_date"), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(cs, view.BriefOfSummary))
}

// GET /v1/mcp/conversations/{id}: the brief shape with the transcript
// (get_conversation_by_id).
func (s *Server) mcpGetConversation(c echo.Context) error {
	d, err := s.records.Conversation(c.Request().Context(), userID(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, view.BriefOfDetail(*d))
}

// GET /v1/mcp/action-items (completed, due_start_date, due_end_date, limit
// 1..500, offset) (get_action_items)
func (s *Server) mcpListActionItems(c echo.Context) error {
	limit, offset, err := queryPage(c, 100, 500)
	if err != nil {
		return err
	}
	q := records.ActionItemQuery{Limit: limit, Offset: offset,
		DueStartDate: c.QueryParam("due_start_date"), DueEndDate: c.QueryParam("due_end_date")}
	if c.QueryParams().Has("completed") {
		b, err := queryBool(c, "completed", false)
		if err != nil {
			return err
		}
		q.Completed = &b
	}
	items, err := s.records.ActionItems(c.Request().Context(), userID(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, items)
}

// GET /v1/mcp/action-items/search?query=&limit=10 (1..50) (search_action_items)
func (s *Server) mcpSearchActionItems(c echo.Context) error {
	q, limit, err := searchArgs(c, records.MaxSearchActionItems)
	if err != nil {
		return err
	}
	items, err := s.records.SearchActionItems(c.Request().Context(), userID(c), q, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, items)
}

// POST /v1/mcp/action-items {description, due_at?, completed?} (create_action_item)
func (s *Server) mcpCreateActionItem(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	desc, _ := f.boundedStr("description", true, records.MaxText)
	completed, _ := f.bool("completed", false)
	due := f.isoString("due_at")
	if err := v.Err(); err != nil {
		return err
	}
	it, err := s.records.CreateActionItem(c.Request().Context(), userID(c), records.ActionItemInput{Description: desc, DueAt: due, Completed: completed})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, it)
}

// POST /v1/mcp/action-items/{id}/complete (complete_action_item)
func (s *Server) mcpCompleteActionItem(c echo.Context) error {
	it, err := s.records.CompleteActionItem(c.Request().Context(), userID(c), c.Param("id"), true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, it)
}

// PATCH /v1/mcp/action-items/{id} {description?, due_at?, completed?} (update_action_item)
func (s *Server) mcpPatchActionItem(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	var p records.ActionItemPatch
	if d, ok := f.boundedStr("description", false, records.MaxText); ok {
		p.Description = &d
	}
	if b, ok := f.bool("completed", false); ok {
		p.Completed = &b
	}
	if due := f.isoString("due_at"); due != "" {
		p.DueAt = &due
	}
	if err := v.Err(); err != nil {
		return err
	}
	if p.Description == nil && p.Completed == nil && p.DueAt == nil {
		return errUnprocessable("value_error", "At least one field must be provided", "body")
	}
	it, err := s.records.UpdateActionItem(c.Request().Context(), userID(c), c.Param("id"), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, it)
}

// DELETE /v1/mcp/action-items/{id} (delete_action_item)
func (s *Server) mcpDeleteActionItem(c echo.Context) error {
	if err := s.records.DeleteActionItem(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}

// GET /v1/mcp/people → [{id, name, created_at, speech_sample_transcripts}] (get_people)
func (s *Server) mcpPeople(c echo.Context) error {
	ps, err := s.records.People(c.Request().Context(), userID(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ps)
}

// mapSlice projects every element.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
