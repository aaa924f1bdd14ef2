package appliance

import (
	"context"
	"time"
)

// Store is what the domain needs from persistence. Every method that touches
// user data takes the user id and scopes its query to it; there is no way to
// read another user's rows through this interface.
type Store interface {
	UserStore
	KeyStore
	ConversationStore
	RecordStore
	SearchIndex
	OAuthStore
}

// UserStore keeps users.
type UserStore interface {
	CreateUser(ctx context.Context, u *User) error
	User(ctx context.Context, id string) (*User, error)
	Users(ctx context.Context) ([]*User, error)
}

// KeyStore keeps API keys by hash.
type KeyStore interface {
	CreateKey(ctx context.Context, k *Key) error
	// KeyByHash returns the key with the given secret hash, revoked or not;
	// callers decide what a revoked key means.
	KeyByHash(ctx context.Context, hash string) (*Key, error)
	Keys(ctx context.Context, userID string) ([]*Key, error)
	RevokeKey(ctx context.Context, userID, keyID string, at time.Time) error
	TouchKey(ctx context.Context, keyID string, at time.Time) error
}

// ConversationFilter selects conversations for listing.
type ConversationFilter struct {
	Limit, Offset    int
	Statuses         []ConversationStatus // empty: any
	IncludeDiscarded bool
	OnlyDiscarded    bool // the console's bin: discarded conversations only
	IncludeLocked    bool
	Categories       []Category
	StartDate        *time.Time // started_at ≥
	EndDate          *time.Time // started_at ≤
	FolderID         string
	Starred          *bool
	WithTranscript   bool
}

// ConversationStore keeps conversations, their segments and their action items.
type ConversationStore interface {
	// ClaimConversation inserts c (status processing) unless a conversation
	// with c.ID exists. When one exists and is a claim older than staleBefore
	// it is replaced. It returns the conversation now holding the id and
	// whether this call claimed it.
	ClaimConversation(ctx context.Context, c *Conversation, staleBefore time.Time) (*Conversation, bool, error)
	// SaveConversation writes c whole: row, segments and action items.
	SaveConversation(ctx context.Context, c *Conversation) error
	// Conversation returns one conversation with its segments; deleted ones are ENOTFOUND.
	Conversation(ctx context.Context, userID, id string) (*Conversation, error)
	// ConversationHead is Conversation without transcript segments (nil), for
	// reads that do not show them.
	ConversationHead(ctx context.Context, userID, id string) (*Conversation, error)
	Conversations(ctx context.Context, userID string, f ConversationFilter) ([]*Conversation, error)
	// InProgressConversation returns the user's newest in-progress conversation.
	InProgressConversation(ctx context.Context, userID string) (*Conversation, error)
	SetConversationTitle(ctx context.Context, userID, id, title string) error
	SetConversationStarred(ctx context.Context, userID, id string, starred bool) error
	// DiscardConversation sets the discard flag; discarding also removes the
	// memories extracted from the conversation, in the same transaction.
	DiscardConversation(ctx context.Context, userID, id string, discarded bool) error
	// SetConversationLocked hides (or shows) a conversation from assistants.
	SetConversationLocked(ctx context.Context, userID, id string, locked bool) error
	DeleteConversation(ctx context.Context, userID, id string) error
	// DeleteClaim removes a processing claim whose pipeline failed, so a retry can redo it.
	DeleteClaim(ctx context.Context, userID, id string) error
	// ConversationsByID returns the user's conversations (without segments)
	// among ids, keyed by id; deleted ones are absent.
	ConversationsByID(ctx context.Context, userID string, ids []string) (map[string]*Conversation, error)
	// PersonNames maps person ids to names for the user.
	PersonNames(ctx context.Context, userID string, ids []string) (map[string]string, error)
	CreatePerson(ctx context.Context, p *Person) error
	// Persons lists the user's people, oldest first.
	Persons(ctx context.Context, userID string) ([]*Person, error)
	FolderNames(ctx context.Context, userID string, ids []string) (map[string]string, error)
}

// TranscriptInput is what an extractor sees of a conversation.
type TranscriptInput struct {
	Segments  []TranscriptSegment
	Language  string
	Source    ConversationSource
	StartedAt time.Time
	Duration  time.Duration
	// Location is the user's time zone, for resolving relative times.
	Location *time.Location
	UserName string
	// OpenActionItems: the user's open tasks from other conversations, which
	// an extractor should not repeat, read when first called; nil means none.
	OpenActionItems func() []string
}

// Extractor turns a transcript into structure. The built-in offline route and
// an OpenAI-compatible LLM route implement it.
type Extractor interface {
	// Name identifies the route in logs.
	Name() string
	// ShouldDiscard decides whether a transcript is too trivial to keep. It is
	// consulted only after the fixed rules (long transcripts always keep).
	ShouldDiscard(ctx context.Context, in TranscriptInput) (bool, error)
	// Structure fills title, overview, emoji, category, action items and events.
	Structure(ctx context.Context, in TranscriptInput) (Structured, error)
	// Memories extracts at most MaxMemoriesPerConversation memories (Content
	// and Category only: system for facts about the user, interesting for
	// wisdom or advice from others).
	Memories(ctx context.Context, in TranscriptInput) ([]Memory, error)
}

// MaxMemoriesPerConversation caps extracted memories: the reference keeps at
// most two new memories per conversation.
const MaxMemoriesPerConversation = 2

// Memory categories, the reference's primary three: system for facts about
// the user, interesting for someone else's advice, manual for memories
// added by hand.
const (
	MemorySystem      = "system"
	MemoryInteresting = "interesting"
	MemoryManual      = "manual"
)

// Embedder turns texts into unit-length vectors. Vectors from different
// models live in different spaces and are never compared: Model names the
// space, and a change of model re-embeds everything.
type Embedder interface {
	// Model identifies the vector space, e.g. "builtin-hash-384-v1".
	Model() string
	// Dims is the length of every vector Embed returns.
	Dims() int
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
