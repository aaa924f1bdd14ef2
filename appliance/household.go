package appliance

import "time"

// Role is a user's part in the household. The owner claimed the appliance
// (or was handed it) and alone changes what is the whole box's: speech
// routes and provider keys, models, the log, the data folder, backups and
// the members. Members keep their own conversations, as every user does.
type Role string

// Roles.
const (
	RoleOwner  Role = "owner"
	RoleMember Role = "member"
)

// Member is a user as the owner's household list shows them.
type Member struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Role      Role      `json:"role"`
	CreatedAt time.Time `json:"created_at"`
	// CanSignIn: the member has a console password.
	CanSignIn bool `json:"can_sign_in"`
	// CodeExpiresAt is when the member's unused invite or reset code
	// stops working (nil when none is outstanding).
	CodeExpiresAt *time.Time `json:"code_expires_at"`
}

// SignInCodeKind is what a one-time sign-in code is for.
type SignInCodeKind string

// Code kinds: an invite lets a new member set their first password; a
// reset lets one who forgot it set another. Either is used once.
const (
	CodeInvite SignInCodeKind = "invite"
	CodeReset  SignInCodeKind = "reset"
)

// SignInCode is a one-time code's stored record: only its SHA-256 is kept.
type SignInCode struct {
	Hash      string
	UserID    string
	Kind      SignInCodeKind
	CreatedAt time.Time
	ExpiresAt time.Time
}

// AuditEntry is one line of the appliance's audit trail: who changed (or
// tried to change) which appliance-wide setting, and when.
type AuditEntry struct {
	ID int64     `json:"id"`
	At time.Time `json:"at"`
	// UserID and UserName are who acted, the name as it was then (a
	// removed member's lines stay readable); both empty for the command
	// line, which is whoever holds the data folder.
	UserID   string `json:"user_id"`
	UserName string `json:"user_name"`
	// Action is what was done, e.g. "speech key set"; Target what it was
	// done to, e.g. "deepgram" or a member's name.
	Action string `json:"action"`
	Target string `json:"target"`
	// Refused: the attempt was turned away (a member trying an owner's
	// setting).
	Refused bool `json:"refused"`
}
