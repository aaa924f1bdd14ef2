// Package console is signing in to the web console: the one-time setup
// code that lets the first person on the LAN claim the appliance, owners'
// passwords, and browser sessions (a cookie and a CSRF token). Nobody
// pastes a token into the console.
package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
)

// Store is what the console's sign-in keeps.
type Store interface {
	Setting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
	Users(ctx context.Context) ([]*appliance.User, error)
	CreateUser(ctx context.Context, u *appliance.User) error
	SetConsolePassword(ctx context.Context, userID, hash string, at time.Time) error
	ConsolePassword(ctx context.Context, userID string) (string, error)
	HasConsolePasswords(ctx context.Context) (bool, error)
	CreateConsoleSession(ctx context.Context, s *appliance.ConsoleSession) error
	ConsoleSession(ctx context.Context, tokenHash string, now time.Time) (*appliance.ConsoleSession, error)
	DeleteConsoleSession(ctx context.Context, tokenHash string) error
}

// SessionLifetime is how long a sign-in lasts.
const SessionLifetime = 30 * 24 * time.Hour

const setupCodeKey = "console_setup_code"

// ownerKey names the user who claimed the appliance with the setup code.
const ownerKey = "console_owner"

// Refusals, worded for the sign-in page.
var (
	ErrBadCode        = appliance.Errorf(appliance.EUNAUTHORIZED, "The setup code is not right (hearth serve printed it when it started)")
	ErrClaimed        = appliance.Errorf(appliance.ECONFLICT, "This appliance already has an owner: sign in instead")
	ErrBadCredentials = appliance.Errorf(appliance.EUNAUTHORIZED, "Wrong name or password")
	ErrWeakPassword   = appliance.Errorf(appliance.EINVALID, "The password must be at least 10 characters")
	ErrNoSession      = appliance.Errorf(appliance.EUNAUTHORIZED, "Not signed in")
)

// Service signs owners in.
type Service struct {
	Store Store
	Now   func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func hash(v string) string {
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:])
}

func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// digitCode is a one-time code: four groups of four random digits, easy
// to type from a terminal or a note into a phone (53 bits; sign-in
// attempts are rate-limited).
func digitCode() string {
	var digits strings.Builder
	for n := 0; n < 16; {
		var b [1]byte
		rand.Read(b[:])
		if b[0] >= 250 { // 250 = 25×10: keep every digit equally likely
			continue
		}
		if n > 0 && n%4 == 0 {
			digits.WriteByte('-')
		}
		digits.WriteByte('0' + b[0]%10)
		n++
	}
	return digits.String()
}

// SetupCode makes a new one-time setup code while nobody can sign in yet
// ("" once someone can): serve prints it at start, and only the person
// who can read that output can claim the appliance. Only its hash is kept.
func (s *Service) SetupCode(ctx context.Context) (string, error) {
	claimed, err := s.Store.HasConsolePasswords(ctx)
	if err != nil || claimed {
		return "", err
	}
	code := digitCode()
	if err := s.Store.SetSetting(ctx, setupCodeKey, hash(code)); err != nil {
		return "", err
	}
	return code, nil
}

// Claimed reports whether anyone can sign in yet.
func (s *Service) Claimed(ctx context.Context) (bool, error) { return s.Store.HasConsolePasswords(ctx) }

// Setup claims the appliance with the setup code: the user named name
// (made now when there is none) gets the password, and a session starts.
// The code then stops working.
func (s *Service) Setup(ctx context.Context, code, name, password string) (*appliance.ConsoleSession, string, error) {
	if claimed, err := s.Store.HasConsolePasswords(ctx); err != nil {
		return nil, "", err
	} else if claimed {
		return nil, "", ErrClaimed
	}
	want, err := s.Store.Setting(ctx, setupCodeKey)
	if err != nil {
		return nil, "", err
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(hash(strings.TrimSpace(code))), []byte(want)) != 1 {
		return nil, "", ErrBadCode
	}
	if utf8.RuneCountInString(password) < 10 {
		return nil, "", ErrWeakPassword
	}
	owner, err := s.claimant(ctx, strings.TrimSpace(name))
	if err != nil {
		return nil, "", err
	}
	if err := s.SetPassword(ctx, owner.ID, password); err != nil {
		return nil, "", err
	}
	if err := s.Store.SetSetting(ctx, ownerKey, owner.ID); err != nil {
		return nil, "", err
	}
	if err := s.Store.SetSetting(ctx, setupCodeKey, ""); err != nil {
		return nil, "", err
	}
	return s.startSession(ctx, owner.ID)
}

// claimant is the user a claim makes the owner: the one named name (the
// oldest of that name, matched as sign-in matches), or a new one. The name
// is what the claimant signs in with next, so claiming as "Ada Owner"
// after `hearth users add --name "Ada Lovelace"` makes Ada Owner, not the
// user made earlier. Without a name (an API call that gives none) it is
// the oldest user, or a new "Owner".
func (s *Service) claimant(ctx context.Context, name string) (*appliance.User, error) {
	users, err := s.Store.Users(ctx)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if name == "" || strings.EqualFold(u.Name, name) {
			return u, nil
		}
	}
	if name == "" {
		name = "Owner"
	}
	owner := &appliance.User{ID: uuid.NewString(), Name: name, CreatedAt: s.now()}
	if err := s.Store.CreateUser(ctx, owner); err != nil {
		return nil, err
	}
	return owner, nil
}

// Owner returns the id of the user who claimed the appliance ("" while
// nobody has). Some things are the whole box's, not one user's (a backup
// holds every user's data), and only the owner gets them. An appliance
// claimed before the owner was recorded, or given passwords only from the
// shell, has its oldest user as owner: the one Setup would have chosen.
func (s *Service) Owner(ctx context.Context) (string, error) {
	id, err := s.Store.Setting(ctx, ownerKey)
	if err != nil || id != "" {
		return id, err
	}
	if claimed, err := s.Store.HasConsolePasswords(ctx); err != nil || !claimed {
		return "", err
	}
	users, err := s.Store.Users(ctx)
	if err != nil || len(users) == 0 {
		return "", err
	}
	return users[0].ID, nil
}

// SetPassword sets a user's password (and signs their browsers out).
func (s *Service) SetPassword(ctx context.Context, userID, password string) error {
	if utf8.RuneCountInString(password) < 10 {
		return ErrWeakPassword
	}
	h, err := hashPassword(password)
	if err != nil {
		return err
	}
	return s.Store.SetConsolePassword(ctx, userID, h, s.now())
}

// Login signs a user in by name (or id) and password. The password is
// checked even for an unknown name, so that timing tells nothing.
func (s *Service) Login(ctx context.Context, name, password string) (*appliance.ConsoleSession, string, error) {
	users, err := s.Store.Users(ctx)
	if err != nil {
		return nil, "", err
	}
	var stored, userID string
	for _, u := range users {
		if strings.EqualFold(u.Name, strings.TrimSpace(name)) || u.ID == name {
			if h, err := s.Store.ConsolePassword(ctx, u.ID); err != nil {
				return nil, "", err
			} else if h != "" {
				stored, userID = h, u.ID
				break
			}
		}
	}
	if stored == "" {
		stored = dummyHash()
	}
	if !checkPassword(stored, password) || userID == "" {
		return nil, "", ErrBadCredentials
	}
	return s.startSession(ctx, userID)
}

// dummyHash makes a failed lookup cost what a real check costs (made on
// first use: hashing costs a fraction of a second, not to be paid by every
// command at start).
var dummyHash = sync.OnceValue(func() string {
	h, _ := hashPassword(randomToken(16))
	return h
})

func (s *Service) startSession(ctx context.Context, userID string) (*appliance.ConsoleSession, string, error) {
	token := randomToken(32)
	now := s.now()
	sess := &appliance.ConsoleSession{TokenHash: hash(token), UserID: userID, CSRF: randomToken(16), CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	if err := s.Store.CreateConsoleSession(ctx, sess); err != nil {
		return nil, "", err
	}
	return sess, token, nil
}

// Session returns the live session of a cookie's token.
func (s *Service) Session(ctx context.Context, token string) (*appliance.ConsoleSession, error) {
	if token == "" {
		return nil, ErrNoSession
	}
	sess, err := s.Store.ConsoleSession(ctx, hash(token), s.now())
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, ErrNoSession
	}
	return sess, err
}

// Logout ends the session of a cookie's token.
func (s *Service) Logout(ctx context.Context, token string) error {
	return s.Store.DeleteConsoleSession(ctx, hash(token))
}
