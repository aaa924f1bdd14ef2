package api

import (
	"encoding/base64"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pairing"
)

// Pairing a phone: the owner (signed in with an ID token) asks for the
// appliance's base URL as a QR code, optionally with a freshly minted key;
// the code opens the standalone /pair page on the phone.
func (s *Server) pairingRoutes() {
	s.echo.POST("/v1/pairing", s.pair, s.requireIDToken)
	s.echo.GET(pairing.PagePath, s.pairingPage)
}

// GET /pair: the standalone page; the settings are in its URL fragment.
func (s *Server) pairingPage(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "text/html; charset=utf-8", pairing.Page())
}

type pairingJSON struct {
	BaseURL string `json:"base_url"`
	PairURL string `json:"pair_url"`
	// QRPNG is a data: URL an <img> shows as is.
	QRPNG   string   `json:"qr_png"`
	Key     string   `json:"key,omitempty"`
	KeyID   string   `json:"key_id,omitempty"`
	Warning string   `json:"warning,omitempty"`
	Scopes  []string `json:"scopes,omitempty"`
}

// POST /v1/pairing {mint_key?: bool, base_url?: string, name?: string}.
// base_url lets the console name the address phones should use (e.g. the
// HTTPS one); by default it is the address this request came in on.
func (s *Server) pair(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	mint, _ := f.bool("mint_key", false)
	base, hasBase := f.str("base_url", false)
	name, hasName := f.str("name", false)
	if err := v.Err(); err != nil {
		return err
	}
	if hasBase {
		u, ok := baseURLOf(base)
		if !ok {
			return errUnprocessable("value_error", "base_url must be http(s)://host[:port], without a path, query or quotes", "body", "base_url")
		}
		base = u
	} else {
		base = s.public.Base(c.Request())
	}
	if name = strings.TrimSpace(name); !hasName || name == "" {
		name = "Paired phone " + s.now().UTC().Format("2006-01-02")
	}
	out := pairingJSON{BaseURL: base}
	if u, err := url.Parse(base); err == nil && isLoopbackHost(u.Hostname()) {
		out.Warning = "This address only works on the appliance itself. Open the console through the box's network address, or set --public-url, before pairing a phone."
	}
	if mint {
		raw, hash, display := appliance.NewKeySecret(appliance.KeyKindDev)
		k := &appliance.Key{ID: newID(), UserID: userID(c), Kind: appliance.KeyKindDev, Name: name, Hash: hash,
			Display: display, Scopes: slices.Clone(appliance.DefaultScopes), CreatedAt: s.now().UTC()}
		if err := s.store.CreateKey(c.Request().Context(), k); err != nil {
			return err
		}
		out.Key, out.KeyID, out.Scopes = raw, k.ID, k.Scopes
	}
	out.PairURL = pairing.Link(base, out.Key)
	png, err := pairing.QRPNG(out.PairURL, 320)
	if err != nil {
		return err
	}
	out.QRPNG = "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	// A key is shown once: nothing on the way may keep a copy.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// baseURLOf checks a base URL a phone is told to use, scheme://host[:port]
// and nothing else (a trailing slash is dropped): it goes into a pairing
// link and a QR code, where a path or quotes would change what the phone
// connects to.
func baseURLOf(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Opaque != "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.HasSuffix(raw, "#") {
		return "", false
	}
	host, port := u.Hostname(), u.Port()
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return "", false
		}
	}
	if _, err := netip.ParseAddr(host); err != nil && !isHostName(host) {
		return "", false
	}
	return u.Scheme + "://" + u.Host, true
}

// isHostName reports whether s is a DNS name: dot-separated labels of
// letters, digits and inner hyphens.
func isHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(s, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}
