package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// OAuth lifetimes.
const (
	codeTTL         = 10 * time.Minute
	accessTokenTTL  = time.Hour
	refreshTokenTTL = 30 * 24 * time.Hour
)

// oauth holds the registered clients and the consent page.
type oauth struct {
	clients map[string]appliance.OAuthClient
	// consent parses the page at its first showing (nil: no templates):
	// parsing it at start took 0.3–0.6 ms of a restart's path to its
	// first answer. It is embedded, so a page that does not parse is a
	// build mistake, which the consent page's tests catch.
	consent func() (*template.Template, error)
}

func newOAuth(cfg appliance.Config, templates fs.FS) (*oauth, error) {
	cs, err := appliance.ParseOAuthClients(cfg.OAuthClients)
	if err != nil {
		return nil, err
	}
	o := &oauth{clients: map[string]appliance.OAuthClient{}}
	for _, c := range cs {
		o.clients[c.ID] = c
	}
	if templates != nil {
		o.consent = sync.OnceValues(func() (*template.Template, error) {
			return template.ParseFS(templates, "consent.html")
		})
	}
	return o, nil
}

// protectedResourcePrefix is where a resource's metadata lives, its path
// appended (RFC 9728, section 3.1).
const protectedResourcePrefix = "/.well-known/oauth-protected-resource"

// GET /.well-known/oauth-protected-resource[/v1/mcp/sse|/v1/mcp|/mcp] (RFC
// 9728): the resource is the MCP path the metadata is asked for, the
// reference's /v1/mcp/sse at the bare address.
func (s *Server) protectedResourceMetadata(c echo.Context) error {
	base := s.public.Base(c.Request())
	resource := strings.TrimPrefix(c.Request().URL.Path, protectedResourcePrefix)
	if !slices.Contains(mcpPaths, resource) {
		resource = mcpPaths[0]
	}
	return c.JSON(http.StatusOK, map[string]any{
		"resource":                 base + resource,
		"authorization_servers":    []string{base},
		"scopes_supported":         mcpOAuthScopes,
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "Hearth",
	})
}

// GET /.well-known/oauth-authorization-server (RFC 8414)
func (s *Server) authorizationServerMetadata(c echo.Context) error {
	base := s.public.Base(c.Request())
	return c.JSON(http.StatusOK, map[string]any{
		"issuer":                                     base,
		"authorization_endpoint":                     base + "/oauth/authorize",
		"token_endpoint":                             base + "/oauth/token",
		"revocation_endpoint":                        base + "/oauth/revoke",
		"registration_endpoint":                      base + "/oauth/register",
		"response_types_supported":                   []string{"code"},
		"grant_types_supported":                      []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":           []string{"S256"},
		"token_endpoint_auth_methods_supported":      []string{"none"},
		"revocation_endpoint_auth_methods_supported": []string{"none"},
		"scopes_supported":                           mcpOAuthScopes,
	})
}

// authRequest is a validated authorization request.
type authRequest struct {
	client              appliance.OAuthClient
	redirectURI, state  string
	challenge, resource string
	scopes              []string
}

// parseAuthorize validates an authorization request. Problems with the
// client or redirect URI are shown to the user (never redirected: the
// redirect target is not trusted yet); others go back to the client.
func (s *Server) parseAuthorize(ctx context.Context, v url.Values) (*authRequest, string, error) {
	client, ok, err := s.oauthClient(ctx, v.Get("client_id"))
	if err != nil {
		return nil, "", err
	} else if !ok {
		return nil, "", errBadRequest("Unknown client_id: only registered connectors may connect (see --oauth-clients and /oauth/register)")
	}
	redirect := v.Get("redirect_uri")
	if !client.AllowsRedirect(redirect) {
		return nil, "", errBadRequest("redirect_uri is not registered for this client")
	}
	r := &authRequest{client: client, redirectURI: redirect, state: v.Get("state"), challenge: v.Get("code_challenge"),
		resource: v.Get("resource")}
	switch {
	case v.Get("response_type") != "code":
		return r, "unsupported_response_type", nil
	case r.challenge == "" || v.Get("code_challenge_method") != "S256":
		return r, "invalid_request", nil // PKCE with S256 is required
	}
	r.scopes = mcpOAuthScopes
	if raw := strings.Fields(v.Get("scope")); len(raw) > 0 {
		r.scopes = nil
		for _, sc := range raw {
			if !slices.Contains(mcpOAuthScopes, sc) {
				return r, "invalid_scope", nil
			}
			r.scopes = append(r.scopes, sc)
		}
	}
	return r, "", nil
}

// redirectError sends an OAuth error back to the client's redirect URI.
func redirectError(c echo.Context, r *authRequest, code string) error {
	q := url.Values{"error": {code}}
	if r.state != "" {
		q.Set("state", r.state)
	}
	return c.Redirect(http.StatusFound, withQuery(r.redirectURI, q))
}

func withQuery(uri string, q url.Values) string {
	sep := "?"
	if strings.Contains(uri, "?") {
		sep = "&"
	}
	return uri + sep + q.Encode()
}

// GET /oauth/authorize shows the consent page.
func (s *Server) authorizePage(c echo.Context) error {
	r, oauthErr, err := s.parseAuthorize(c.Request().Context(), c.QueryParams())
	if err != nil {
		return err
	}
	if oauthErr != "" {
		return redirectError(c, r, oauthErr)
	}
	return s.renderConsent(c, http.StatusOK, r, c.QueryParams(), "")
}

func (s *Server) renderConsent(c echo.Context, status int, r *authRequest, params url.Values, msg string) error {
	if s.oauth.consent == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "the consent page is not available")
	}
	page, err := s.oauth.consent()
	if err != nil {
		return fmt.Errorf("consent page: %w", err)
	}
	keep := map[string]string{}
	for _, k := range []string{"response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope", "resource"} {
		if v := params.Get(k); v != "" {
			keep[k] = v
		}
	}
	canWrite := slices.ContainsFunc(r.scopes, func(sc string) bool { return strings.HasSuffix(sc, ".write") })
	h := c.Response().Header()
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; form-action 'self' "+formActionOrigin(r.redirectURI)+"; frame-ancestors 'none'")
	h.Set("Cache-Control", "no-store")
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return page.Execute(c.Response(), map[string]any{
		"ClientName": clientName(r.client), "SelfNamed": r.client.Name != "", "RedirectHost": redirectHost(r.redirectURI), "Scopes": r.scopes, "CanWrite": canWrite, "Params": keep, "Error": msg,
		"Passwords": s.consoleAuth != nil,
	})
}

func redirectHost(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil {
		return ""
	}
	return u.Host
}

func formActionOrigin(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// POST /oauth/authorize: the owner signs in with an ID token and decides.
func (s *Server) authorizeDecision(c echo.Context) error {
	if !s.sameSiteForm(c.Request()) {
		// A page on another site cannot submit the owner's consent, even
		// with a valid ID token it got hold of.
		return appliance.Errorf(appliance.EFORBIDDEN, "Consent must be given on the appliance's own consent page.")
	}
	if err := c.Request().ParseForm(); err != nil {
		return errBadRequest("malformed form")
	}
	form := c.Request().PostForm
	r, oauthErr, err := s.parseAuthorize(c.Request().Context(), form)
	if err != nil {
		return err
	}
	if oauthErr != "" {
		return redirectError(c, r, oauthErr)
	}
	if form.Get("decision") != "approve" {
		return redirectError(c, r, "access_denied")
	}
	ctx := c.Request().Context()
	uid, msg, err := s.consentSignIn(c, form)
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderConsent(c, http.StatusUnauthorized, r, form, msg)
	}
	code := randomToken("")
	now := s.now().UTC()
	grant := &appliance.OAuthGrant{ID: newID(), UserID: uid, ClientID: r.client.ID, Scopes: r.scopes, CreatedAt: now}
	if err := s.store.CreateAuthorization(ctx, grant, &appliance.OAuthCode{Hash: appliance.HashToken(code), RedirectURI: r.redirectURI,
		CodeChallenge: r.challenge, Resource: r.resource, ExpiresAt: now.Add(codeTTL)}); err != nil {
		return err
	}
	q := url.Values{"code": {code}}
	if r.state != "" {
		q.Set("state", r.state)
	}
	return c.Redirect(http.StatusFound, withQuery(r.redirectURI, q))
}

// consentSignIn signs the owner in on the consent page: with the console's
// name and password (the browser's session cookie is SameSite=Strict, so a
// connector's redirect from another site arrives without it), or with an
// ID token from `hearth token`. msg explains a refusal.
func (s *Server) consentSignIn(c echo.Context, form url.Values) (uid, msg string, err error) {
	ctx := c.Request().Context()
	if name := strings.TrimSpace(form.Get("name")); name != "" && s.consoleAuth != nil {
		if d := s.limiter.Allow("addr:"+c.RealIP(), PolicyConsoleLogin); d != nil {
			return "", "Too many sign-in attempts; wait a minute.", nil
		}
		sess, token, err := s.consoleAuth.Login(ctx, name, form.Get("password"))
		if appliance.ErrorCode(err) == appliance.EUNAUTHORIZED {
			return "", "Wrong name or password.", nil
		} else if appliance.ErrorCode(err) == appliance.ERATELIMIT {
			return "", "Too many wrong passwords for this account; wait a while.", nil
		} else if err != nil {
			return "", "", err
		}
		// The page needed a yes from the owner, not a browser session.
		if err := s.consoleAuth.Logout(ctx, token); err != nil {
			return "", "", err
		}
		return sess.UserID, "", nil
	}
	p, err := s.auth.Authenticate(ctx, strings.TrimSpace(form.Get("id_token")))
	if err == nil && p.Kind != appliance.PrincipalIDToken {
		err = errors.New("not an id token")
	}
	if err != nil {
		return "", "That sign-in is not valid: use your console name and password, or a fresh token from hearth token.", nil
	}
	return p.UserID, "", nil
}

// tokenError is RFC 6749 §5.2's error body.
func tokenError(c echo.Context, status int, code, desc string) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, map[string]string{"error": code, "error_description": desc})
}

// POST /oauth/token: authorization_code (with PKCE) and refresh_token
// grants for public clients (token endpoint auth method "none").
func (s *Server) token(c echo.Context) error {
	if err := c.Request().ParseForm(); err != nil {
		return tokenError(c, http.StatusBadRequest, "invalid_request", "malformed form body")
	}
	form := c.Request().PostForm
	ctx, now := c.Request().Context(), s.now().UTC()
	clientID := form.Get("client_id")
	if _, ok, err := s.oauthClient(ctx, clientID); err != nil {
		return err
	} else if !ok {
		return tokenError(c, http.StatusUnauthorized, "invalid_client", "unknown client_id")
	}
	var grant *appliance.OAuthGrant
	var replacing string
	switch form.Get("grant_type") {
	case "authorization_code":
		code, g, err := s.store.RedeemCode(ctx, appliance.HashToken(form.Get("code")), now)
		if err != nil {
			if appliance.ErrorCode(err) == appliance.EINTERNAL {
				return err
			}
			return tokenError(c, http.StatusBadRequest, "invalid_grant", "the authorization code is invalid, expired or used")
		}
		sum := sha256.Sum256([]byte(form.Get("code_verifier")))
		challenge := base64.RawURLEncoding.EncodeToString(sum[:])
		switch {
		case g.ClientID != clientID:
			return tokenError(c, http.StatusBadRequest, "invalid_grant", "the code was issued to another client")
		case code.RedirectURI != form.Get("redirect_uri"):
			return tokenError(c, http.StatusBadRequest, "invalid_grant", "redirect_uri does not match the authorization request")
		case subtle.ConstantTimeCompare([]byte(challenge), []byte(code.CodeChallenge)) != 1:
			return tokenError(c, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
		}
		grant = g
	case "refresh_token":
		raw := form.Get("refresh_token")
		g, err := s.store.TokenGrant(ctx, appliance.HashToken(raw), "refresh", now)
		if err != nil || g.ClientID != clientID {
			s.revokeIfReused(ctx, appliance.HashToken(raw), now)
			return tokenError(c, http.StatusBadRequest, "invalid_grant", "the refresh token is invalid, expired or revoked")
		}
		grant, replacing = g, appliance.HashToken(raw)
	default:
		return tokenError(c, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
	}
	access, refresh := randomToken(appliance.OAuthAccessTokenPrefix), randomToken(appliance.OAuthRefreshTokenPrefix)
	if err := s.store.IssueTokens(ctx, []appliance.OAuthToken{
		{Hash: appliance.HashToken(access), GrantID: grant.ID, Kind: "access", ExpiresAt: now.Add(accessTokenTTL)},
		{Hash: appliance.HashToken(refresh), GrantID: grant.ID, Kind: "refresh", ExpiresAt: now.Add(refreshTokenTTL)},
	}, replacing, now); err != nil {
		if appliance.ErrorCode(err) == appliance.ENOTFOUND {
			// Another request rotated this refresh token first: a reuse.
			s.revokeIfReused(ctx, replacing, now)
			return tokenError(c, http.StatusBadRequest, "invalid_grant", "the refresh token was already used")
		}
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "expires_in": int(accessTokenTTL.Seconds()),
		"refresh_token": refresh, "scope": strings.Join(grant.Scopes, " "),
	})
}

// POST /oauth/revoke (RFC 7009): revoking either token ends the grant, so
// every token issued under it is refused at once.
func (s *Server) revoke(c echo.Context) error {
	if err := c.Request().ParseForm(); err != nil {
		return tokenError(c, http.StatusBadRequest, "invalid_request", "malformed form body")
	}
	tok := c.Request().PostForm.Get("token")
	if tok == "" {
		return tokenError(c, http.StatusBadRequest, "invalid_request", "token is required")
	}
	if err := s.store.RevokeToken(c.Request().Context(), appliance.HashToken(tok), s.now().UTC()); err != nil {
		return err
	}
	return c.NoContent(http.StatusOK)
}

// sameSiteForm reports whether a form post can come from the appliance's
// own page. Browsers label cross-site requests with Sec-Fetch-Site and
// Origin; a request with neither is not from a browser (curl, a test), and
// a forged one would need no forgery.
func (s *Server) sameSiteForm(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	origin := r.Header.Get("Origin")
	return origin == "" || s.public.SameOrigin(r, origin)
}

// revokeIfReused revokes the grant of a refresh token that was already
// rotated: whoever presents it now may have stolen it.
func (s *Server) revokeIfReused(ctx context.Context, hash string, now time.Time) {
	revoked, err := s.store.RevokeReusedRefresh(ctx, hash, now)
	if err != nil {
		s.log.Error("revoke the grant of a reused refresh token", "err", err)
	} else if revoked {
		s.log.Warn("a rotated refresh token was presented again; its grant is revoked")
	}
}

func randomToken(prefix string) string {
	b := make([]byte, 32)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}
