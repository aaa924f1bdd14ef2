package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
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
}

var searchKinds = []string{appliance.KindMemory, appliance.KindConversation, appliance.KindActionItem}

// GET /v1/search?q=...&kind=all|memory|conversation|action_item&limit=10
// (ID token): the owner's hybrid search, used by the console. Without a
// kind (or with all) every kind is searched and the hits merged by score.
func (s *Server) consoleSearch(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if q == "" {
		return errUnprocessable("missing", "Field required", "query", "q")
	}
	kinds := searchKinds
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
		hits, err := s.searchKind(c, kind, q, limit)
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

// searchKind runs one kind's search and loads what to show for each hit.
func (s *Server) searchKind(c echo.Context, kind, q string, limit int) ([]searchHit, error) {
	ctx, uid := c.Request().Context(), userID(c)
	hits, err := s.searcher.Search(ctx, uid, appliance.SearchQuery{Kind: kind, Text: q, Limit: limit})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ItemID
	}
	texts, locked, err := s.searchTexts(c, kind, uid, ids)
	if err != nil {
		return nil, err
	}
	var out []searchHit
	for _, h := range hits {
		if text, ok := texts[h.ItemID]; ok {
			out = append(out, searchHit{Kind: kind, ID: h.ItemID, Score: h.Score, Similarity: h.Similarity, Text: text, Locked: locked[h.ItemID]})
		}
	}
	return out, nil
}

// searchTexts loads what to show for each hit and whether it is locked;
// records deleted since they were indexed are left out.
func (s *Server) searchTexts(c echo.Context, kind, uid string, ids []string) (map[string]string, map[string]bool, error) {
	ctx := c.Request().Context()
	texts, locked := map[string]string{}, map[string]bool{}
	switch kind {
	case appliance.KindMemory:
		ms, err := s.store.MemoriesByID(ctx, uid, ids)
		for id, m := range ms {
			texts[id], locked[id] = m.Content, m.IsLocked
		}
		return texts, locked, err
	case appliance.KindConversation:
		cs, err := s.store.ConversationsByID(ctx, uid, ids)
		for id, conv := range cs {
			texts[id], locked[id] = conv.Structured.Title+": "+conv.Structured.Overview, conv.IsLocked
		}
		return texts, locked, err
	default:
		as, err := s.store.ActionItemsByID(ctx, uid, ids)
		for id, a := range as {
			texts[id], locked[id] = a.Description, a.IsLocked
		}
		return texts, locked, err
	}
}
