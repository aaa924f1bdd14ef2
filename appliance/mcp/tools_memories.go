package mcp

import (
	"context"
	"slices"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// memorySorts are get_memories' sort values.
var memorySorts = []string{"scoring_desc", "created_desc", "updated_desc", "manual_first"}

func checkMemoryCategory(c string) error {
	if c != "" && !appliance.ValidMemoryCategory(c) {
		return rpcError(CodeInvalidParams, "Invalid memory category: '"+c+"'")
	}
	return nil
}

func memoryNotFound(err error) error {
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return appliance.Errorf(appliance.ENOTFOUND, "Memory not found")
	}
	return err
}

// loadMemoryForWrite returns the memory unless it is missing or locked.
func loadMemoryForWrite(ctx context.Context, c *call, id string) (*appliance.Memory, error) {
	m, err := c.deps.Store.Memory(ctx, c.userID, id)
	if err != nil {
		return nil, memoryNotFound(err)
	}
	if m.IsLocked {
		return nil, lockedError("memory")
	}
	return m, nil
}

type successResult struct {
	Success bool `json:"success"`
}

type memoriesResult struct {
	Memories []Memory `json:"memories"`
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
	if !slices.Contains(memorySorts, a.Sort) {
		return rpcError(CodeInvalidParams, "Invalid sort. Expected one of: "+strings.Join(memorySorts, ", ")+".")
	}
	return nil
}

func getMemoriesTool(d *Deps) serverTool {
	return newTool(d, "get_memories", "Get memories",
		"List the user's memories: facts about the user and interesting things others said, newest first by default. Locked memories show only a preview.",
		ScopeMemoriesRead, kindRead,
		func(ctx context.Context, c *call, a getMemoriesArgs) (any, error) {
			f := appliance.MemoryFilter{Limit: a.Limit, Offset: a.Offset, Sort: a.Sort, Reviewed: a.Reviewed, ManuallyAdded: a.ManuallyAdded}
			for _, cat := range a.Categories {
				if n := appliance.NormalizeMemoryCategory(cat); !slices.Contains(f.Categories, n) {
					f.Categories = append(f.Categories, n)
				}
			}
			if a.UpdatedAfter != "" {
				t, err := parseInstant("updated_after", a.UpdatedAfter, userLocation(ctx, c.deps.Store, c.userID))
				if err != nil {
					return nil, err
				}
				f.UpdatedAfter = t
			}
			ms, err := c.deps.Store.Memories(ctx, c.userID, f)
			if err != nil {
				return nil, err
			}
			out := memoriesResult{Memories: make([]Memory, len(ms))}
			for i, m := range ms {
				out.Memories[i] = MemoryJSON(m)
			}
			return out, nil
		})
}

type createMemoryArgs struct {
	Content  string `json:"content" jsonschema:"The memory, one self-contained statement (e.g. 'I am allergic to penicillin')" schema:"maxLength=500"`
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
			now, yes := c.deps.now(), true
			m := &appliance.Memory{ID: newID(), UserID: c.userID, Content: a.Content, Category: appliance.GuessMemoryCategory(a.Content),
				Tags: []string{}, Visibility: appliance.VisibilityPrivate, CreatedAt: now, UpdatedAt: now,
				ManuallyAdded: true, Reviewed: true, UserReview: &yes}
			if err := c.deps.Store.CreateMemories(ctx, []*appliance.Memory{m}); err != nil {
				return nil, err
			}
			c.deps.notify()
			return struct {
				Success bool   `json:"success"`
				Memory  Memory `json:"memory"`
			}{true, MemoryJSON(m)}, nil
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
			if _, err := loadMemoryForWrite(ctx, c, a.MemoryID); err != nil {
				return nil, err
			}
			if err := c.deps.Store.DeleteMemory(ctx, c.userID, a.MemoryID); err != nil {
				return nil, memoryNotFound(err)
			}
			c.deps.notify()
			return successResult{true}, nil
		})
}

type editMemoryArgs struct {
	MemoryID string `json:"memory_id" jsonschema:"The memory's id"`
	Content  string `json:"content" jsonschema:"The memory's new text" schema:"maxLength=500"`
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
			m, err := loadMemoryForWrite(ctx, c, a.MemoryID)
			if err != nil {
				return nil, err
			}
			m.Content, m.Edited, m.UpdatedAt = a.Content, true, c.deps.now()
			if err := c.deps.Store.UpdateMemory(ctx, m); err != nil {
				return nil, memoryNotFound(err)
			}
			c.deps.notify()
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
			ms, err := SearchMemories(ctx, *c.deps, c.userID, a.Query, a.Limit)
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
			return UserProfile(ctx, c.deps.Store, c.userID)
		})
}
