package records

import (
	"context"
	"errors"
	"strings"
	"time"

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

// keptHits runs a search for limit hits and keeps those keep accepts (at
// most limit). Only when keep turned some away and the search had more to
// give does it ask again, for three times as many, up to most: the hits
// kept away (locked, rejected, discarded) are few, and every hit asked for
// costs the search a vector read and a lookup, so asking for a multiple
// up front tripled the cost of every search for the sake of a rare one.
func keptHits[T any](limit, most int, search func(n int) ([]appliance.SearchHit, error),
	keep func(hs []appliance.SearchHit) ([]T, error)) ([]T, error) {
	for n := limit; ; n = min(3*n, most) {
		hs, err := search(n)
		if err != nil {
			return nil, err
		}
		out, err := keep(hs)
		if err != nil || len(out) >= limit || len(hs) < n || n >= most {
			return out, err
		}
	}
}

func hitIDs(hs []appliance.SearchHit) []string {
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ItemID
	}
	return ids
}

// SearchMemories finds up to limit (1..20) memories by meaning, best first,
// with relevance_score. It drops memories the user rejected (user_review
// false) and locked ones (a locked memory is not offered even as a preview
// in a search), asking for up to 60 hits to make up for them.
func (s *Service) SearchMemories(ctx context.Context, userID, query string, limit int) ([]view.Memory, error) {
	limit = min(max(limit, 1), MaxSearchMemories)
	search := func(n int) ([]appliance.SearchHit, error) {
		return s.hits(ctx, userID, appliance.SearchQuery{Kind: appliance.KindMemory, Text: query, Limit: n})
	}
	return keptHits(limit, 3*MaxSearchMemories, search, func(hs []appliance.SearchHit) ([]view.Memory, error) {
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
	})
}

// SearchConversations finds up to limit (1..100) completed, kept
// conversations by what was said in them, their title and overview, and by
// meaning, started within the days given (the user's time zone). Locked
// ones appear as in lists.
func (s *Service) SearchConversations(ctx context.Context, userID, query, startDate, endDate string, limit int) ([]view.ConversationSummary, error) {
	found, err := s.FindConversations(ctx, userID, ConversationSearch{Query: query, StartDate: startDate, EndDate: endDate,
		Limit: limit, noSnippets: true})
	if err != nil {
		return nil, err
	}
	out := make([]view.ConversationSummary, len(found))
	for i, f := range found {
		out[i] = f.Summary
	}
	return out, nil
}

// ConversationSearch is a conversation search with its filters; the store
// applies them in its query, so a filtered search still fills its limit.
type ConversationSearch struct {
	Query              string
	StartDate, EndDate string // days in the user's time zone, inclusive
	Limit              int
	Category, FolderID string
	Starred            *bool
	Person             string // a person's id or a speaker's name
	// noSnippets: the summaries alone are wanted (making a hit's snippet
	// was a tenth of a search's CPU at 100k conversations).
	noSnippets bool
}

// FoundConversation is a conversation found, with where its words were
// said (an empty snippet when it was found by title, overview or meaning).
type FoundConversation struct {
	Summary view.ConversationSummary
	Hit     appliance.SearchHit
	Locked  bool
}

// Location is the user's time zone, in which search dates are days.
func (s *Service) Location(ctx context.Context, userID string) *time.Location {
	return s.location(ctx, userID)
}

// FindConversations runs a conversation search with filters.
func (s *Service) FindConversations(ctx context.Context, userID string, cs ConversationSearch) ([]FoundConversation, error) {
	limit := min(max(cs.Limit, 1), MaxSearchConversations)
	loc := s.location(ctx, userID)
	since, err := ParseDay("start_date", cs.StartDate, loc, false)
	if err != nil {
		return nil, err
	}
	until, err := ParseDay("end_date", cs.EndDate, loc, true)
	if err != nil {
		return nil, err
	}
	search := func(n int) ([]appliance.SearchHit, error) {
		return s.hits(ctx, userID, appliance.SearchQuery{Kind: appliance.KindConversation, Text: cs.Query,
			Limit: n, Since: since, Until: until, Category: cs.Category, FolderID: cs.FolderID,
			Starred: cs.Starred, Person: cs.Person, NoSnippets: cs.noSnippets})
	}
	return keptHits(limit, 2*MaxSearchConversations, search, func(hs []appliance.SearchHit) ([]FoundConversation, error) {
		byID, err := s.store.ConversationsByID(ctx, userID, hitIDs(hs))
		if err != nil {
			return nil, err
		}
		out := []FoundConversation{}
		for _, h := range hs {
			c, ok := byID[h.ItemID]
			if !ok || c.Discarded || c.Deleted || c.Status != appliance.StatusCompleted {
				continue
			}
			sum := view.SummaryOf(c)
			sum.RelevanceScore = view.Relevance(h)
			if c.IsLocked { // what was said is content: a locked one shows none
				h.Snippet, h.Speaker = "", ""
			}
			if out = append(out, FoundConversation{Summary: sum, Hit: h, Locked: c.IsLocked}); len(out) == limit {
				break
			}
		}
		return out, nil
	})
}

// SearchActionItems finds up to limit (1..50) action items by meaning.
// Locked ones, and those of locked conversations, are left out, as in
// lists.
func (s *Service) SearchActionItems(ctx context.Context, userID, query string, limit int) ([]view.ActionItem, error) {
	limit = min(max(limit, 1), MaxSearchActionItems)
	search := func(n int) ([]appliance.SearchHit, error) {
		return s.hits(ctx, userID, appliance.SearchQuery{Kind: appliance.KindActionItem, Text: query, Limit: n})
	}
	return keptHits(limit, 2*MaxSearchActionItems, search, func(hs []appliance.SearchHit) ([]view.ActionItem, error) {
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
	})
}
