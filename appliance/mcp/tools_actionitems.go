package mcp

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

type actionItemsResult struct {
	ActionItems []view.ActionItem `json:"action_items"`
}

type actionItemResult struct {
	Success    bool            `json:"success"`
	ActionItem view.ActionItem `json:"action_item"`
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
			items, err := c.deps.Records.ActionItems(ctx, c.userID, records.ActionItemQuery{Completed: a.Completed,
				DueStartDate: a.DueStartDate, DueEndDate: a.DueEndDate, Limit: a.Limit, Offset: a.Offset})
			if err != nil {
				return nil, err
			}
			return actionItemsResult{ActionItems: items}, nil
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
			items, err := c.deps.Records.SearchActionItems(ctx, c.userID, a.Query, a.Limit)
			if err != nil {
				return nil, err
			}
			return actionItemsResult{ActionItems: items}, nil
		})
}

type createActionItemArgs struct {
	Description string `json:"description" jsonschema:"What is to be done" schema:"maxLength=text"`
	DueAt       string `json:"due_at,omitempty" jsonschema:"When it is due (ISO 8601 or YYYY-MM-DD)"`
	Completed   bool   `json:"completed,omitempty" jsonschema:"Whether it is already done" schema:"default=false"`
}

func (a *createActionItemArgs) check() error {
	if a.Description = strings.TrimSpace(a.Description); a.Description == "" {
		return rpcError(CodeGeneric, "Description is required")
	}
	return nil
}

func createActionItemTool(d *Deps) serverTool {
	return newTool(d, "create_action_item", "Create action item",
		"Add an action item (task) for the user. Creating one whose description is identical to an open item returns that item instead of a duplicate.",
		ScopeActionItemsWrite, kindWrite,
		func(ctx context.Context, c *call, a createActionItemArgs) (any, error) {
			it, err := c.deps.Records.CreateActionItem(ctx, c.userID, records.ActionItemInput{Description: a.Description,
				DueAt: a.DueAt, Completed: a.Completed})
			if err != nil {
				return nil, err
			}
			return actionItemResult{true, it}, nil
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
			it, err := c.deps.Records.CompleteActionItem(ctx, c.userID, a.ActionItemID, a.Completed)
			if err != nil {
				return nil, err
			}
			return actionItemResult{true, it}, nil
		})
}

type updateActionItemArgs struct {
	ActionItemID string  `json:"action_item_id" jsonschema:"The action item's id"`
	Description  *string `json:"description,omitempty" jsonschema:"The new description" schema:"maxLength=text"`
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
			it, err := c.deps.Records.UpdateActionItem(ctx, c.userID, a.ActionItemID,
				records.ActionItemPatch{Description: a.Description, DueAt: a.DueAt})
			if err != nil {
				return nil, err
			}
			return actionItemResult{true, it}, nil
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
			if err := c.deps.Records.DeleteActionItem(ctx, c.userID, a.ActionItemID); err != nil {
				return nil, err
			}
			return successResult{true}, nil
		})
}
