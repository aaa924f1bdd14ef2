package appliance

import (
	"context"
	"time"
)

// Goal is something the user is working towards, with a measured value.
type Goal struct {
	ID           string    `json:"id"`
	UserID       string    `json:"-"`
	Title        string    `json:"title"`
	GoalType     string    `json:"goal_type"` // boolean, scale or numeric
	TargetValue  float64   `json:"target_value"`
	CurrentValue float64   `json:"current_value"`
	MinValue     float64   `json:"min_value"`
	MaxValue     float64   `json:"max_value"`
	Unit         *string   `json:"unit"`
	IsActive     bool      `json:"is_active"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// GoalTypes are the accepted goal_type values.
var GoalTypes = []string{"boolean", "scale", "numeric"}

// MaxActiveGoals: creating one more deactivates the oldest (reference).
const MaxActiveGoals = 3

// GoalProgress is one recorded value of a goal.
type GoalProgress struct {
	Value      float64   `json:"value"`
	RecordedAt time.Time `json:"recorded_at"`
}

// MemoryFilter selects memories for listing.
type MemoryFilter struct {
	Limit, Offset int
	Categories    []string
	// Sort is created_desc (default), updated_desc, scoring_desc or manual_first.
	Sort          string
	Reviewed      *bool
	ManuallyAdded *bool
	UpdatedAfter  *time.Time
}

// ActionItemFilter selects action items for listing.
type ActionItemFilter struct {
	Limit, Offset  int
	ConversationID *string
	Completed      *bool
	// StartDate and EndDate bound created_at; DueStart and DueEnd bound due_at.
	StartDate, EndDate *time.Time
	DueStart, DueEnd   *time.Time
	IncludeLocked      bool
}

// RecordStore keeps the first-class records besides conversations. Every
// method is scoped to one user.
type RecordStore interface {
	CreateMemories(ctx context.Context, ms []*Memory) error
	Memory(ctx context.Context, userID, id string) (*Memory, error)
	Memories(ctx context.Context, userID string, f MemoryFilter) ([]*Memory, error)
	MemoriesByID(ctx context.Context, userID string, ids []string) (map[string]*Memory, error)
	UpdateMemory(ctx context.Context, m *Memory) error
	DeleteMemory(ctx context.Context, userID, id string) error

	CreateActionItems(ctx context.Context, items []*ActionItem) error
	ActionItem(ctx context.Context, userID, id string) (*ActionItem, error)
	ActionItems(ctx context.Context, userID string, f ActionItemFilter) ([]*ActionItem, error)
	ActionItemsByID(ctx context.Context, userID string, ids []string) (map[string]*ActionItem, error)
	UpdateActionItem(ctx context.Context, a *ActionItem) error
	DeleteActionItem(ctx context.Context, userID, id string) error

	CreateFolder(ctx context.Context, f *Folder) error
	Folder(ctx context.Context, userID, id string) (*Folder, error)
	Folders(ctx context.Context, userID string) ([]*Folder, error)
	UpdateFolder(ctx context.Context, f *Folder) error
	DeleteFolder(ctx context.Context, userID, id string) error
	SetConversationFolder(ctx context.Context, userID, conversationID string, folderID *string) error

	// CreateGoal inserts g and deactivates the oldest active goals beyond MaxActiveGoals.
	CreateGoal(ctx context.Context, g *Goal) error
	Goal(ctx context.Context, userID, id string) (*Goal, error)
	Goals(ctx context.Context, userID string, includeInactive bool, limit int) ([]*Goal, error)
	// UpdateGoal writes g; a changed current value is recorded in its history.
	UpdateGoal(ctx context.Context, g *Goal) error
	GoalHistory(ctx context.Context, userID, id string, since time.Time) ([]GoalProgress, error)
	DeleteGoal(ctx context.Context, userID, id string) error
}

// Search kinds.
const (
	KindMemory       = "memory"
	KindConversation = "conversation"
	KindActionItem   = "action_item"
)

// SearchQuery is one hybrid search over one kind of record of one user.
type SearchQuery struct {
	Kind  string
	Text  string
	Limit int
	// Vector is the query's embedding in Model's space; nil searches text only.
	Vector []float32
	Model  string
	// Since and Until bound the item's time (created_at; started_at for conversations).
	Since, Until *time.Time
	// MinSimilarity is the relevance floor: a hit found by meaning alone
	// (no text match) is kept only when its cosine similarity reaches it,
	// so a search returns matches rather than whatever is nearest. Zero
	// keeps every neighbour.
	MinSimilarity float64
	// Conversations only, applied in the store's query: the category, the
	// folder, starred or not, and a person (a person id, or a speaker's
	// name) who spoke in it. Zero values filter nothing.
	Category string
	FolderID string
	Starred  *bool
	Person   string
	// NoSnippets: the caller shows no snippet (the MCP tool and its REST
	// twin answer with summaries), so none is made.
	NoSnippets bool
}

// SearchHit is one fused result.
type SearchHit struct {
	ItemID string
	// Score orders results: reciprocal rank fusion for conversations;
	// for the other kinds, the similarity plus a nudge for a text match.
	Score float64
	// Similarity is the cosine similarity to the query vector (0 when the
	// item was found by text alone).
	Similarity float64
	// Snippet is where the words were said (conversations): the best
	// matching segment's text around them, each matched word between
	// <mark> and </mark>; Start is that segment's start in the recording,
	// in seconds. Empty when the words were not found in the transcript.
	Snippet string
	Start   float64
	Speaker string
}

// SearchDoc is an indexed item waiting for its vector.
type SearchDoc struct {
	DocID int64
	Text  string
}

// IndexProgress is how far the search index is, for logs, /healthz and the
// console.
type IndexProgress struct {
	Model     string `json:"model"`
	Embedded  int    `json:"embedded"`
	Total     int    `json:"total"`
	Reembed   bool   `json:"reembedding"` // a model change is being caught up on
	LastError string `json:"last_error,omitempty"`
}

// SearchIndex is the store's side of hybrid search and embedding upkeep.
type SearchIndex interface {
	Search(ctx context.Context, userID string, q SearchQuery) ([]SearchHit, error)
	// UseEmbeddingModel prepares the vector index for model; when the stored
	// vectors belong to another model they are dropped (reset=true), and the
	// indexer embeds everything again.
	UseEmbeddingModel(ctx context.Context, model string, dims int) (reset bool, err error)
	// PendingDocs returns up to n items that lack a vector of model, the
	// active one (another model is an error), oldest first. Its cost does
	// not grow with the index.
	PendingDocs(ctx context.Context, model string, n int) ([]SearchDoc, error)
	// IndexProgress counts items with a vector of model, and all items. It
	// is cheap enough to call on every health check.
	IndexProgress(ctx context.Context, model string) (done, total int, err error)
	// PutVectors stores one vector per doc; a doc deleted or changed since
	// PendingDocs returned it is skipped (it will come back as pending).
	PutVectors(ctx context.Context, model string, docs []SearchDoc, vectors [][]float32) error
	// MaintainIndex does one bounded step of upkeep that writers no longer
	// pay for (merging the text index, refreshing planner statistics); more
	// reports whether another step would do work. The indexer calls it
	// while nothing is pending.
	MaintainIndex(ctx context.Context) (more bool, err error)
	// IndexText moves a batch of newly written items into the full-text
	// index, which takes them in batches rather than one by one; n is how
	// many (0: none was waiting). Search catches up by itself first, so
	// calling this is about cost, not correctness.
	IndexText(ctx context.Context) (n int, err error)
}

// OAuthGrant is one user's approval of one assistant connector.
type OAuthGrant struct {
	ID        string     `json:"id"`
	UserID    string     `json:"user_id"`
	ClientID  string     `json:"client_id"`
	Scopes    []string   `json:"scopes"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// OAuthCode is an authorization code waiting to be exchanged.
type OAuthCode struct {
	Hash          string
	GrantID       string
	RedirectURI   string
	CodeChallenge string
	Resource      string
	ExpiresAt     time.Time
}

// OAuthToken is an issued access or refresh token (hash only).
type OAuthToken struct {
	Hash      string
	GrantID   string
	Kind      string // access or refresh
	ExpiresAt time.Time
}

// OAuthStore keeps grants, codes and tokens.
type OAuthStore interface {
	// CreateAuthorization stores a new grant and its authorization code.
	CreateAuthorization(ctx context.Context, g *OAuthGrant, code *OAuthCode) error
	// RedeemCode marks a code used and returns it with its grant. A code is
	// good once: a second redemption revokes the grant (RFC 6749 §4.1.2).
	RedeemCode(ctx context.Context, hash string, now time.Time) (*OAuthCode, *OAuthGrant, error)
	// IssueTokens stores tokens; when replacing is set, that refresh token
	// is revoked in the same transaction (rotation).
	IssueTokens(ctx context.Context, tokens []OAuthToken, replacing string, now time.Time) error
	// TokenGrant returns a live token of the kind and its live grant.
	TokenGrant(ctx context.Context, hash, kind string, now time.Time) (*OAuthGrant, error)
	// RevokeToken revokes the grant of the token with hash (any kind); unknown
	// tokens are not an error (RFC 7009).
	// RevokeReusedRefresh revokes the grant of a refresh token that was
	// already rotated, and reports whether there was one.
	RevokeReusedRefresh(ctx context.Context, hash string, now time.Time) (bool, error)
	RevokeToken(ctx context.Context, hash string, now time.Time) error
	OAuthGrants(ctx context.Context, userID string) ([]*OAuthGrant, error)
	RevokeGrant(ctx context.Context, userID, grantID string, now time.Time) error
	// RegisterOAuthClient stores a client that registered itself.
	RegisterOAuthClient(ctx context.Context, c OAuthClient, now time.Time) error
	// RegisteredOAuthClient returns a client that registered itself
	// (ENOTFOUND for any other id).
	RegisteredOAuthClient(ctx context.Context, id string) (OAuthClient, error)
}
