package api

import (
	"context"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Store is what handlers read themselves (records, conversations, people)
// and the writes that are the handlers' own: keys and OAuth. Every write of
// a record goes through records.Service, conversation state changes through
// Conversations, credentials through Authenticator.
type Store interface {
	User(ctx context.Context, id string) (*appliance.User, error)
	// FirebaseUser is the user a Firebase uid is bound to (the live
	// socket's uid may name the account so).
	FirebaseUser(ctx context.Context, firebaseUID string) (string, error)
	// FirebaseAccounts and UnbindFirebase: the Devices page lists and
	// removes a member's own bindings.
	FirebaseAccounts(ctx context.Context) ([]appliance.FirebaseAccount, error)
	UnbindFirebase(ctx context.Context, userID, firebaseUID string) error

	// Conversations, read only.
	Conversation(ctx context.Context, userID, id string) (*appliance.Conversation, error)
	ConversationHead(ctx context.Context, userID, id string) (*appliance.Conversation, error)
	Conversations(ctx context.Context, userID string, f appliance.ConversationFilter) ([]*appliance.Conversation, error)
	ConversationsByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.Conversation, error)
	PersonNames(ctx context.Context, userID string, ids []string) (map[string]string, error)
	// People, for the console.
	Persons(ctx context.Context, userID string) ([]*appliance.Person, error)
	PersonSegments(ctx context.Context, userID string) (map[string]int, error)
	FolderNames(ctx context.Context, userID string, ids []string) (map[string]string, error)

	// Memories.
	Memories(ctx context.Context, userID string, f appliance.MemoryFilter) ([]*appliance.Memory, error)
	MemoriesByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.Memory, error)

	// Action items.
	ActionItems(ctx context.Context, userID string, f appliance.ActionItemFilter) ([]*appliance.ActionItem, error)
	ActionItemsByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.ActionItem, error)

	// Folders and goals.
	Folders(ctx context.Context, userID string) ([]*appliance.Folder, error)
	Goals(ctx context.Context, userID string, includeInactive bool, limit int) ([]*appliance.Goal, error)
	Goal(ctx context.Context, userID, id string) (*appliance.Goal, error)
	GoalHistory(ctx context.Context, userID, id string, since time.Time) ([]appliance.GoalProgress, error)

	// Keys (the owner's key management).
	CreateKey(ctx context.Context, k *appliance.Key) error
	Keys(ctx context.Context, userID string) ([]*appliance.Key, error)
	RevokeKey(ctx context.Context, userID, keyID string, at time.Time) error

	// OAuth for assistant connectors.
	CreateAuthorization(ctx context.Context, g *appliance.OAuthGrant, code *appliance.OAuthCode) error
	RedeemCode(ctx context.Context, hash string, now time.Time) (*appliance.OAuthCode, *appliance.OAuthGrant, error)
	IssueTokens(ctx context.Context, tokens []appliance.OAuthToken, replacing string, now time.Time) error
	TokenGrant(ctx context.Context, hash, kind string, now time.Time) (*appliance.OAuthGrant, error)
	RevokeToken(ctx context.Context, hash string, now time.Time) error
	RevokeReusedRefresh(ctx context.Context, hash string, now time.Time) (bool, error)
	RegisterOAuthClient(ctx context.Context, c appliance.OAuthClient, now time.Time) error
	RegisteredOAuthClient(ctx context.Context, id string) (appliance.OAuthClient, error)
	OAuthGrants(ctx context.Context, userID string) ([]*appliance.OAuthGrant, error)
	RevokeGrant(ctx context.Context, userID, grantID string, now time.Time) error

	// ConversationStarts: when each conversation a filter selects
	// started, newest first, for the console's counts per day.
	ConversationStarts(ctx context.Context, userID string, f appliance.ConversationFilter) ([]time.Time, error)

	// The console's System page.
	CountUserItems(ctx context.Context, userID string) (conversations, memories int, err error)
	DatabaseBytes() (int64, error)
	// Backup writes a consistent copy of the database to path (which must
	// not exist) while the appliance keeps serving.
	Backup(ctx context.Context, path string, progress func(done, total int)) error
}
