package records

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// ConversationQuery selects conversations (get_conversations, GET
// /v1/mcp/conversations). Dates are days in the user's time zone
// (YYYY-MM-DD, the end day included) or RFC 3339 instants.
type ConversationQuery struct {
	StartDate, EndDate string
	Categories         []string // unknown values are ignored
	Limit, Offset      int
}

// Conversations lists completed, kept conversations, newest first; locked
// ones show a preview.
func (s *Service) Conversations(ctx context.Context, userID string, q ConversationQuery) ([]view.ConversationSummary, error) {
	f := appliance.ConversationFilter{Limit: q.Limit, Offset: q.Offset,
		Statuses: []appliance.ConversationStatus{appliance.StatusCompleted}, IncludeLocked: true}
	var err error
	if q.StartDate != "" || q.EndDate != "" {
		loc := s.location(ctx, userID)
		if f.StartDate, err = ParseDay("start_date", q.StartDate, loc, false); err != nil {
			return nil, err
		}
		if f.EndDate, err = ParseDay("end_date", q.EndDate, loc, true); err != nil {
			return nil, err
		}
	}
	for _, name := range q.Categories {
		if cat, ok := appliance.ParseCategory(name); ok {
			f.Categories = append(f.Categories, cat)
		}
	}
	cs, err := s.store.Conversations(ctx, userID, f)
	if err != nil {
		return nil, err
	}
	out := make([]view.ConversationSummary, len(cs))
	for i, c := range cs {
		out[i] = view.SummaryOf(c)
	}
	return out, nil
}

// Conversation returns one conversation with its transcript, speakers
// named: ENOTFOUND "Conversation not found" when absent or deleted, ELOCKED
// when locked.
func (s *Service) Conversation(ctx context.Context, userID, id string) (*view.ConversationDetail, error) {
	c, err := s.store.Conversation(ctx, userID, id)
	if err != nil {
		return nil, notFound(err, "Conversation not found")
	}
	if c.IsLocked {
		return nil, appliance.LockedError("conversation")
	}
	people, err := s.store.PersonNames(ctx, userID, view.PersonIDs(c.TranscriptSegments))
	if err != nil {
		return nil, err
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		u = nil
	}
	d := view.DetailOf(c, u.DisplayName(), people)
	return &d, nil
}

// People lists the people who speak in the user's conversations.
func (s *Service) People(ctx context.Context, userID string) ([]view.Person, error) {
	ps, err := s.store.Persons(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]view.Person, len(ps))
	for i, p := range ps {
		out[i] = view.PersonOf(p)
	}
	return out, nil
}
