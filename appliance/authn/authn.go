// Package authn is the appliance's one credential check: it turns a
// presented credential (an API key, an OAuth access token, an ID token of
// this appliance or, when configured, a Firebase ID token of a bound
// account) into an appliance.Principal. Every surface (the developer API, the MCP
// endpoint and its REST twins, the owner's ID-token routes) calls it once
// per request. Nothing is cached here; the store answers a key it read
// within the last second from memory but forgets every key, in every
// process on the database, when one is revoked or its user removed, so a
// revoked key or grant is still refused on its next request.
package authn

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Store is what authentication reads (and the one thing it writes: when a
// key was last used).
type Store interface {
	KeyByHash(ctx context.Context, hash string) (*appliance.Key, error)
	TouchKey(ctx context.Context, keyID string, at time.Time) error
	TokenGrant(ctx context.Context, hash, kind string, now time.Time) (*appliance.OAuthGrant, error)
	User(ctx context.Context, id string) (*appliance.User, error)
	// FirebaseUser is the user a Firebase uid is bound to (ENOTFOUND:
	// none).
	FirebaseUser(ctx context.Context, firebaseUID string) (string, error)
}

// TokenVerifier checks ID tokens and returns the user id.
type TokenVerifier interface {
	Verify(token string) (string, error)
}

// FirebaseVerifier checks Firebase ID tokens (appliance/firebaseauth) and
// returns the Firebase uid; an expired token's error wraps
// appliance.ErrExpiredToken.
type FirebaseVerifier interface {
	Verify(ctx context.Context, token string) (firebaseUID string, err error)
}

// ErrInvalid is the refusal of a credential that does not authenticate:
// unknown, malformed, revoked, expired, or of a user who no longer exists.
// Its message names no reason, so that probing learns nothing.
var ErrInvalid = appliance.Errorf(appliance.EUNAUTHORIZED, "Invalid credential")

// ErrExpired is the refusal of an ID token that was valid but has expired;
// surfaces that can tell a client to refresh (the live socket's 4001) look
// for it.
var ErrExpired = appliance.Errorf(appliance.EUNAUTHORIZED, "Token expired")

// ErrUnbound is the refusal of a valid Firebase ID token whose Firebase
// account no user is bound to; the live sockets name the fix in their
// close reason.
var ErrUnbound = appliance.Errorf(appliance.EUNAUTHORIZED, "Firebase account not bound")

// unboundLogEvery spaces the log lines that name an unbound Firebase uid:
// the app reconnects every few seconds.
const unboundLogEvery = 10 * time.Minute

// touchEvery bounds how often a key's last_used_at is written: reads stay
// reads, and a busy key costs one write a minute.
const touchEvery = time.Minute

// touchTimeout bounds one last-use write, so that Close never hangs on a
// busy database.
const touchTimeout = 5 * time.Second

// Authenticator implements the credential check.
type Authenticator struct {
	store    Store
	tokens   TokenVerifier
	firebase FirebaseVerifier
	log      *slog.Logger
	now      func() time.Time

	mu      sync.Mutex
	touched map[string]time.Time
	unbound map[string]time.Time // Firebase uid → when it was last logged
	bg      sync.WaitGroup
}

// New returns an authenticator. tokens may be nil when no ID-token surface
// is served; now nil means time.Now.
func New(store Store, tokens TokenVerifier, logger *slog.Logger, now func() time.Time) *Authenticator {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	return &Authenticator{store: store, tokens: tokens, log: logger, now: now, touched: map[string]time.Time{}, unbound: map[string]time.Time{}}
}

// WithFirebase makes Firebase ID tokens authenticate as the user their
// account is bound to, wherever an ID token does. Call it before the
// first Authenticate.
func (a *Authenticator) WithFirebase(v FirebaseVerifier) *Authenticator {
	a.firebase = v
	return a
}

// Authenticate checks credential and returns who it acts for. The family
// is read from the credential's prefix; a credential without a Hearth
// prefix is taken as an ID token. Failures are ErrInvalid; other errors
// (the store is down) are returned as they are.
func (a *Authenticator) Authenticate(ctx context.Context, credential string) (appliance.Principal, error) {
	if credential == "" {
		return appliance.Principal{}, ErrInvalid
	}
	switch kind := appliance.CredentialKind(credential); kind {
	case appliance.PrincipalDev, appliance.PrincipalMCP, appliance.PrincipalSTT:
		return a.key(ctx, credential)
	case appliance.PrincipalOAuth:
		return a.accessToken(ctx, credential)
	default:
		return a.idToken(ctx, credential)
	}
}

func (a *Authenticator) key(ctx context.Context, raw string) (appliance.Principal, error) {
	family, hash, ok := appliance.ParseKey(raw)
	if !ok {
		return appliance.Principal{}, ErrInvalid
	}
	key, err := a.store.KeyByHash(ctx, hash)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return appliance.Principal{}, ErrInvalid
	} else if err != nil {
		return appliance.Principal{}, err
	}
	// The index lookup already matched; the constant-time compare keeps the
	// decision itself free of timing differences.
	if subtle.ConstantTimeCompare([]byte(key.Hash), []byte(hash)) != 1 || key.RevokedAt != nil || key.Kind != family {
		return appliance.Principal{}, ErrInvalid
	}
	a.touch(key.ID)
	kind := appliance.PrincipalDev
	switch family {
	case appliance.KeyKindMCP:
		kind = appliance.PrincipalMCP
	case appliance.KeyKindSTT:
		kind = appliance.PrincipalSTT
	}
	return appliance.Principal{UserID: key.UserID, Kind: kind, Scopes: key.Scopes, CredentialID: key.ID}, nil
}

func (a *Authenticator) accessToken(ctx context.Context, raw string) (appliance.Principal, error) {
	g, err := a.store.TokenGrant(ctx, appliance.HashToken(raw), "access", a.now().UTC())
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return appliance.Principal{}, ErrInvalid
	} else if err != nil {
		return appliance.Principal{}, err
	}
	return appliance.Principal{UserID: g.UserID, Kind: appliance.PrincipalOAuth, Scopes: g.Scopes, CredentialID: g.ID}, nil
}

// idToken tries this appliance's own ID tokens, then Firebase's when
// configured. A token either verifier finds expired is ErrExpired.
func (a *Authenticator) idToken(ctx context.Context, raw string) (appliance.Principal, error) {
	var err error
	if a.tokens != nil {
		var uid string
		if uid, err = a.tokens.Verify(raw); err == nil {
			return a.user(ctx, uid)
		}
		if errors.Is(err, appliance.ErrExpiredToken) {
			return appliance.Principal{}, ErrExpired
		}
	}
	if a.firebase != nil {
		return a.firebaseToken(ctx, raw)
	}
	if err != nil {
		a.log.Debug("id token refused", "err", err)
	}
	return appliance.Principal{}, ErrInvalid
}

// user is the principal of an ID token's user, who must still exist: a
// deleted user's tokens stop working.
func (a *Authenticator) user(ctx context.Context, uid string) (appliance.Principal, error) {
	if _, err := a.store.User(ctx, uid); appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return appliance.Principal{}, ErrInvalid
	} else if err != nil {
		return appliance.Principal{}, err
	}
	return appliance.Principal{UserID: uid, Kind: appliance.PrincipalIDToken}, nil
}

// firebaseToken authenticates a Firebase ID token as the user its account
// is bound to.
func (a *Authenticator) firebaseToken(ctx context.Context, raw string) (appliance.Principal, error) {
	fuid, err := a.firebase.Verify(ctx, raw)
	if errors.Is(err, appliance.ErrExpiredToken) {
		return appliance.Principal{}, ErrExpired
	}
	if err != nil {
		a.log.Debug("id token refused", "err", err)
		return appliance.Principal{}, ErrInvalid
	}
	uid, err := a.store.FirebaseUser(ctx, fuid)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		a.logUnbound(fuid)
		return appliance.Principal{}, ErrUnbound
	} else if err != nil {
		return appliance.Principal{}, err
	}
	return a.user(ctx, uid)
}

// logUnbound tells the owner which Firebase uid to bind (the uid is no
// secret; the token is never logged), at most once per unboundLogEvery
// for each uid.
func (a *Authenticator) logUnbound(fuid string) {
	now := a.now()
	a.mu.Lock()
	if now.Sub(a.unbound[fuid]) < unboundLogEvery {
		a.mu.Unlock()
		return
	}
	if len(a.unbound) >= 1000 {
		clear(a.unbound) // a flood of distinct uids is not worth remembering
	}
	a.unbound[fuid] = now
	a.mu.Unlock()
	a.log.Warn("a valid Firebase ID token names an account bound to no user; hearth users bind-firebase lets it in",
		"firebase_uid", fuid)
}

// touch records a key's use at most once per touchEvery, off the request
// path.
func (a *Authenticator) touch(keyID string) {
	now := a.now()
	a.mu.Lock()
	if now.Sub(a.touched[keyID]) < touchEvery {
		a.mu.Unlock()
		return
	}
	a.touched[keyID] = now
	a.mu.Unlock()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), touchTimeout)
		defer cancel()
		if err := a.store.TouchKey(ctx, keyID, now); err != nil {
			a.log.Warn("record key use", "key_id", keyID, "err", err)
		}
	}()
}

// Close waits for pending last-use writes (each bounded by touchTimeout);
// call it before closing the store.
func (a *Authenticator) Close() { a.bg.Wait() }
