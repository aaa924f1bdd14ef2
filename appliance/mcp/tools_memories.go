package mcp

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

func checkMemoryCategory(c string) error {
	if c != "" && !appliance.ValidMemoryCategory(c) {
		return rpcError(CodeInvalidParams, "Invalid memory category: '"+c+"'")
	}
	return nil
}

type successResult struct {
	Success bool `json:"success"`
}

type memoriesResult struct {
	Memories []view.Memory `json:"memories"`
}

type getMemoriesArgs struct {
	Categories    []string `json:"categories,omitempty" jsonschema:"Only memories of these categories: system (facts about the user), interesting (wisdom or advice from others), manual; legacy names are read as system" schema:"enum=interesting|system|manual|core|hobbies|lifestyle|interests|habits|work|skills|learnings|other|auto|workflow"`
	Limit         int      `json:"limit,omitempty" jsonschema:"Maximum number of memories to return" schema:"default=100,minimum=1,maximum=500"`
	Offset        int      `json:"offset,omitempty" jsonschema:"Number of memories to skip, for paging" schema:"default=0,minimum=0,maximum=100000"`
	Sort          string   `json:"sort,omitempty" jsonschema:"Order: created_desc (newest first), updated_desc, scoring_desc (manual and interesting first), manual_first" schema:"default=created_desc,enum=scoring_desc|created_desc|updated_desc|manual_first"`
	Reviewed      *bool    `json:"reviewed,omitempty" jsonschema:"Only memories the user has (true) or has not (false) reviewed"`
	ManuallyAdded *bool    `json:"manually_added,omitempty" jsonschema:"Only memories added by hand (true) or extracted from conversations (false)"`
	UpdatedAfter  string   `json:"updated_after,omitempty" jsonschema:"Only memories changed after this time (ISO 8601)"`
}

func (a *getMemoriesArgs) check() error {
	for _, c := range a.Categories {
		if err := checkMemoryCategory(c); err != nil {
			return err
		}
	}
	if !appliance.ValidMemorySort(a.Sort) {
		return rpcError(CodeInvalidParams, "Invalid sort. Expected one of: "+strings.Join(appliance.MemorySorts, ", ")+".")
	}
	return nil
}

func getMemoriesTool(d *Deps) serverTool {
	return newTool(d, "get_memories", "Get memories",
		"List the user's memories: facts about the user and interesting things others said, newest first by default. Locked memories show only a preview.",
		ScopeMemoriesRead, kindRead,
		func(ctx context.Context, c *call, a getMemoriesArgs) (any, error) {
			ms, err := c.deps.Records.Memories(ctx, c.userID, records.MemoryQuery{Categories: a.Categories, Limit: a.Limit,
				Offset: a.Offset, Sort: a.Sort, Reviewed: a.Reviewed, ManuallyAdded: a.ManuallyAdded, UpdatedAfter: a.UpdatedAfter})
			if err != nil {
				return nil, err
			}
			return memoriesResult{Memories: ms}, nil
		})
}

type createMemoryArgs struct {
	Content  string `json:"content" jsonschema:"The memory, one self-contained statement (e.g. 'I am allergic to penicillin')" schema:"maxLength=text"`
	Category string `json:"category,omitempty" jsonschema:"Accepted for compatibility and ignored: the category is chosen automatically" schema:"enum=interesting|system|manual|core|hobbies|lifestyle|interests|habits|work|skills|learnings|other|auto|workflow"`
}

func (a *createMemoryArgs) check() error {
	a.Content = strings.TrimSpace(a.Content)
	if a.Content == "" {
		return rpcError(CodeGeneric, "Content is required")
	}
	return checkMemoryCategory(a.Category)
}

func createMemoryTool(d *Deps) serverTool {
	return newTool(d, "create_memory", "Create memory",
		"Save a new memory about the user. The category (system for facts about the user, interesting otherwise) is assigned automatically.",
		ScopeMemoriesWrite, kindWrite,
		func(ctx context.Context, c *call, a createMemoryArgs) (any, error) {
			m, err := c.deps.Records.CreateMemory(ctx, c.userID, records.MemoryInput{Content: a.Content})
			if err != nil {
				return nil, err
			}
			return struct {
				Success bool        `json:"success"`
				Memory  view.Memory `json:"memory"`
			}{true, m}, nil
		})
}

type memoryIDArgs struct {
	MemoryID string `json:"memory_id" jsonschema:"The memory's id"`
}

func (a *memoryIDArgs) check() error {
	if a.MemoryID = strings.TrimSpace(a.MemoryID); a.MemoryID == "" {
		return rpcError(CodeGeneric, "memory_id is required")
	}
	return nil
}

func deleteMemoryTool(d *Deps) serverTool {
	return newTool(d, "delete_memory", "Delete memory", "Delete one of the user's memories.",
		ScopeMemoriesWrite, kindDelete,
		func(ctx context.Context, c *call, a memoryIDArgs) (any, error) {
			if err := c.deps.Records.DeleteMemory(ctx, c.userID, a.MemoryID); err != nil {
				return nil, err
			}
			return successResult{true}, nil
		})
}

type editMemoryArgs struct {
	MemoryID string `json:"memory_id" jsonschema:"The memory's id"`
	Content  string `json:"content" jsonschema:"The memory's new text" schema:"maxLength=text"`
}

func (a *editMemoryArgs) check() error {
	if a.MemoryID = strings.TrimSpace(a.MemoryID); a.MemoryID == "" {
		return rpcError(CodeGeneric, "memory_id is required")
	}
	if a.Content = strings.TrimSpace(a.Content); a.Content == "" {
		return rpcError(CodeGeneric, "Content is required")
	}
	return nil
}

func editMemoryTool(d *Deps) serverTool {
	return newTool(d, "edit_memory", "Edit memory", "Replace the text of one of the user's memories.",
		ScopeMemoriesWrite, kindWrite,
		func(ctx context.Context, c *call, a editMemoryArgs) (any, error) {
			if err := c.deps.Records.EditMemory(ctx, c.userID, a.MemoryID, a.Content); err != nil {
				return nil, err
			}
			return successResult{true}, nil
		})
}

type searchMemoriesArgs struct {
	Query string `json:"query" jsonschema:"What to look for, in natural language"`
	Limit int    `json:"limit,omitempty" jsonschema:"Maximum number of memories to return" schema:"default=10,minimum=1,maximum=20"`
}

func (a *searchMemoriesArgs) check() error {
	if a.Query = strings.TrimSpace(a.Query); a.Query == "" {
		return rpcError(CodeGeneric, "query is required")
	}
	return nil
}

func searchMemoriesTool(d *Deps) serverTool {
	return newTool(d, "search_memories", "Search memories",
		"Find the user's memories by meaning, best match first, each with a relevance_score. Memories written in the last few minutes may not be found yet.",
		ScopeMemoriesRead, kindRead,
		func(ctx context.Context, c *call, a searchMemoriesArgs) (any, error) {
			ms, err := c.deps.Records.SearchMemories(ctx, c.userID, a.Query, a.Limit)
			if err != nil {
				return nil, err
			}
			return memoriesResult{Memories: ms}, nil
		})
}

func getUserProfileTool(d *Deps) serverTool {
	return newTool(d, "get_user_profile", "Get user profile",
		"Summarise what is known about the user: their name and the facts kept as memories.",
		ScopeMemoriesRead, kindRead,
		func(ctx context.Context, c *call, _ struct{}) (any, error) {
			return c.deps.Records.UserProfile(ctx, c.userID)
		})
}
