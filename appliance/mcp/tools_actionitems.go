package mcp

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

type actionItemsResult struct {
	ActionItems []ActionItem `json:"action_items"`
}

type actionItemResult struct {
	Success    bool       `json:"success"`
	ActionItem ActionItem `json:"action_item"`
}

func actionItemNotFound(err error) error {
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return appliance.Errorf(appliance.ENOTFOUND, "Action item not found")
	}
	return err
}

// loadActionItemForWrite returns the item unless it is missing or locked.
func loadActionItemForWrite(ctx context.Context, c *call, id string) (*appliance.ActionItem, error) {
	a, err := c.deps.Store.ActionItem(ctx, c.userID, id)
	if err != nil {
		return nil, actionItemNotFound(err)
	}
	if err := InheritConversationLocks(ctx, c.deps.Store, c.userID, []*appliance.ActionItem{a}); err != nil {
		return nil, err
	}
	if a.IsLocked {
		return nil, lockedError("action item")
	}
	return a, nil
}

type getActionItemsArgs struct {
	Completed    *bool  `json:"completed,omitempty" jsonschema:"Only completed (true) or open (false) items"`
	DueStartDate string `json:"due_start_date,omitempty" jsonschema:"Only items due on or after this day (YYYY-MM-DD or ISO 8601)"`
	DueEndDate   string `json:"due_end_date,omitempty" jsonschema:"Only items due on or before this day (YYYY-MM-DD or ISO 8601)"`
	Limit        int    `json:"limit,omitempty" jsonschema:"Maximum number of action items to return" schema:"default=100,minimum=1,maximum=500"`
	Offset       int    `json:"offset,omitempty" jsonschema:"Number of action items to skip, for paging" schema:"default=0,minimum=0"`
}

func getActionItemsTool(d *Deps) serverTool {
	return newTool(d, "get_action_items", "Get action items",
		"List the user's action items (tasks), newest first, optionally only open or completed ones, or those due within dates. Items the user locked are not shown.",
		ScopeActionItemsRead, kindRead,
		func(ctx context.Context, c *call, a getActionItemsArgs) (any, error) {
			f := appliance.ActionItemFilter{Limit: a.Limit, Offset: a.Offset, Completed: a.Completed}
			if a.DueStartDate != "" || a.DueEndDate != "" {
				loc := userLocation(ctx, c.deps.Store, c.userID)
				var err error
				if f.DueStart, err = ParseDay("due_start_date", a.DueStartDate, loc, false); err != nil {
					return nil, err
				}
				if f.DueEnd, err = ParseDay("due_end_date", a.DueEndDate, loc, true); err != nil {
					return nil, err
				}
			}
			items, err := c.deps.Store.ActionItems(ctx, c.userID, f)
			if err != nil {
				return nil, err
			}
			// Items of locked conversations are left out too, so a page
			// may hold fewer than limit.
			if err := InheritConversationLocks(ctx, c.deps.Store, c.userID, items); err != nil {
				return nil, err
			}
			out := actionItemsResult{ActionItems: []ActionItem{}}
			for _, it := range items {
				if !it.IsLocked {
					out.ActionItems = append(out.ActionItems, ActionItemJSON(it))
				}
			}
			return out, nil
		})
}

type searchActionItemsArgs struct {
	Query string `json:"query" jsonschema:"What to look for, in natural language"`
	Limit int    `json:"limit,omitempty" jsonschema:"Maximum number of action items to return" schema:"default=10,minimum=1,maximum=50"`
}

func (a *searchActionItemsArgs) check() error {
	if a.Query = strings.TrimSpace(a.Query); a.Query == "" {
		return rpcError(CodeGeneric, "query is required")
	}
	return nil
}

func searchActionItemsTool(d *Deps) serverTool {
	return newTool(d, "search_action_items", "Search action items",
		"Find the user's action items by meaning, best match first.",
		ScopeActionItemsRead, kindRead,
		func(ctx context.Context, c *call, a searchActionItemsArgs) (any, error) {
			items, err := SearchActionItems(ctx, *c.deps, c.userID, a.Query, a.Limit)
			if err != nil {
				return nil, err
			}
			return actionItemsResult{ActionItems: items}, nil
		})
}

type createActionItemArgs struct {
	Description string `json:"description" jsonschema:"What is to be done" schema:"maxLength=500"`
	DueAt       string `json:"due_at,omitempty" jsonschema:"When it is due (ISO 8601 or YYYY-MM-DD)"`
	Completed   bool   `json:"completed,omitempty" jsonschema:"Whether it is already done" schema:"default=false"`
}

func (a *createActionItemArgs) check() error {
	if a.Description = strings.TrimSpace(a.Description); a.Description == "" {
		return rpcError(CodeGeneric, "Description is required")
	}
	return nil
}

// duplicateScan bounds the search for an identical open action item: the
// newest maxDuplicateScan open items are compared.
const (
	duplicateScanPage = 500
	maxDuplicateScan  = 5000
)

// openActionItemByDescription finds an open, unlocked item with exactly this
// description, which makes create_action_item idempotent: assistants retry.
func openActionItemByDescription(ctx context.Context, c *call, desc string) (*appliance.ActionItem, error) {
	open := false
	for offset := 0; offset < maxDuplicateScan; offset += duplicateScanPage {
		items, err := c.deps.Store.ActionItems(ctx, c.userID, appliance.ActionItemFilter{Limit: duplicateScanPage, Offset: offset, Completed: &open})
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

func createActionItemTool(d *Deps) serverTool {
	return newTool(d, "create_action_item", "Create action item",
		"Add an action item (task) for the user. Creating one whose description is identical to an open item returns that item instead of a duplicate.",
		ScopeActionItemsWrite, kindWrite,
		func(ctx context.Context, c *call, a createActionItemArgs) (any, error) {
			due, err := parseInstant("due_at", a.DueAt, userLocation(ctx, c.deps.Store, c.userID))
			if err != nil {
				return nil, err
			}
			if existing, err := openActionItemByDescription(ctx, c, a.Description); err != nil {
				return nil, err
			} else if existing != nil {
				return actionItemResult{true, ActionItemJSON(existing)}, nil
			}
			now := c.deps.now()
			it := &appliance.ActionItem{ID: newID(), UserID: c.userID, Description: a.Description, Completed: a.Completed,
				CreatedAt: &now, UpdatedAt: &now, DueAt: due}
			if a.Completed {
				it.CompletedAt = &now
			}
			if err := c.deps.Store.CreateActionItems(ctx, []*appliance.ActionItem{it}); err != nil {
				return nil, err
			}
			c.deps.notify()
			return actionItemResult{true, ActionItemJSON(it)}, nil
		})
}

type completeActionItemArgs struct {
	ActionItemID string `json:"action_item_id" jsonschema:"The action item's id"`
	Completed    bool   `json:"completed,omitempty" jsonschema:"true marks it done, false reopens it" schema:"default=true"`
}

func (a *completeActionItemArgs) check() error {
	if a.ActionItemID = strings.TrimSpace(a.ActionItemID); a.ActionItemID == "" {
		return rpcError(CodeGeneric, "action_item_id is required")
	}
	return nil
}

func completeActionItemTool(d *Deps) serverTool {
	return newTool(d, "complete_action_item", "Complete action item",
		"Mark an action item done (or, with completed=false, open again).",
		ScopeActionItemsWrite, kindWrite,
		func(ctx context.Context, c *call, a completeActionItemArgs) (any, error) {
			it, err := loadActionItemForWrite(ctx, c, a.ActionItemID)
			if err != nil {
				return nil, err
			}
			now := c.deps.now()
			if it.Completed != a.Completed {
				it.Completed, it.CompletedAt = a.Completed, nil
				if a.Completed {
					it.CompletedAt = &now
				}
			}
			it.UpdatedAt = &now
			if err := c.deps.Store.UpdateActionItem(ctx, it); err != nil {
				return nil, actionItemNotFound(err)
			}
			return actionItemResult{true, ActionItemJSON(it)}, nil
		})
}

type updateActionItemArgs struct {
	ActionItemID string  `json:"action_item_id" jsonschema:"The action item's id"`
	Description  *string `json:"description,omitempty" jsonschema:"The new description" schema:"maxLength=500"`
	DueAt        *string `json:"due_at,omitempty" jsonschema:"The new due time (ISO 8601 or YYYY-MM-DD)"`
}

func (a *updateActionItemArgs) check() error {
	if a.ActionItemID = strings.TrimSpace(a.ActionItemID); a.ActionItemID == "" {
		return rpcError(CodeGeneric, "action_item_id is required")
	}
	if a.Description == nil && a.DueAt == nil {
		return rpcError(CodeInvalidParams, "At least one of description or due_at must be provided")
	}
	if a.Description != nil {
		if *a.Description = strings.TrimSpace(*a.Description); *a.Description == "" {
			return rpcError(CodeInvalidParams, "description cannot be empty")
		}
	}
	return nil
}

func updateActionItemTool(d *Deps) serverTool {
	return newTool(d, "update_action_item", "Update action item",
		"Change an action item's description or due time.",
		ScopeActionItemsWrite, kindWrite,
		func(ctx context.Context, c *call, a updateActionItemArgs) (any, error) {
			it, err := loadActionItemForWrite(ctx, c, a.ActionItemID)
			if err != nil {
				return nil, err
			}
			if a.DueAt != nil {
				t, err := parseInstant("due_at", *a.DueAt, userLocation(ctx, c.deps.Store, c.userID))
				if err != nil {
					return nil, err
				}
				it.DueAt = t
			}
			if a.Description != nil {
				it.Description = *a.Description
			}
			now := c.deps.now()
			it.UpdatedAt = &now
			if err := c.deps.Store.UpdateActionItem(ctx, it); err != nil {
				return nil, actionItemNotFound(err)
			}
			c.deps.notify()
			return actionItemResult{true, ActionItemJSON(it)}, nil
		})
}

type actionItemIDArgs struct {
	ActionItemID string `json:"action_item_id" jsonschema:"The action item's id"`
}

func (a *actionItemIDArgs) check() error {
	if a.ActionItemID = strings.TrimSpace(a.ActionItemID); a.ActionItemID == "" {
		return rpcError(CodeGeneric, "action_item_id is required")
	}
	return nil
}

func deleteActionItemTool(d *Deps) serverTool {
	return newTool(d, "delete_action_item", "Delete action item", "Delete one of the user's action items.",
		ScopeActionItemsWrite, kindDelete,
		func(ctx context.Context, c *call, a actionItemIDArgs) (any, error) {
			if _, err := loadActionItemForWrite(ctx, c, a.ActionItemID); err != nil {
				return nil, err
			}
			if err := c.deps.Store.DeleteActionItem(ctx, c.userID, a.ActionItemID); err != nil {
				return nil, actionItemNotFound(err)
			}
			c.deps.notify()
			return successResult{true}, nil
		})
}
