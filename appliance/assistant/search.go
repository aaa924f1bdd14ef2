package assistant

import (
	"context"
	"errors"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// Search limits.
const (
	MaxSearchMemories      = 20
	MaxSearchConversations = 100
	MaxSearchActionItems   = 50
)

var errNoSearch = errors.New("assistant: no searcher configured")

// hits runs one search, with the query checked.
func (s *Service) hits(ctx context.Context, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return nil, appliance.Errorf(appliance.EINVALID, "query is required")
	}
	if s.search == nil {
		return nil, errNoSearch
	}
	return s.search.Search(ctx, userID, q)
}

func hitIDs(hs []appliance.SearchHit) []string {
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ItemID
	}
	return ids
}

// SearchMemories finds up to limit (1..20) memories by meaning, best first,
// with relevance_score. It asks for min(3·limit, 60) hits and drops
// memories the user rejected (user_review false) and locked ones: a locked
// memory is not offered even as a preview in a search.
func (s *Service) SearchMemories(ctx context.Context, userID, query string, limit int) ([]view.Memory, error) {
	limit = min(max(limit, 1), MaxSearchMemories)
	hs, err := s.hits(ctx, userID, appliance.SearchQuery{Kind: appliance.KindMemory, Text: query, Limit: min(3*limit, 60)})
	if err != nil {
		return nil, err
	}
	byID, err := s.store.MemoriesByID(ctx, userID, hitIDs(hs))
	if err != nil {
		return nil, err
	}
	out := []view.Memory{}
	for _, h := range hs {
		m, ok := byID[h.ItemID]
		if !ok || m.IsLocked || (m.UserReview != nil && !*m.UserReview) {
			continue
		}
		j := view.MemoryOf(m)
		j.RelevanceScore = view.Relevance(h)
		if out = append(out, j); len(out) == limit {
			break
		}
	}
	return out, nil
}

// SearchConversations finds up to limit (1..100) completed, kept
// conversations by meaning, started within the days given (the user's time
// zone). Locked ones appear as in lists.
func (s *Service) SearchConversations(ctx context.Context, userID, query, startDate, endDate string, limit int) ([]view.ConversationSummary, error) {
	limit = min(max(limit, 1), MaxSearchConversations)
	loc := s.location(ctx, userID)
	since, err := ParseDay("start_date", startDate, loc, false)
	if err != nil {
		return nil, err
	}
	until, err := ParseDay("end_date", endDate, loc, true)
	if err != nil {
		return nil, err
	}
	hs, err := s.hits(ctx, userID, appliance.SearchQuery{Kind: appliance.KindConversation, Text: query,
		Limit: min(2*limit, 2*MaxSearchConversations), Since: since, Until: until})
	if err != nil {
		return nil, err
	}
	byID, err := s.store.ConversationsByID(ctx, userID, hitIDs(hs))
	if err != nil {
		return nil, err
	}
	out := []view.ConversationSummary{}
	for _, h := range hs {
		c, ok := byID[h.ItemID]
		if !ok || c.Discarded || c.Deleted || c.Status != appliance.StatusCompleted {
			continue
		}
		sum := view.SummaryOf(c)
		sum.RelevanceScore = view.Relevance(h)
		if out = append(out, sum); len(out) == limit {
			break
		}
	}
	return out, nil
}

// SearchActionItems finds up to limit (1..50) action items by meaning.
// Locked ones, and those of locked conversations, are left out, as in
// lists.
func (s *Service) SearchActionItems(ctx context.Context, userID, query string, limit int) ([]view.ActionItem, error) {
	limit = min(max(limit, 1), MaxSearchActionItems)
	hs, err := s.hits(ctx, userID, appliance.SearchQuery{Kind: appliance.KindActionItem, Text: query, Limit: min(2*limit, 100)})
	if err != nil {
		return nil, err
	}
	byID, err := s.store.ActionItemsByID(ctx, userID, hitIDs(hs))
	if err != nil {
		return nil, err
	}
	all := make([]*appliance.ActionItem, 0, len(byID))
	for _, it := range byID {
		all = append(all, it)
	}
	if err := s.inheritLocks(ctx, userID, all); err != nil {
		return nil, err
	}
	out := []view.ActionItem{}
	for _, h := range hs {
		a, ok := byID[h.ItemID]
		if !ok || a.IsLocked {
			continue
		}
		j := view.ActionItemOf(a)
		j.RelevanceScore = view.Relevance(h)
		if out = append(out, j); len(out) == limit {
			break
		}
	}
	return out, nil
}
