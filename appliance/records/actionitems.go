package records

import (
	"context"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// ActionItemQuery selects action items (get_action_items, GET
// /v1/mcp/action-items); due dates are days in the user's time zone.
type ActionItemQuery struct {
	Completed                *bool
	DueStartDate, DueEndDate string
	Limit, Offset            int
}

// ActionItems lists action items, newest first. Items the owner locked,
// and those of locked conversations, are left out, so a page may hold
// fewer than Limit.
func (s *Service) ActionItems(ctx context.Context, userID string, q ActionItemQuery) ([]view.ActionItem, error) {
	f := appliance.ActionItemFilter{Limit: q.Limit, Offset: q.Offset, Completed: q.Completed}
	if q.DueStartDate != "" || q.DueEndDate != "" {
		loc := s.location(ctx, userID)
		var err error
		if f.DueStart, err = ParseDay("due_start_date", q.DueStartDate, loc, false); err != nil {
			return nil, err
		}
		if f.DueEnd, err = ParseDay("due_end_date", q.DueEndDate, loc, true); err != nil {
			return nil, err
		}
	}
	items, err := s.store.ActionItems(ctx, userID, f)
	if err != nil {
		return nil, err
	}
	if err := s.inheritLocks(ctx, userID, items); err != nil {
		return nil, err
	}
	out := []view.ActionItem{}
	for _, it := range items {
		if !it.IsLocked {
			out = append(out, view.ActionItemOf(it))
		}
	}
	return out, nil
}

// inheritLocks marks as locked the action items whose conversation is
// locked: the store keeps the item's own flag only, and an item must not
// show what its hidden conversation's structure withholds.
func (s *Service) inheritLocks(ctx context.Context, userID string, items []*appliance.ActionItem) error {
	var ids []string
	for _, it := range items {
		if !it.IsLocked && it.ConversationID != nil {
			ids = append(ids, *it.ConversationID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	cs, err := s.store.ConversationsByID(ctx, userID, ids)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.ConversationID != nil {
			if c, ok := cs[*it.ConversationID]; ok && c.IsLocked {
				it.IsLocked = true
			}
		}
	}
	return nil
}

// writableActionItem loads an item that may be changed: ENOTFOUND
// "Action item not found", or ELOCKED when it or its conversation is locked.
func (s *Service) writableActionItem(ctx context.Context, userID, id string) (*appliance.ActionItem, error) {
	a, err := s.store.ActionItem(ctx, userID, id)
	if err != nil {
		return nil, notFound(err, "Action item not found")
	}
	if err := s.inheritLocks(ctx, userID, []*appliance.ActionItem{a}); err != nil {
		return nil, err
	}
	if a.IsLocked {
		return nil, appliance.LockedError("action item")
	}
	return a, nil
}

// ActionItemInput is an action item to create.
type ActionItemInput struct {
	Description string
	// Due, when set, is the due time; otherwise DueAt, ISO 8601 or
	// YYYY-MM-DD in the user's time zone when it names none, or "".
	Due       *time.Time
	DueAt     string
	Completed bool
}

// duplicateScan bounds the search for an identical open action item.
const (
	duplicateScanPage = 500
	maxDuplicateScan  = 5000
)

// CreateActionItem adds an action item an assistant asked for. One whose
// description is identical to an open item's returns that item instead:
// assistants retry.
func (s *Service) CreateActionItem(ctx context.Context, userID string, in ActionItemInput) (view.ActionItem, error) {
	desc, err := text("Description", in.Description, MaxText)
	if err != nil {
		return view.ActionItem{}, err
	}
	in.Description = desc
	if in.Due == nil {
		if in.Due, err = parseInstant("due_at", in.DueAt, s.location(ctx, userID)); err != nil {
			return view.ActionItem{}, err
		}
	}
	if existing, err := s.openItemLike(ctx, userID, desc); err != nil {
		return view.ActionItem{}, err
	} else if existing != nil {
		return view.ActionItemOf(existing), nil
	}
	items, err := s.CreateActionItems(ctx, userID, []ActionItemInput{in})
	if err != nil {
		return view.ActionItem{}, err
	}
	return items[0], nil
}

// CreateActionItems adds action items the owner wrote, all or none, and
// publishes one EventActionItemChanged.
func (s *Service) CreateActionItems(ctx context.Context, userID string, ins []ActionItemInput) ([]view.ActionItem, error) {
	now := s.clock()
	items := make([]*appliance.ActionItem, len(ins))
	for i, in := range ins {
		desc, err := text("Description", in.Description, MaxText)
		if err != nil {
			return nil, err
		}
		due := in.Due
		if due == nil {
			if due, err = parseInstant("due_at", in.DueAt, s.location(ctx, userID)); err != nil {
				return nil, err
			}
		}
		it := &appliance.ActionItem{ID: newID(), UserID: userID, Description: desc, Completed: in.Completed,
			CreatedAt: &now, UpdatedAt: &now, DueAt: due}
		if in.Completed {
			it.CompletedAt = &now
		}
		items[i] = it
	}
	if err := s.store.CreateActionItems(ctx, items); err != nil {
		return nil, err
	}
	s.publish(appliance.EventActionItemChanged, userID, nil)
	out := make([]view.ActionItem, len(items))
	for i, it := range items {
		out[i] = view.ActionItemOf(it)
	}
	return out, nil
}

func (s *Service) openItemLike(ctx context.Context, userID, desc string) (*appliance.ActionItem, error) {
	open := false
	for offset := 0; offset < maxDuplicateScan; offset += duplicateScanPage {
		items, err := s.store.ActionItems(ctx, userID, appliance.ActionItemFilter{Limit: duplicateScanPage, Offset: offset, Completed: &open})
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if strings.TrimSpace(it.Description) == desc {
				return it, nil
			}
		}
		if len(items) < duplicateScanPage {
			break
		}
	}
	return nil, nil
}

// CompleteActionItem marks an item done, or open again.
func (s *Service) CompleteActionItem(ctx context.Context, userID, id string, completed bool) (view.ActionItem, error) {
	return s.UpdateActionItem(ctx, userID, id, ActionItemPatch{Completed: &completed})
}

// ActionItemPatch changes an item; nil fields stay.
type ActionItemPatch struct {
	Description *string
	// Due, when set, is the new due time; otherwise DueAt is parsed as
	// ActionItemInput's is.
	Due       *time.Time
	DueAt     *string
	Completed *bool
}

func (p ActionItemPatch) empty() bool {
	return p.Description == nil && p.Due == nil && p.DueAt == nil && p.Completed == nil
}

// UpdateActionItem changes an item's description, due time or state. Its
// errors come in this order: ENOTFOUND "Action item not found",
// ErrNothingToChange, ELOCKED when the item or its conversation is locked,
// then the fields'. completed_at changes only when the state flips:
// completing a completed item keeps the time it was done.
func (s *Service) UpdateActionItem(ctx context.Context, userID, id string, p ActionItemPatch) (view.ActionItem, error) {
	it, err := s.store.ActionItem(ctx, userID, id)
	if err != nil {
		return view.ActionItem{}, notFound(err, "Action item not found")
	}
	if p.empty() {
		return view.ActionItem{}, ErrNothingToChange
	}
	if err := s.inheritLocks(ctx, userID, []*appliance.ActionItem{it}); err != nil {
		return view.ActionItem{}, err
	}
	if it.IsLocked {
		return view.ActionItem{}, appliance.LockedError("action item")
	}
	if p.Description != nil {
		d, err := text("Description", *p.Description, MaxText)
		if err != nil {
			return view.ActionItem{}, err
		}
		it.Description = d
	}
	now := s.clock()
	switch {
	case p.Due != nil:
		it.DueAt = p.Due
	case p.DueAt != nil:
		t, err := parseInstant("due_at", *p.DueAt, s.location(ctx, userID))
		if err != nil {
			return view.ActionItem{}, err
		}
		it.DueAt = t
	}
	if p.Completed != nil && *p.Completed != it.Completed {
		it.Completed, it.CompletedAt = *p.Completed, nil
		if *p.Completed {
			it.CompletedAt = &now
		}
	}
	it.UpdatedAt = &now
	if err := s.store.UpdateActionItem(ctx, it); err != nil {
		return view.ActionItem{}, notFound(err, "Action item not found")
	}
	s.publish(appliance.EventActionItemChanged, userID, nil)
	return view.ActionItemOf(it), nil
}

// DeleteActionItem deletes an item; ELOCKED when it or its conversation is
// locked.
func (s *Service) DeleteActionItem(ctx context.Context, userID, id string) error {
	if _, err := s.writableActionItem(ctx, userID, id); err != nil {
		return err
	}
	if err := s.store.DeleteActionItem(ctx, userID, id); err != nil {
		return notFound(err, "Action item not found")
	}
	s.publish(appliance.EventActionItemChanged, userID, nil)
	return nil
}
