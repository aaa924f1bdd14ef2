package mcp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Search limits (reference-facts §3.2).
const (
	MaxSearchMemories      = 20
	MaxSearchConversations = 100
	MaxSearchActionItems   = 50
)

var errNoSearch = errors.New("mcp: no searcher configured")

// hits runs one search, with the query checked as the reference does.
func hits(ctx context.Context, d *Deps, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return nil, appliance.Errorf(appliance.EINVALID, "query is required")
	}
	if d.Search == nil {
		return nil, errNoSearch
	}
	return d.Search.Search(ctx, userID, q)
}

func hitIDs(hs []appliance.SearchHit) []string {
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ItemID
	}
	return ids
}

// SearchMemories finds up to limit (1..20) memories by meaning, best first,
// with relevance_score. As the reference does, it asks for min(3·limit, 60)
// hits and drops memories the user rejected (user_review == false) and
// locked ones: a locked memory is not offered even as a preview here,
// which is the reference's search_memories behaviour (§3.2), while lists
// show a preview.
func SearchMemories(ctx context.Context, d Deps, userID, query string, limit int) ([]Memory, error) {
	limit = min(max(limit, 1), MaxSearchMemories)
	hs, err := hits(ctx, &d, userID, appliance.SearchQuery{Kind: appliance.KindMemory, Text: query, Limit: min(3*limit, 60)})
	if err != nil {
		return nil, err
	}
	byID, err := d.Store.MemoriesByID(ctx, userID, hitIDs(hs))
	if err != nil {
		return nil, err
	}
	out := []Memory{}
	for _, h := range hs {
		m, ok := byID[h.ItemID]
		if !ok || m.IsLocked || (m.UserReview != nil && !*m.UserReview) {
			continue
		}
		j := MemoryJSON(m)
		j.RelevanceScore = relevance(h)
		if out = append(out, j); len(out) == limit {
			break
		}
	}
	return out, nil
}

// SearchConversations finds up to limit (1..100) completed, kept
// conversations by meaning, started within [since, until] when given.
// Locked ones appear as in lists: title kept, overview a preview, no action
// items or events.
func SearchConversations(ctx context.Context, d Deps, userID, query string, since, until *time.Time, limit int) ([]ConversationSummary, error) {
	limit = min(max(limit, 1), MaxSearchConversations)
	hs, err := hits(ctx, &d, userID, appliance.SearchQuery{Kind: appliance.KindConversation, Text: query,
		Limit: min(2*limit, 2*MaxSearchConversations), Since: since, Until: until})
	if err != nil {
		return nil, err
	}
	byID, err := d.Store.ConversationsByID(ctx, userID, hitIDs(hs))
	if err != nil {
		return nil, err
	}
	out := []ConversationSummary{}
	for _, h := range hs {
		c, ok := byID[h.ItemID]
		if !ok || c.Discarded || c.Deleted || c.Status != appliance.StatusCompleted {
			continue
		}
		s := SummarizeConversation(c)
		s.RelevanceScore = relevance(h)
		if out = append(out, s); len(out) == limit {
			break
		}
	}
	return out, nil
}

// SearchActionItems finds up to limit (1..50) action items by meaning.
// Locked ones, and those of locked conversations, are left out, as in lists.
func SearchActionItems(ctx context.Context, d Deps, userID, query string, limit int) ([]ActionItem, error) {
	limit = min(max(limit, 1), MaxSearchActionItems)
	hs, err := hits(ctx, &d, userID, appliance.SearchQuery{Kind: appliance.KindActionItem, Text: query, Limit: min(2*limit, 100)})
	if err != nil {
		return nil, err
	}
	byID, err := d.Store.ActionItemsByID(ctx, userID, hitIDs(hs))
	if err != nil {
		return nil, err
	}
	all := make([]*appliance.ActionItem, 0, len(byID))
	for _, it := range byID {
		all = append(all, it)
	}
	if err := InheritConversationLocks(ctx, d.Store, userID, all); err != nil {
		return nil, err
	}
	out := []ActionItem{}
	for _, h := range hs {
		a, ok := byID[h.ItemID]
		if !ok || a.IsLocked {
			continue
		}
		j := ActionItemJSON(a)
		j.RelevanceScore = relevance(h)
		if out = append(out, j); len(out) == limit {
			break
		}
	}
	return out, nil
}
