package console

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
)

// HouseholdStore is what managing the household keeps, beyond sign-in.
type HouseholdStore interface {
	Store
	User(ctx context.Context, id string) (*appliance.User, error)
	Members(ctx context.Context, now time.Time) ([]*appliance.Member, error)
	DeleteUser(ctx context.Context, userID string) error
	CreateSignInCode(ctx context.Context, c *appliance.SignInCode) error
	RedeemSignInCode(ctx context.Context, codeHash, passwordHash string, now time.Time) (string, error)
	ClearConsolePassword(ctx context.Context, userID string) error
	RecordAudit(ctx context.Context, e *appliance.AuditEntry) error
	AuditLog(ctx context.Context, limit int) ([]*appliance.AuditEntry, error)
}

// CodeLifetime is how long an invite or reset code works: long enough to
// reach a member who is away for the weekend, short enough that a code
// written on a note stops mattering.
const CodeLifetime = 7 * 24 * time.Hour

// Refusals of household management, worded for the console.
var (
	ErrBadInvite     = appliance.Errorf(appliance.EUNAUTHORIZED, "That code is not right, was used already or has expired: ask the owner for a new one")
	ErrNotClaimed    = appliance.Errorf(appliance.ECONFLICT, "Nobody owns this appliance yet: claim it with the setup code first")
	ErrOwnerStays    = appliance.Errorf(appliance.ECONFLICT, "The owner cannot be removed: hand the appliance to another member first")
	ErrNoName        = appliance.Errorf(appliance.EINVALID, "A member needs a name (1 to 80 characters)")
	ErrNameTaken     = appliance.Errorf(appliance.ECONFLICT, "A member of that name exists already: names are what people sign in with")
	ErrNotSignedUp   = appliance.Errorf(appliance.ECONFLICT, "That member has not set a password yet: the appliance can only go to someone who can sign in")
	ErrSignedUp      = appliance.Errorf(appliance.ECONFLICT, "That member has a password already: reset it instead (hearth users reset)")
	ErrOwnPassword   = appliance.Errorf(appliance.ECONFLICT, "The owner's own password is reset from the command line (hearth users passwd)")
	ErrAlreadyOwner  = appliance.Errorf(appliance.ECONFLICT, "That member owns the appliance already")
	ErrMemberUnknown = appliance.Errorf(appliance.ENOTFOUND, "No member by that id")
)

// Actor is who asks for a household change: a signed-in user, or the
// command line (the zero Actor), which is whoever holds the data folder.
type Actor struct {
	UserID string
}

// Household manages the members of an appliance: invites and reset codes,
// removal, the hand-over of ownership, and the audit trail of every
// appliance-wide change. Who may ask is the caller's check (the API lets
// only the owner's session in; the shell is the box's keeper).
type Household struct {
	*Service
	Store HouseholdStore
}

// NewHousehold manages the household of store's appliance.
func NewHousehold(store HouseholdStore, now func() time.Time) *Household {
	return &Household{Service: &Service{Store: store, Now: now}, Store: store}
}

// Role is the user's part in the household.
func (h *Household) Role(ctx context.Context, userID string) (appliance.Role, error) {
	owner, err := h.Owner(ctx)
	if err != nil {
		return "", err
	}
	if owner != "" && owner == userID {
		return appliance.RoleOwner, nil
	}
	return appliance.RoleMember, nil
}

// Members lists the household, the owner marked.
func (h *Household) Members(ctx context.Context) ([]*appliance.Member, error) {
	owner, err := h.Owner(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := h.Store.Members(ctx, h.now())
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.ID == owner {
			m.Role = appliance.RoleOwner
		}
	}
	return ms, nil
}

// Invite adds a member by name and returns their one-time invite code:
// with it they choose their password and are signed in.
func (h *Household) Invite(ctx context.Context, by Actor, name string) (*appliance.User, string, time.Time, error) {
	if _, err := h.claimedOwner(ctx); err != nil {
		return nil, "", time.Time{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 80 {
		return nil, "", time.Time{}, ErrNoName
	}
	users, err := h.Store.Users(ctx)
	if err != nil {
		return nil, "", time.Time{}, err
	}
	for _, u := range users {
		if strings.EqualFold(u.Name, name) {
			return nil, "", time.Time{}, ErrNameTaken
		}
	}
	u := &appliance.User{ID: uuid.NewString(), Name: name, CreatedAt: h.now()}
	if err := h.Store.CreateUser(ctx, u); err != nil {
		return nil, "", time.Time{}, err
	}
	code, expires, err := h.newCode(ctx, u.ID, appliance.CodeInvite)
	if err != nil {
		return nil, "", time.Time{}, err
	}
	return u, code, expires, h.Audit(ctx, by, "member invited", name, false)
}

// InviteExisting makes a new invite code for a member who cannot sign in
// yet (one made with `users add`, or whose invite expired): the command
// line's `users invite --user`.
func (h *Household) InviteExisting(ctx context.Context, by Actor, userID string) (string, time.Time, error) {
	u, err := h.member(ctx, userID)
	if err != nil {
		return "", time.Time{}, err
	}
	if owner, err := h.claimedOwner(ctx); err != nil {
		return "", time.Time{}, err
	} else if owner == u.ID {
		return "", time.Time{}, ErrOwnPassword
	}
	if pw, err := h.Store.ConsolePassword(ctx, u.ID); err != nil {
		return "", time.Time{}, err
	} else if pw != "" {
		return "", time.Time{}, ErrSignedUp
	}
	code, expires, err := h.newCode(ctx, u.ID, appliance.CodeInvite)
	if err != nil {
		return "", time.Time{}, err
	}
	return code, expires, h.Audit(ctx, by, "member invited", u.Name, false)
}

// ResetPassword ends a member's password and browsers at once and returns
// the one-time code with which they choose a new one. The owner's own is
// not reset this way: nobody would be left to hand out codes.
func (h *Household) ResetPassword(ctx context.Context, by Actor, userID string) (string, time.Time, error) {
	u, err := h.member(ctx, userID)
	if err != nil {
		return "", time.Time{}, err
	}
	if owner, err := h.claimedOwner(ctx); err != nil {
		return "", time.Time{}, err
	} else if owner == u.ID {
		return "", time.Time{}, ErrOwnPassword
	}
	if err := h.Store.ClearConsolePassword(ctx, u.ID); err != nil {
		return "", time.Time{}, err
	}
	code, expires, err := h.newCode(ctx, u.ID, appliance.CodeReset)
	if err != nil {
		return "", time.Time{}, err
	}
	return code, expires, h.Audit(ctx, by, "password reset", u.Name, false)
}

// Remove deletes a member and everything of theirs. The owner stays.
func (h *Household) Remove(ctx context.Context, by Actor, userID string) error {
	u, err := h.member(ctx, userID)
	if err != nil {
		return err
	}
	if owner, err := h.Owner(ctx); err != nil {
		return err
	} else if owner == u.ID {
		return ErrOwnerStays
	}
	if err := h.Store.DeleteUser(ctx, u.ID); err != nil {
		return err
	}
	return h.Audit(ctx, by, "member removed", u.Name, false)
}

// TransferOwner hands the appliance to another member who can sign in;
// the former owner becomes a member.
func (h *Household) TransferOwner(ctx context.Context, by Actor, userID string) error {
	u, err := h.member(ctx, userID)
	if err != nil {
		return err
	}
	owner, err := h.claimedOwner(ctx)
	if err != nil {
		return err
	}
	if owner == u.ID {
		return ErrAlreadyOwner
	}
	if pw, err := h.Store.ConsolePassword(ctx, u.ID); err != nil {
		return err
	} else if pw == "" {
		return ErrNotSignedUp
	}
	if err := h.Store.SetSetting(ctx, ownerKey, u.ID); err != nil {
		return err
	}
	return h.Audit(ctx, by, "ownership transferred", u.Name, false)
}

// Redeem uses an invite or reset code: the member's password becomes
// password, and a session starts.
func (h *Household) Redeem(ctx context.Context, code, password string) (*appliance.ConsoleSession, string, error) {
	if utf8.RuneCountInString(password) < 10 {
		return nil, "", ErrWeakPassword
	}
	pw, err := hashPassword(password)
	if err != nil {
		return nil, "", err
	}
	userID, err := h.Store.RedeemSignInCode(ctx, hash(normalizeCode(code)), pw, h.now())
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, "", ErrBadInvite
	}
	if err != nil {
		return nil, "", err
	}
	if err := h.Audit(ctx, Actor{UserID: userID}, "password set with a code", "", false); err != nil {
		return nil, "", err
	}
	return h.startSession(ctx, userID)
}

// Audit records an appliance-wide change (or a refused attempt at one).
func (h *Household) Audit(ctx context.Context, by Actor, action, target string, refused bool) error {
	e := &appliance.AuditEntry{At: h.now(), UserID: by.UserID, Action: action, Target: target, Refused: refused}
	if by.UserID == "" {
		e.UserName = "command line"
	} else if u, err := h.Store.User(ctx, by.UserID); err == nil {
		e.UserName = u.Name
	} else if appliance.ErrorCode(err) != appliance.ENOTFOUND {
		return err
	}
	return h.Store.RecordAudit(ctx, e)
}

// AuditLog is the newest lines of the audit trail, newest first.
func (h *Household) AuditLog(ctx context.Context, limit int) ([]*appliance.AuditEntry, error) {
	return h.Store.AuditLog(ctx, limit)
}

// claimedOwner is the owner's id, or ErrNotClaimed: before the claim no
// code may be handed out, since the first password set would decide who
// owns the appliance.
func (h *Household) claimedOwner(ctx context.Context) (string, error) {
	owner, err := h.Owner(ctx)
	if err == nil && owner == "" {
		err = ErrNotClaimed
	}
	return owner, err
}

func (h *Household) member(ctx context.Context, userID string) (*appliance.User, error) {
	u, err := h.Store.User(ctx, userID)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, ErrMemberUnknown
	}
	return u, err
}

func (h *Household) newCode(ctx context.Context, userID string, kind appliance.SignInCodeKind) (string, time.Time, error) {
	code := digitCode()
	now := h.now()
	c := &appliance.SignInCode{Hash: hash(code), UserID: userID, Kind: kind, CreatedAt: now, ExpiresAt: now.Add(CodeLifetime)}
	if err := h.Store.CreateSignInCode(ctx, c); err != nil {
		return "", time.Time{}, err
	}
	return code, c.ExpiresAt, nil
}

// normalizeCode accepts a code typed with spaces or without its dashes.
func normalizeCode(code string) string {
	var digits strings.Builder
	for _, r := range code {
		if r >= '0' && r <= '9' {
			if n := digits.Len(); n > 0 && (n+1)%5 == 0 {
				digits.WriteByte('-')
			}
			digits.WriteRune(r)
		}
	}
	return digits.String()
}
