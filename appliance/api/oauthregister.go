package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// PolicyOAuthRegister bounds dynamic client registration per address: an
// assistant registers once and keeps its client id, so a few an hour is
// plenty, and anyone who can reach the appliance can call it.
var PolicyOAuthRegister = Policy{"oauth:register", 10, time.Hour}

// Registration limits: enough for any real client, small enough that a
// row stays small.
const (
	maxRegistrationBody = 16 << 10
	maxRedirectURIs     = 10
	maxClientName       = 100
	// registeredClientPrefix marks the ids of clients that registered
	// themselves, so they never collide with --oauth-clients names.
	registeredClientPrefix = "hc_"
)

// clientMetadata is the part of an RFC 7591 registration request Hearth
// reads; other fields (client_uri, software_id, …) are accepted and
// ignored.
type clientMetadata struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	ClientName              string   `json:"client_name"`
}

// registrationError is RFC 7591 §3.2.2's error body.
func registrationError(c echo.Context, code, desc string) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}

// POST /oauth/register (RFC 7591): any MCP client registers itself as a
// public client (no secret: it runs where a secret cannot be kept) and
// gets a client id. PKCE at /oauth/authorize and the owner's consent are
// what protect the data; the redirect URIs a client may name keep its
// codes from going anywhere but a loopback listener or an HTTPS page.
func (s *Server) registerClient(c echo.Context) error {
	if d := s.limiter.Allow("addr:"+c.RealIP(), PolicyOAuthRegister); d != nil {
		return rateLimited(c, d)
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxRegistrationBody+1))
	if err != nil {
		return err
	}
	var m clientMetadata
	if len(body) > maxRegistrationBody || json.Unmarshal(body, &m) != nil {
		return registrationError(c, "invalid_client_metadata", "the body must be a JSON object of client metadata under 16 KiB")
	}
	if code, desc := m.check(); code != "" {
		return registrationError(c, code, desc)
	}
	client := appliance.OAuthClient{ID: registeredClientPrefix + newID(), Name: strings.TrimSpace(m.ClientName), Redirects: m.RedirectURIs}
	if client.Name == "" {
		client.Name = "Unnamed assistant"
	}
	now := s.now().UTC()
	if err := s.store.RegisterOAuthClient(c.Request().Context(), client, now); err != nil {
		return err
	}
	s.log.Info("an OAuth client registered itself", "client_id", client.ID, "client_name", client.Name, "addr", c.RealIP())
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, map[string]any{
		"client_id": client.ID, "client_id_issued_at": now.Unix(), "client_name": client.Name,
		"redirect_uris": client.Redirects, "token_endpoint_auth_method": "none",
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
	})
}

// check returns RFC 7591's error code and why the metadata cannot be
// registered, or "".
func (m clientMetadata) check() (code, desc string) {
	const bad = "invalid_client_metadata"
	switch {
	case len(m.RedirectURIs) == 0:
		return bad, "redirect_uris is required"
	case len(m.RedirectURIs) > maxRedirectURIs:
		return bad, "at most 10 redirect_uris"
	case m.TokenEndpointAuthMethod != "" && m.TokenEndpointAuthMethod != "none":
		return bad, `only public clients may register: token_endpoint_auth_method must be "none"`
	case utf8.RuneCountInString(m.ClientName) > maxClientName || strings.ContainsFunc(m.ClientName, isControl):
		return bad, "client_name must be at most 100 characters without control characters"
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return bad, "grant_types may hold only authorization_code and refresh_token"
		}
	}
	for _, r := range m.ResponseTypes {
		if r != "code" {
			return bad, `response_types may hold only "code"`
		}
	}
	for _, u := range m.RedirectURIs {
		if !appliance.RegistrableRedirect(u) {
			return "invalid_redirect_uri", "each redirect URI must be a loopback http://127.0.0.1, localhost or [::1] address, or https: " + u
		}
	}
	return "", ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// oauthClient finds a client: one of --oauth-clients, or one that
// registered itself. ok is false for an unknown id.
func (s *Server) oauthClient(ctx context.Context, id string) (client appliance.OAuthClient, ok bool, err error) {
	if c, ok := s.oauth.clients[id]; ok {
		return c, true, nil
	}
	if !strings.HasPrefix(id, registeredClientPrefix) {
		return client, false, nil
	}
	client, err = s.store.RegisteredOAuthClient(ctx, id)
	switch appliance.ErrorCode(err) {
	case "":
		return client, true, nil
	case appliance.ENOTFOUND:
		return client, false, nil
	}
	return client, false, err
}

// clientName is how the consent page and the console name a client: a
// registered client's own name (which it chose, so the page says so), or
// the --oauth-clients id.
func clientName(c appliance.OAuthClient) string {
	if c.Name != "" {
		return c.Name
	}
	return c.ID
}
