package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// searchHit is one console search result: the record's kind and id, its
// scores, and the text to show.
type searchHit struct {
	Kind       string  `json:"kind"`
	ID         string  `json:"id"`
	Score      float64 `json:"score"`
	Similarity float64 `json:"similarity"`
	Text       string  `json:"text"`
	// Locked is whether the item is hidden from assistants (memories and
	// conversations; the console toggles it).
	Locked bool `json:"locked"`
	// Date is when it happened: a conversation's start, else creation.
	Date *time.Time `json:"date,omitempty"`
	// Conversations: the category, and where the words were said (the
	// matching segment, matched words in <mark>, and its start in the
	// recording, seconds); no snippet when found by title or meaning.
	Category string   `json:"category,omitempty"`
	Snippet  string   `json:"snippet,omitempty"`
	Start    *float64 `json:"start,omitempty"`
	Speaker  string   `json:"speaker,omitempty"`
}

var searchKinds = []string{appliance.KindMemory, appliance.KindConversation, appliance.KindActionItem}

// GET /v1/search?q=...&kind=all|memory|conversation|action_item&limit=10
// [&start_date=&end_date=&category=&folder_id=&starred=&person=] (ID
// token): the owner's hybrid search, used by the console. Without a kind
// (or with all) every kind is searched and the hits merged by score. The
// dates bound every kind; category, folder, starred and person are
// conversations' own, and any of them searches conversations alone.
func (s *Server) consoleSearch(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if q == "" {
		return errUnprocessable("missing", "Field required", "query", "q")
	}
	cs := records.ConversationSearch{Query: q, StartDate: c.QueryParam("start_date"), EndDate: c.QueryParam("end_date"),
		Category: c.QueryParam("category"), FolderID: c.QueryParam("folder_id"), Person: c.QueryParam("person")}
	if v := c.QueryParam("starred"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errUnprocessable("bool_parsing", "Input should be a valid boolean", "query", "starred")
		}
		cs.Starred = &b
	}
	kinds := searchKinds
	if cs.Category != "" || cs.FolderID != "" || cs.Person != "" || cs.Starred != nil {
		kinds = []string{appliance.KindConversation}
	}
	if kind := c.QueryParam("kind"); kind != "" && kind != "all" {
		if !slices.Contains(searchKinds, kind) {
			return errUnprocessable("enum", "Input should be 'all', "+quoteList(searchKinds), "query", "kind")
		}
		kinds = []string{kind}
	}
	limit, _, err := queryPage(c, 10, 50)
	if err != nil {
		return err
	}
	if s.searcher == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "search is not available")
	}
	out := []searchHit{}
	for _, kind := range kinds {
		if kind == appliance.KindConversation {
			cs.Limit = limit
			hits, err := s.searchConversations(c, cs)
			if err != nil {
				return err
			}
			out = append(out, hits...)
			continue
		}
		hits, err := s.searchKind(c, kind, q, cs.StartDate, cs.EndDate, limit)
		if err != nil {
			return err
		}
		out = append(out, hits...)
	}
	// Fused scores rank within a kind by the same rule (reciprocal ranks),
	// so they order a merged list well enough for a person to read.
	slices.SortStableFunc(out, func(a, b searchHit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return c.JSON(http.StatusOK, map[string]any{"results": out})
}

// searchConversations runs the conversation search of the records (what
// was said, filters in the store's query; locked ones as in lists).
func (s *Server) searchConversations(c echo.Context, cs records.ConversationSearch) ([]searchHit, error) {
	found, err := s.records.FindConversations(c.Request().Context(), userID(c), cs)
	if err != nil {
		return nil, err
	}
	out := make([]searchHit, 0, len(found))
	for _, f := range found {
		h := searchHit{Kind: appliance.KindConversation, ID: f.Summary.ID, Score: f.Hit.Score, Similarity: f.Hit.Similarity,
			Text: f.Summary.Structured.Title + ": " + f.Summary.Structured.Overview, Locked: f.Locked,
			Date: f.Summary.StartedAt, Category: string(f.Summary.Structured.Category), Snippet: f.Hit.Snippet, Speaker: f.Hit.Speaker}
		if f.Hit.Snippet != "" {
			start := f.Hit.Start
			h.Start = &start
		}
		out = append(out, h)
	}
	return out, nil
}

// searchKind runs one kind's search and loads what to show for each hit.
func (s *Server) searchKind(c echo.Context, kind, q, startDate, endDate string, limit int) ([]searchHit, error) {
	ctx, uid := c.Request().Context(), userID(c)
	loc := s.records.Location(ctx, uid)
	since, err := records.ParseDay("start_date", startDate, loc, false)
	if err != nil {
		return nil, err
	}
	until, err := records.ParseDay("end_date", endDate, loc, true)
	if err != nil {
		return nil, err
	}
	hits, err := s.searcher.Search(ctx, uid, appliance.SearchQuery{Kind: kind, Text: q, Limit: limit, Since: since, Until: until})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ItemID
	}
	texts, locked, dates, err := s.searchTexts(c, kind, uid, ids)
	if err != nil {
		return nil, err
	}
	var out []searchHit
	for _, h := range hits {
		if text, ok := texts[h.ItemID]; ok {
			out = append(out, searchHit{Kind: kind, ID: h.ItemID, Score: h.Score, Similarity: h.Similarity, Text: text, Locked: locked[h.ItemID], Date: dates[h.ItemID]})
		}
	}
	return out, nil
}

// searchTexts loads what to show for each hit and whether it is locked;
// records deleted since they were indexed are left out.
func (s *Server) searchTexts(c echo.Context, kind, uid string, ids []string) (map[string]string, map[string]bool, map[string]*time.Time, error) {
	ctx := c.Request().Context()
	texts, locked, dates := map[string]string{}, map[string]bool{}, map[string]*time.Time{}
	switch kind {
	case appliance.KindMemory:
		ms, err := s.store.MemoriesByID(ctx, uid, ids)
		for id, m := range ms {
			texts[id], locked[id], dates[id] = m.Content, m.IsLocked, &m.CreatedAt
		}
		return texts, locked, dates, err
	case appliance.KindConversation:
		cs, err := s.store.ConversationsByID(ctx, uid, ids)
		for id, conv := range cs {
			texts[id], locked[id], dates[id] = conv.Structured.Title+": "+conv.Structured.Overview, conv.IsLocked, conv.StartedAt
		}
		return texts, locked, dates, err
	default:
		as, err := s.store.ActionItemsByID(ctx, uid, ids)
		for id, a := range as {
			texts[id], locked[id], dates[id] = a.Description, a.IsLocked, a.CreatedAt
		}
		return texts, locked, dates, err
	}
}
