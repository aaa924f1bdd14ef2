package api

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Sign-in back-off per account: the per-address limit stops one client,
// but a client with many addresses (or a proxy's) could still guess one
// account's password at full speed. After freeFailures wrong passwords in
// a row an account refuses further attempts for a delay that doubles with
// each failure, up to maxBackoff; a right password clears it.
const (
	freeFailures   = 5
	firstBackoff   = time.Second
	maxBackoff     = 15 * time.Minute
	forgetFailures = time.Hour // failures this old no longer count
)

// signInGuard wraps ConsoleAuth's password check with the per-account
// back-off; every other method passes through.
type signInGuard struct {
	ConsoleAuth
	now func() time.Time

	mu       sync.Mutex
	accounts map[string]*strikes
}

type strikes struct {
	failures int
	last     time.Time
	until    time.Time // no attempt before this
}

func newSignInGuard(inner ConsoleAuth, now func() time.Time) *signInGuard {
	return &signInGuard{ConsoleAuth: inner, now: now, accounts: map[string]*strikes{}}
}

func (g *signInGuard) Login(ctx context.Context, name, password string) (*appliance.ConsoleSession, string, error) {
	account := strings.ToLower(strings.TrimSpace(name))
	if wait := g.wait(account); wait > 0 {
		return nil, "", appliance.Errorf(appliance.ERATELIMIT, "Too many wrong passwords for this account. Try again in %ds.", int(math.Ceil(wait.Seconds())))
	}
	sess, token, err := g.ConsoleAuth.Login(ctx, name, password)
	switch {
	case err == nil:
		g.mu.Lock()
		delete(g.accounts, account)
		g.mu.Unlock()
	case appliance.ErrorCode(err) == appliance.EUNAUTHORIZED:
		g.fail(account)
	}
	return sess, token, err
}

func (g *signInGuard) wait(account string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.accounts[account]
	if s == nil {
		return 0
	}
	return s.until.Sub(g.now())
}

func (g *signInGuard) fail(account string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if len(g.accounts) > 10000 {
		g.prune(now)
	}
	s := g.accounts[account]
	if s == nil || now.Sub(s.last) >= forgetFailures {
		s = &strikes{}
		g.accounts[account] = s
	}
	s.failures++
	s.last = now
	if over := s.failures - freeFailures; over > 0 {
		d := maxBackoff
		if over < 20 {
			d = min(maxBackoff, firstBackoff<<(over-1))
		}
		s.until = now.Add(d)
	}
}

// prune forgets accounts whose failures no longer count, so guesses at
// made-up names cannot grow the map without bound.
func (g *signInGuard) prune(now time.Time) {
	for k, s := range g.accounts {
		if now.Sub(s.last) >= forgetFailures && !now.Before(s.until) {
			delete(g.accounts, k)
		}
	}
}
