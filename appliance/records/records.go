// Package records is the one way to write the owner's records: memories,
// action items, folders, goals and people, with their limits, lock rules
// and events. Every surface calls it: the developer API and the console
// (appliance/api), the MCP tools (appliance/mcp) and their REST twins
// (/v1/mcp/... in appliance/api). A lock, a length bound, a date in the
// user's time zone or an event therefore means the same on all of them;
// each surface only parses its arguments and projects the result to its
// wire shape (appliance/view).
package records

import (
	"context"
	"log/slog"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Store is what the records service reads and writes.
type Store interface {
	User(ctx context.Context, id string) (*appliance.User, error)

	Memories(ctx context.Context, userID string, f appliance.MemoryFilter) ([]*appliance.Memory, error)
	Memory(ctx context.Context, userID, id string) (*appliance.Memory, error)
	MemoriesByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.Memory, error)
	CreateMemories(ctx context.Context, ms []*appliance.Memory) error
	UpdateMemory(ctx context.Context, m *appliance.Memory) error
	DeleteMemory(ctx context.Context, userID, id string) error

	Conversations(ctx context.Context, userID string, f appliance.ConversationFilter) ([]*appliance.Conversation, error)
	Conversation(ctx context.Context, userID, id string) (*appliance.Conversation, error)
	ConversationsByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.Conversation, error)
	PersonNames(ctx context.Context, userID string, ids []string) (map[string]string, error)
	Persons(ctx context.Context, userID string) ([]*appliance.Person, error)

	ActionItems(ctx context.Context, userID string, f appliance.ActionItemFilter) ([]*appliance.ActionItem, error)
	ActionItem(ctx context.Context, userID, id string) (*appliance.ActionItem, error)
	ActionItemsByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.ActionItem, error)
	CreateActionItems(ctx context.Context, items []*appliance.ActionItem) error
	UpdateActionItem(ctx context.Context, a *appliance.ActionItem) error
	DeleteActionItem(ctx context.Context, userID, id string) error

	Folder(ctx context.Context, userID, id string) (*appliance.Folder, error)
	CreateFolder(ctx context.Context, f *appliance.Folder) error
	UpdateFolder(ctx context.Context, f *appliance.Folder) error
	DeleteFolder(ctx context.Context, userID, id string) error

	Goal(ctx context.Context, userID, id string) (*appliance.Goal, error)
	CreateGoal(ctx context.Context, g *appliance.Goal) error
	UpdateGoal(ctx context.Context, g *appliance.Goal) error
	DeleteGoal(ctx context.Context, userID, id string) error

	RenamePerson(ctx context.Context, userID, id, name string) (*appliance.Person, error)
	MergePeople(ctx context.Context, userID, fromID, intoID string) error
	DeletePerson(ctx context.Context, userID, id string) error
}

// Searcher answers hybrid searches over one kind of record of one user.
type Searcher interface {
	Search(ctx context.Context, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error)
}

// Deps are what the service is built from (wired by hand in cmd).
type Deps struct {
	Store Store
	// Search answers the searches; nil makes them fail with an internal
	// error.
	Search Searcher
	// Events receives record writes (the search index follows them); nil
	// drops them.
	Events appliance.EventPublisher
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service writes records for every surface and answers the assistants'
// reads.
type Service struct {
	store  Store
	search Searcher
	events appliance.EventPublisher
	log    *slog.Logger
	now    func() time.Time
}

// New returns the service.
func New(d Deps) *Service {
	if d.Events == nil {
		d.Events = appliance.NopPublisher{}
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Service{store: d.Store, search: d.Search, events: d.Events, log: d.Logger, now: d.Now}
}

func (s *Service) clock() time.Time { return s.now().UTC() }

func (s *Service) publish(t appliance.EventType, userID string, ms []*appliance.Memory) {
	s.events.Publish(appliance.StreamEvent{Type: t, UserID: userID, Memories: ms, At: s.clock()})
}

// location is the user's time zone, for reading dates as the user means
// them.
func (s *Service) location(ctx context.Context, userID string) *time.Location {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return time.Local
	}
	return u.Location()
}

func newID() string { return appliance.NewID() }

// notFound gives a store's not-found the surface's wording.
func notFound(err error, msg string) error {
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return appliance.Errorf(appliance.ENOTFOUND, "%s", msg)
	}
	return err
}
