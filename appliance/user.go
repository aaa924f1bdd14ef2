package appliance

import (
	"os"
	"slices"
	"strings"
	"time"
)

// User is an owner or member of the household whose conversations Hearth keeps.
type User struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"time_zone"` // IANA name; "" means the appliance's local zone
	CreatedAt time.Time `json:"created_at"`
}

// KeyKind is the family of an API key.
type KeyKind string

// Key families. Each authenticates only its own surface.
const (
	KeyKindDev KeyKind = "dev"
	KeyKindMCP KeyKind = "mcp"
	// KeyKindSTT is a device key: it opens only the live-audio sockets
	// (/v4/listen and /v1/custom-stt) and OpenAI's speech API (/v1/audio/),
	// what a wearable, a script or a phone app's custom-STT setting holds,
	// so that the owner's ID token never sits in it.
	KeyKindSTT KeyKind = "stt"
)

// Key prefixes: prefix + 32 lowercase hex characters.
const (
	DevKeyPrefix = "hearth_dev_"
	MCPKeyPrefix = "hearth_mcp_"
	STTKeyPrefix = "hearth_stt_"
)

// Prefix returns the raw-key prefix of the family.
func (k KeyKind) Prefix() string {
	switch k {
	case KeyKindMCP:
		return MCPKeyPrefix
	case KeyKindSTT:
		return STTKeyPrefix
	}
	return DevKeyPrefix
}

// Key is an API key's stored record. The secret itself is never stored, only
// its SHA-256 hash.
type Key struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Kind       KeyKind    `json:"kind"`
	Name       string     `json:"name"`
	Hash       string     `json:"-"`
	Display    string     `json:"key_prefix"` // e.g. hearth_dev_ab12...ef90
	Scopes     []string   `json:"scopes"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
}

// HasScope reports whether the key grants scope.
func (k *Key) HasScope(scope string) bool { return slices.Contains(k.Scopes, scope) }

// Scope names, spelt as the reference's API keys carry them.
const (
	ScopeConversationsRead  = "conversations:read"
	ScopeConversationsWrite = "conversations:write"
	ScopeMemoriesRead       = "memories:read"
	ScopeMemoriesWrite      = "memories:write"
	ScopeActionItemsRead    = "action_items:read"
	ScopeActionItemsWrite   = "action_items:write"
	ScopeGoalsRead          = "goals:read"
	ScopeGoalsWrite         = "goals:write"
)

// AvailableScopes lists every scope a key may carry.
var AvailableScopes = []string{
	ScopeConversationsRead, ScopeConversationsWrite, ScopeMemoriesRead, ScopeMemoriesWrite,
	ScopeActionItemsRead, ScopeActionItemsWrite, ScopeGoalsRead, ScopeGoalsWrite,
}

// DefaultScopes is what a key gets when none are named: read-only.
var DefaultScopes = []string{ScopeConversationsRead, ScopeMemoriesRead, ScopeActionItemsRead, ScopeGoalsRead}

// ValidScopes reports whether every scope is known.
func ValidScopes(scopes []string) bool {
	for _, s := range scopes {
		if !slices.Contains(AvailableScopes, s) {
			return false
		}
	}
	return true
}

// Memory is a fact about the user (system) or wisdom from others (interesting).
type Memory struct {
	ID             string     `json:"id"`
	UserID         string     `json:"-"`
	Content        string     `json:"content"`
	Category       string     `json:"category"`
	Tags           []string   `json:"tags"`
	Visibility     Visibility `json:"visibility"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	ConversationID *string    `json:"conversation_id"`
	Reviewed       bool       `json:"reviewed"`
	UserReview     *bool      `json:"user_review"`
	ManuallyAdded  bool       `json:"manually_added"`
	Edited         bool       `json:"edited"`
	IsLocked       bool       `json:"is_locked"`
}

// Person is someone other than the user who speaks in conversations.
type Person struct {
	ID        string    `json:"id"`
	UserID    string    `json:"-"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// Folder groups conversations. System folders are the defaults every user
// gets (DefaultFolders); CategoryMapping names the conversations the
// pipeline files in one.
type Folder struct {
	ID              string    `json:"id"`
	UserID          string    `json:"-"`
	Name            string    `json:"name"`
	Description     string    `json:"description"`
	Color           string    `json:"color"`
	Icon            string    `json:"icon"`
	Order           int       `json:"order"`
	IsDefault       bool      `json:"is_default"`
	IsSystem        bool      `json:"is_system"`
	CategoryMapping string    `json:"-"`
	CreatedAt       time.Time `json:"created_at"`
}

// Location is the user's time zone, for reading and resolving dates: their
// own when set and known to this machine's zone database, else the
// appliance's local zone.
func (u *User) Location() *time.Location {
	if u != nil && u.TimeZone != "" {
		if loc, err := time.LoadLocation(u.TimeZone); err == nil {
			return loc
		}
	}
	return time.Local
}

// ZoneName is the IANA name of Location(), for a browser to show times
// in: the user's own zone, else the appliance's when the system names it
// ($TZ, or the zone file /etc/localtime links to); "" when it does not.
func (u *User) ZoneName() string {
	if u != nil && u.TimeZone != "" {
		if _, err := time.LoadLocation(u.TimeZone); err == nil {
			return u.TimeZone
		}
	}
	name := strings.TrimPrefix(os.Getenv("TZ"), ":")
	if name == "" {
		if link, err := os.Readlink("/etc/localtime"); err == nil {
			if _, after, ok := strings.Cut(link, "zoneinfo/"); ok {
				name = after
			}
		}
	}
	if _, err := time.LoadLocation(name); name == "" || err != nil {
		return ""
	}
	return name
}

// DisplayName is how the user's own speech is labelled: their name, or
// "User" when they have none.
func (u *User) DisplayName() string {
	if u == nil || u.Name == "" {
		return "User"
	}
	return u.Name
}

// ConsoleSession is a signed-in browser: the SHA-256 of its cookie's token
// (the token itself is never stored), and the CSRF token its
// state-changing requests must echo.
type ConsoleSession struct {
	TokenHash string
	UserID    string
	CSRF      string
	CreatedAt time.Time
	ExpiresAt time.Time
}
