package appliance

import (
	"context"
	"errors"
	"strings"
)

// ErrExpiredToken is wrapped by a token verifier's error when a token was
// valid but has expired: a client should get a fresh one and reconnect.
var ErrExpiredToken = errors.New("token expired")

// PrincipalKind is how a request proved who it acts for.
type PrincipalKind string

// Principal kinds: the two API key families, an OAuth access token of an
// assistant connector, and an ID token (the owner's own apps and console):
// one from this appliance's identity provider, or a Firebase ID token of
// an account the owner bound to a user.
const (
	PrincipalDev     PrincipalKind = "dev"
	PrincipalMCP     PrincipalKind = "mcp"
	PrincipalOAuth   PrincipalKind = "oauth"
	PrincipalIDToken PrincipalKind = "id_token"
	// PrincipalSTT is a device key (hearth_stt_…): it opens the two
	// live-audio sockets, /v4/listen and /v1/custom-stt, and OpenAI's
	// speech API (/v1/audio/transcriptions and translations), nothing else.
	PrincipalSTT PrincipalKind = "stt"
)

// Principal is an authenticated caller: the user it acts for, how it
// authenticated and what it may do. ID tokens carry no scopes: they are the
// owner and may do everything.
type Principal struct {
	UserID string
	Kind   PrincipalKind
	Scopes []string
	// CredentialID is the API key's or OAuth grant's id; rate limits that
	// the reference counts per key use it. Empty for ID tokens.
	CredentialID string
}

// Can reports whether the principal may use scope. API keys spell scopes
// with a colon (memories:read) and OAuth with a dot (memories.read); both
// name the same permission. An empty scope is always allowed.
func (p Principal) Can(scope string) bool {
	if scope == "" || p.Kind == PrincipalIDToken {
		return true
	}
	want := strings.ReplaceAll(scope, ":", ".")
	for _, g := range p.Scopes {
		if strings.ReplaceAll(g, ":", ".") == want {
			return true
		}
	}
	return false
}

// RateSubject is what per-credential rate limits count against: the key or
// grant when there is one, else the user.
func (p Principal) RateSubject() string {
	if p.CredentialID != "" {
		return string(p.Kind) + ":" + p.CredentialID
	}
	return "user:" + p.UserID
}

// CredentialKind tells, from its prefix alone, which family a credential
// claims to be, without checking it: a dev or MCP key, an OAuth access
// token, or (anything else) an ID token. Surfaces use it to answer a
// credential of the wrong family with a message that says which one they
// need.
func CredentialKind(credential string) PrincipalKind {
	switch {
	case strings.HasPrefix(credential, DevKeyPrefix):
		return PrincipalDev
	case strings.HasPrefix(credential, MCPKeyPrefix):
		return PrincipalMCP
	case strings.HasPrefix(credential, STTKeyPrefix):
		return PrincipalSTT
	case strings.HasPrefix(credential, OAuthAccessTokenPrefix):
		return PrincipalOAuth
	}
	return PrincipalIDToken
}

// OAuth token prefixes: access tokens live an hour, refresh tokens 30 days.
const (
	OAuthAccessTokenPrefix  = "hearth_oat_"
	OAuthRefreshTokenPrefix = "hearth_ort_"
)

// ParseAuthorization is the one reader of an Authorization header. It
// returns the credential of "Bearer X" (scheme case-insensitive) with
// bearer=true. With allowBare, a header that is a single token of a
// self-describing family (an MCP key or an OAuth access token, as MCP
// clients of the reference send them) is accepted too, with bearer=false.
func ParseAuthorization(header string, allowBare bool) (credential string, ok bool) {
	h := strings.TrimSpace(header)
	const p = "Bearer "
	if len(h) >= len(p) && strings.EqualFold(h[:len(p)], p) {
		c := strings.TrimSpace(h[len(p):])
		return c, c != ""
	}
	if allowBare && len(strings.Fields(h)) == 1 {
		if k := CredentialKind(h); k == PrincipalMCP || k == PrincipalOAuth {
			return h, true
		}
	}
	return "", false
}

type principalKey struct{}

// NewContextWithPrincipal returns ctx carrying p.
func NewContextWithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFromContext returns the principal authenticated for ctx's
// request, if any.
func PrincipalFromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok && p.UserID != ""
}
