package records

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// MemoryQuery selects memories (get_memories, GET /v1/mcp/memories).
type MemoryQuery struct {
	Categories    []string // any accepted spelling; legacy names read as system
	Limit, Offset int
	Sort          string // one of appliance.MemorySorts, or "" for created_desc
	Reviewed      *bool
	ManuallyAdded *bool
	UpdatedAfter  string // ISO 8601, in the user's time zone when it names none
}

// Memories lists memories; locked ones show a preview.
func (s *Service) Memories(ctx context.Context, userID string, q MemoryQuery) ([]view.Memory, error) {
	if !appliance.ValidMemorySort(q.Sort) {
		return nil, appliance.Errorf(appliance.EINVALID, "Invalid sort. Expected one of: %s.", strings.Join(appliance.MemorySorts, ", "))
	}
	f := appliance.MemoryFilter{Limit: q.Limit, Offset: q.Offset, Sort: q.Sort, Reviewed: q.Reviewed, ManuallyAdded: q.ManuallyAdded}
	for _, c := range q.Categories {
		if !appliance.ValidMemoryCategory(c) {
			return nil, appliance.Errorf(appliance.EINVALID, "Invalid memory category: '%s'", c)
		}
		if n := appliance.NormalizeMemoryCategory(c); !slices.Contains(f.Categories, n) {
			f.Categories = append(f.Categories, n)
		}
	}
	if q.UpdatedAfter != "" {
		t, err := parseInstant("updated_after", q.UpdatedAfter, s.location(ctx, userID))
		if err != nil {
			return nil, err
		}
		f.UpdatedAfter = t
	}
	ms, err := s.store.Memories(ctx, userID, f)
	if err != nil {
		return nil, err
	}
	out := make([]view.Memory, len(ms))
	for i, m := range ms {
		out[i] = view.MemoryOf(m)
	}
	return out, nil
}

// MemoryInput is a memory an assistant writes.
type MemoryInput struct {
	Content    string
	Visibility appliance.Visibility // "" is private
	Tags       []string
}

// CreateMemory saves a memory the assistant was told; its category is
// chosen from its content (system for facts about the user).
func (s *Service) CreateMemory(ctx context.Context, userID string, in MemoryInput) (view.Memory, error) {
	content := strings.TrimSpace(in.Content)
	if content == "" {
		return view.Memory{}, appliance.Errorf(appliance.EINVALID, "Content is required")
	}
	if in.Visibility == "" {
		in.Visibility = appliance.VisibilityPrivate
	}
	if in.Tags == nil {
		in.Tags = []string{}
	}
	now, yes := s.clock(), true
	m := &appliance.Memory{ID: newID(), UserID: userID, Content: content, Category: appliance.GuessMemoryCategory(content),
		Tags: in.Tags, Visibility: in.Visibility, CreatedAt: now, UpdatedAt: now,
		ManuallyAdded: true, Reviewed: true, UserReview: &yes}
	if err := s.store.CreateMemories(ctx, []*appliance.Memory{m}); err != nil {
		return view.Memory{}, err
	}
	s.publish(appliance.EventMemoryCreated, userID, []*appliance.Memory{m})
	return view.MemoryOf(m), nil
}

// writableMemory loads a memory an assistant may change: ENOTFOUND "Memory
// not found", or ELOCKED when the owner locked it.
func (s *Service) writableMemory(ctx context.Context, userID, id string) (*appliance.Memory, error) {
	m, err := s.store.Memory(ctx, userID, id)
	if err != nil {
		return nil, notFound(err, "Memory not found")
	}
	if m.IsLocked {
		return nil, appliance.LockedError("memory")
	}
	return m, nil
}

// EditMemory replaces a memory's text.
func (s *Service) EditMemory(ctx context.Context, userID, id, content string) error {
	content = strings.TrimSpace(content)
	if content == "" {
		return appliance.Errorf(appliance.EINVALID, "Content is required")
	}
	m, err := s.writableMemory(ctx, userID, id)
	if err != nil {
		return err
	}
	m.Content, m.Edited, m.UpdatedAt = content, true, s.clock()
	if err := s.store.UpdateMemory(ctx, m); err != nil {
		return notFound(err, "Memory not found")
	}
	s.publish(appliance.EventMemoryChanged, userID, []*appliance.Memory{m})
	return nil
}

// DeleteMemory deletes a memory.
func (s *Service) DeleteMemory(ctx context.Context, userID, id string) error {
	if _, err := s.writableMemory(ctx, userID, id); err != nil {
		return err
	}
	if err := s.store.DeleteMemory(ctx, userID, id); err != nil {
		return notFound(err, "Memory not found")
	}
	s.publish(appliance.EventMemoryChanged, userID, nil)
	return nil
}

// profileMemories bounds how many facts a profile lists.
const profileMemories = 30

// Profile is get_user_profile's result when there is something to tell.
type Profile struct {
	ProfileText     string    `json:"profile_text"`
	GeneratedAt     time.Time `json:"generated_at"`
	DataSourcesUsed []string  `json:"data_sources_used"`
}

// NoProfile is get_user_profile's result when nothing is known.
type NoProfile struct {
	Profile *Profile `json:"profile"`
	Message string   `json:"message"`
}

// UserProfile builds the profile the reference generates with an LLM from
// what the appliance knows without one: the user's name and their reviewed,
// unlocked facts (system memories), newest first. GeneratedAt is the time
// of the newest fact used. With neither a name nor a fact it returns
// NoProfile, in the reference's words.
func (s *Service) UserProfile(ctx context.Context, userID string) (any, error) {
	var lines, sources []string
	var newest time.Time
	if u, err := s.store.User(ctx, userID); err == nil && strings.TrimSpace(u.Name) != "" {
		lines = append(lines, "Name: "+strings.TrimSpace(u.Name))
		sources = append(sources, "user_name")
		newest = u.CreatedAt
	} else if err != nil && appliance.ErrorCode(err) != appliance.ENOTFOUND {
		return nil, err
	}
	ms, err := s.store.Memories(ctx, userID, appliance.MemoryFilter{Limit: 4 * profileMemories,
		Categories: []string{appliance.MemorySystem}, Sort: "created_desc"})
	if err != nil {
		return nil, err
	}
	var facts []string
	for _, m := range ms {
		if m.IsLocked || (m.UserReview != nil && !*m.UserReview) || len(facts) == profileMemories {
			continue
		}
		facts = append(facts, "- "+strings.TrimSpace(m.Content))
		if m.UpdatedAt.After(newest) {
			newest = m.UpdatedAt
		}
	}
	if len(facts) > 0 {
		lines = append(lines, "Known facts:")
		lines = append(lines, facts...)
		sources = append(sources, "memories")
	}
	if len(lines) == 0 {
		return NoProfile{Message: "No profile has been generated for this user yet."}, nil
	}
	return Profile{ProfileText: strings.Join(lines, "\n"), GeneratedAt: newest.UTC(), DataSourcesUsed: sources}, nil
}
