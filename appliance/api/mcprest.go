package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/mcp"
)

// The MCP REST twins: plain JSON over the MCP credential (hearth_mcp_ key or
// OAuth access token), in the reference's shapes (reference-facts §3.3).
// Locked items are hidden from assistants: they appear in lists and search
// truncated, and direct access answers 402.

// Rate policies of the twins, per key (reference-facts §3.3).
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

var memorySortNames = []string{"scoring_desc", "created_desc", "updated_desc", "manual_first"}

// GET /v1/mcp/memories → [{id, content, category}]
func (s *Server) mcpListMemories(c echo.Context) error {
	limit, offset, err := queryPage(c, 25, 500)
	if err != nil {
		return err
	}
	f := appliance.MemoryFilter{Limit: limit, Offset: offset, Sort: c.QueryParam("sort")}
	if f.Sort != "" && !slices.Contains(memorySortNames, f.Sort) {
		return errBadRequest("Invalid sort. Expected one of: " + strings.Join(memorySortNames, ", ") + ".")
	}
	for _, name := range strings.Split(c.QueryParam("categories"), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !appliance.ValidMemoryCategory(name) {
			return errBadRequest("Invalid category '" + name + "'")
		}
		f.Categories = append(f.Categories, appliance.NormalizeMemoryCategory(name))
	}
	for name, dst := range map[string]**bool{"reviewed": &f.Reviewed, "manually_added": &f.ManuallyAdded} {
		if c.QueryParams().Has(name) {
			b, err := queryBool(c, name, false)
			if err != nil {
				return err
			}
			*dst = &b
		}
	}
	if f.UpdatedAfter, err = queryTime(c, "updated_after"); err != nil {
		return err
	}
	ms, err := s.store.Memories(c.Request().Context(), userID(c), f)
	if err != nil {
		return err
	}
	out := make([]map[string]any, len(ms))
	for i, m := range ms {
		out[i] = map[string]any{"id": m.ID, "content": assistantContent(m), "category": m.Category}
	}
	return c.JSON(http.StatusOK, out)
}

// assistantContent is a memory's content as assistants see it.
func assistantContent(m *appliance.Memory) string {
	if m.IsLocked {
		return appliance.LockedPreview(m.Content)
	}
	return m.Content
}

// GET /v1/mcp/memories/search?query=&limit=10 (1..20): the search_memories
// tool's results, as a list.
func (s *Server) mcpSearchMemories(c echo.Context) error {
	q, limit, _, _, err := s.mcpSearchArgs(c, 20)
	if err != nil {
		return err
	}
	out, err := mcp.SearchMemories(c.Request().Context(), s.mcpDeps(), userID(c), q, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// mcpSearchArgs reads query, limit (default 10, clamped to 1..max) and the
// yyyy-mm-dd bounds (the end day included).
func (s *Server) mcpSearchArgs(c echo.Context, maxLimit int) (q string, limit int, since, until *time.Time, err error) {
	q = strings.TrimSpace(c.QueryParam("query"))
	if q == "" {
		return "", 0, nil, nil, errUnprocessable("missing", "Field required", "query", "query")
	}
	if limit, _, err = queryPage(c, 10, maxLimit); err != nil {
		return "", 0, nil, nil, err
	}
	if since, err = queryDate(c, "start_date"); err != nil {
		return "", 0, nil, nil, err
	}
	if until, err = queryDate(c, "end_date"); err != nil {
		return "", 0, nil, nil, err
	}
	if until != nil {
		end := until.Add(24*time.Hour - time.Nanosecond)
		until = &end
	}
	return q, limit, since, until, nil
}

// queryDate reads a yyyy-mm-dd bound, with the reference's 400.
func queryDate(c echo.Context, name string) (*time.Time, error) {
	raw := c.QueryParam(name)
	if raw == "" {
		return nil, nil
	}
	t, err := time.Parse(time.DateOnly, raw)
	if err != nil {
		return nil, errBadRequest("Invalid " + name + " format: '" + raw + "'. Expected YYYY-MM-DD.")
	}
	return &t, nil
}

// POST /v1/mcp/memories {content, category?, visibility?, tags?} → the saved memory
func (s *Server) mcpCreateMemory(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	mem := s.parseMemoryInput(newFields(m, v, "body"), userID(c), s.now().UTC())
	if err := v.Err(); err != nil {
		return err
	}
	// As in the reference, the category is assigned by the server.
	mem.Category = appliance.GuessMemoryCategory(mem.Content)
	if err := s.store.CreateMemories(c.Request().Context(), []*appliance.Memory{mem}); err != nil {
		return err
	}
	s.indexer.Notify()
	return c.JSON(http.StatusOK, toMemoryJSON(mem))
}

// assistantMemory loads a memory for an assistant's mutation: 404 when
// missing, 402 when locked.
func (s *Server) assistantMemory(c echo.Context) (*appliance.Memory, error) {
	m, err := s.store.Memory(c.Request().Context(), userID(c), c.Param("id"))
	if err != nil {
		return nil, notFoundAs(err, "Memory not found")
	}
	if m.IsLocked {
		return nil, errLocked("memory")
	}
	return m, nil
}

// PATCH /v1/mcp/memories/{id}?value=... (or body {"content": ...})
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
			content, _ = newFields(m, v, "body").boundedStr("content", true, 500)
			if err := v.Err(); err != nil {
				return err
			}
		}
	}
	if content == "" {
		return errUnprocessable("missing", "Field required", "query", "value")
	}
	if len([]rune(content)) > 500 {
		return errUnprocessable("string_too_long", "String should have at most 500 characters", "query", "value")
	}
	m, err := s.assistantMemory(c)
	if err != nil {
		return err
	}
	m.Content, m.Edited, m.UpdatedAt = content, true, s.now().UTC()
	if err := s.store.UpdateMemory(c.Request().Context(), m); err != nil {
		return err
	}
	s.indexer.Notify()
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// DELETE /v1/mcp/memories/{id}
func (s *Server) mcpDeleteMemory(c echo.Context) error {
	m, err := s.assistantMemory(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteMemory(c.Request().Context(), m.UserID, m.ID); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// mcpConversation is the simple conversation shape of the twins.
func mcpConversation(conv *appliance.Conversation) map[string]any {
	overview := conv.Structured.Overview
	if conv.IsLocked {
		overview = appliance.LockedPreview(overview)
	}
	return map[string]any{"id": conv.ID, "started_at": conv.StartedAt, "finished_at": conv.FinishedAt, "language": conv.Language,
		"structured": map[string]any{"title": conv.Structured.Title, "overview": overview, "category": conv.Structured.Category}}
}

// GET /v1/mcp/conversations (start_date, end_date, categories, limit=100, offset)
func (s *Server) mcpListConversations(c echo.Context) error {
	limit, offset, err := queryPage(c, 100, 1000)
	if err != nil {
		return err
	}
	f := appliance.ConversationFilter{Limit: limit, Offset: offset, IncludeLocked: true,
		Statuses: []appliance.ConversationStatus{appliance.StatusCompleted}}
	if f.StartDate, err = queryTime(c, "start_date"); err != nil {
		return err
	}
	if f.EndDate, err = queryTime(c, "end_date"); err != nil {
		return err
	}
	for _, name := range strings.Split(c.QueryParam("categories"), ",") {
		if cat, ok := appliance.ParseCategory(strings.TrimSpace(name)); ok {
			f.Categories = append(f.Categories, cat)
		}
	}
	cs, err := s.store.Conversations(c.Request().Context(), userID(c), f)
	if err != nil {
		return err
	}
	out := make([]map[string]any, len(cs))
	for i, conv := range cs {
		out[i] = mcpConversation(conv)
	}
	return c.JSON(http.StatusOK, out)
}

// GET /v1/mcp/conversations/search?query=&limit=10&start_date&end_date
func (s *Server) mcpSearchConversations(c echo.Context) error {
	q, limit, since, until, err := s.mcpSearchArgs(c, 100)
	if err != nil {
		return err
	}
	out, err := mcp.SearchConversations(c.Request().Context(), s.mcpDeps(), userID(c), q, since, until, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// GET /v1/mcp/conversations/{id}: the simple shape with the transcript.
func (s *Server) mcpGetConversation(c echo.Context) error {
	ctx, uid := c.Request().Context(), userID(c)
	conv, err := s.store.Conversation(ctx, uid, c.Param("id"))
	if err != nil {
		return notFoundAs(err, "Conversation not found")
	}
	if conv.IsLocked {
		return errLocked("conversation")
	}
	out, err := s.devConversations(ctx, uid, []*appliance.Conversation{conv}, true)
	if err != nil {
		return err
	}
	m := mcpConversation(conv)
	m["transcript_segments"] = out[0].TranscriptSegments
	return c.JSON(http.StatusOK, m)
}

// GET /v1/mcp/action-items (completed, due_start_date, due_end_date, limit 1..500, offset)
func (s *Server) mcpListActionItems(c echo.Context) error {
	return s.renderActionItems(c, "due_start_date", "due_end_date", true)
}

// GET /v1/mcp/action-items/search?query=&limit=10 (1..50)
func (s *Server) mcpSearchActionItems(c echo.Context) error {
	q, limit, _, _, err := s.mcpSearchArgs(c, 50)
	if err != nil {
		return err
	}
	out, err := mcp.SearchActionItems(c.Request().Context(), s.mcpDeps(), userID(c), q, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// POST /v1/mcp/action-items {description, due_at?, completed?}
func (s *Server) mcpCreateActionItem(c echo.Context) error { return s.createActionItem(c) }

// assistantActionItem loads an action item for an assistant's mutation.
func (s *Server) assistantActionItem(c echo.Context) (*appliance.ActionItem, error) {
	a, err := s.store.ActionItem(c.Request().Context(), userID(c), c.Param("id"))
	if err != nil {
		return nil, notFoundAs(err, "Action item not found")
	}
	if a.IsLocked {
		return nil, appliance.Errorf(appliance.ELOCKED, "A paid plan is required to modify this action item.")
	}
	return a, nil
}

// POST /v1/mcp/action-items/{id}/complete
func (s *Server) mcpCompleteActionItem(c echo.Context) error {
	a, err := s.assistantActionItem(c)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	a.Completed, a.CompletedAt, a.UpdatedAt = true, &now, &now
	if err := s.store.UpdateActionItem(c.Request().Context(), a); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toActionItemJSON(a))
}

// PATCH /v1/mcp/action-items/{id}
func (s *Server) mcpPatchActionItem(c echo.Context) error { return s.patchActionItem(c) }

// DELETE /v1/mcp/action-items/{id}
func (s *Server) mcpDeleteActionItem(c echo.Context) error { return s.deleteActionItem(c) }

// GET /v1/mcp/people → [{id, name, created_at, speech_sample_transcripts}]
func (s *Server) mcpPeople(c echo.Context) error {
	ps, err := s.store.Persons(c.Request().Context(), userID(c))
	if err != nil {
		return err
	}
	out := make([]map[string]any, len(ps))
	for i, p := range ps {
		out[i] = map[string]any{"id": p.ID, "name": p.Name, "created_at": p.CreatedAt, "speech_sample_transcripts": []string{}}
	}
	return c.JSON(http.StatusOK, out)
}
