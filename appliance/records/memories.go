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

// MemoryInput is a memory to save.
type MemoryInput struct {
	Content string
	// Category is any accepted spelling; "" chooses one from the content
	// (system for facts about the user).
	Category   string
	Visibility appliance.Visibility // "" is private
	Tags       []string
}

// CreateMemory saves a memory an assistant was told; its category is
// chosen from its content.
func (s *Service) CreateMemory(ctx context.Context, userID string, in MemoryInput) (view.Memory, error) {
	if in.Tags == nil {
		in.Tags = []string{}
	}
	in.Category = ""
	ms, err := s.CreateMemories(ctx, userID, []MemoryInput{in})
	if err != nil {
		return view.Memory{}, err
	}
	return ms[0], nil
}

// CreateMemories saves memories the owner wrote, all or none, and
// publishes one EventMemoryCreated with them.
func (s *Service) CreateMemories(ctx context.Context, userID string, ins []MemoryInput) ([]view.Memory, error) {
	now, yes := s.clock(), true
	ms := make([]*appliance.Memory, len(ins))
	for i, in := range ins {
		content, err := text("Content", in.Content, MaxText)
		if err != nil {
			return nil, err
		}
		category := appliance.GuessMemoryCategory(content)
		if in.Category != "" {
			if !appliance.ValidMemoryCategory(in.Category) {
				return nil, appliance.Errorf(appliance.EINVALID, "Invalid memory category: '%s'", in.Category)
			}
			category = appliance.NormalizeMemoryCategory(in.Category)
		}
		if in.Visibility == "" {
			in.Visibility = appliance.VisibilityPrivate
		}
		ms[i] = &appliance.Memory{ID: newID(), UserID: userID, Content: content, Category: category,
			Tags: in.Tags, Visibility: in.Visibility, CreatedAt: now, UpdatedAt: now,
			ManuallyAdded: true, Reviewed: true, UserReview: &yes}
	}
	if err := s.store.CreateMemories(ctx, ms); err != nil {
		return nil, err
	}
	s.publish(appliance.EventMemoryCreated, userID, ms)
	out := make([]view.Memory, len(ms))
	for i, m := range ms {
		out[i] = view.MemoryOf(m)
	}
	return out, nil
}

// writableMemory loads a memory that may be changed: ENOTFOUND "Memory
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

// MemoryPatch changes a memory; nil fields stay.
type MemoryPatch struct {
	Content    *string
	Category   *string // any accepted spelling
	Tags       *[]string
	Visibility *string // public or private
}

func (p MemoryPatch) empty() bool {
	return p.Content == nil && p.Category == nil && p.Tags == nil && p.Visibility == nil
}

// UpdateMemory changes a memory. Its errors come in this order: ENOTFOUND
// "Memory not found", ErrNothingToChange, ELOCKED, ErrVisibility.
func (s *Service) UpdateMemory(ctx context.Context, userID, id string, p MemoryPatch) (view.Memory, error) {
	m, err := s.store.Memory(ctx, userID, id)
	if err != nil {
		return view.Memory{}, notFound(err, "Memory not found")
	}
	if p.empty() {
		return view.Memory{}, ErrNothingToChange
	}
	if m.IsLocked {
		return view.Memory{}, appliance.LockedError("memory")
	}
	if p.Visibility != nil && *p.Visibility != string(appliance.VisibilityPublic) && *p.Visibility != string(appliance.VisibilityPrivate) {
		return view.Memory{}, ErrVisibility
	}
	if p.Content != nil {
		content, err := text("Content", *p.Content, MaxText)
		if err != nil {
			return view.Memory{}, err
		}
		m.Content, m.Edited = content, true
	}
	if p.Category != nil {
		if !appliance.ValidMemoryCategory(*p.Category) {
			return view.Memory{}, appliance.Errorf(appliance.EINVALID, "Invalid memory category: '%s'", *p.Category)
		}
		m.Category = appliance.NormalizeMemoryCategory(*p.Category)
	}
	if p.Tags != nil {
		m.Tags = *p.Tags
	}
	if p.Visibility != nil {
		m.Visibility = appliance.Visibility(*p.Visibility)
	}
	m.UpdatedAt = s.clock()
	if err := s.store.UpdateMemory(ctx, m); err != nil {
		return view.Memory{}, notFound(err, "Memory not found")
	}
	s.publish(appliance.EventMemoryChanged, userID, []*appliance.Memory{m})
	return view.MemoryOf(m), nil
}

// EditMemory replaces a memory's text (edit_memory).
func (s *Service) EditMemory(ctx context.Context, userID, id, content string) error {
	content, err := text("Content", content, MaxText)
	if err != nil {
		return err
	}
	_, err = s.UpdateMemory(ctx, userID, id, MemoryPatch{Content: &content})
	return err
}

// LockMemory sets or clears a memory's lock: the owner's, and the one
// change a locked memory takes.
func (s *Service) LockMemory(ctx context.Context, userID, id string, locked bool) error {
	m, err := s.store.Memory(ctx, userID, id)
	if err != nil {
		return notFound(err, "Memory not found")
	}
	m.IsLocked = locked
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
