package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// Key management, as in the reference: the owner, signed in with an ID
// token, lists, creates and deletes API keys of one family. The raw key is
// in the create response only; the store keeps its hash.

// keyJSON is a listed key: never the key itself.
type keyJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	KeyPrefix  string     `json:"key_prefix"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	Scopes     []string   `json:"scopes"`
}

func toKeyJSON(k *appliance.Key) keyJSON {
	return keyJSON{ID: k.ID, Name: k.Name, KeyPrefix: k.Display, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, Scopes: k.Scopes}
}

func (s *Server) keyRoutes() {
	for kind, prefix := range map[appliance.KeyKind]string{appliance.KeyKindDev: "/v1/dev/keys", appliance.KeyKindMCP: "/v1/mcp/keys",
		appliance.KeyKindSTT: "/v1/stt/keys"} {
		s.echo.GET(prefix, s.listKeys(kind), s.requireIDToken)
		s.echo.POST(prefix, s.createKey(kind), s.requireIDToken)
		s.echo.DELETE(prefix+"/:id", s.deleteKey(kind), s.requireIDToken)
	}
}

// GET /v1/dev/keys, /v1/mcp/keys, /v1/stt/keys: the user's live keys of the family.
func (s *Server) listKeys(kind appliance.KeyKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		ks, err := s.store.Keys(c.Request().Context(), userID(c))
		if err != nil {
			return err
		}
		out := []keyJSON{}
		for _, k := range ks {
			if k.Kind == kind && k.RevokedAt == nil {
				out = append(out, toKeyJSON(k))
			}
		}
		return c.JSON(http.StatusOK, out)
	}
}

// POST /v1/dev/keys, /v1/mcp/keys, /v1/stt/keys {name, scopes?}
func (s *Server) createKey(kind appliance.KeyKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
		if err != nil {
			return err
		}
		v := &appliance.ValidationError{}
		f := newFields(m, v, "body")
		name, _ := f.str("name", true)
		scopes, hasScopes := f.stringList("scopes")
		if err := v.Err(); err != nil {
			return err
		}
		if name = strings.TrimSpace(name); name == "" {
			return errUnprocessable("value_error", "Key name cannot be empty", "body", "name")
		}
		if kind == appliance.KeyKindSTT && len(scopes) > 0 {
			return errBadRequest("Device keys (hearth_stt_) take no scopes: they open the live-audio sockets, /v4/listen and /v1/custom-stt, and OpenAI's speech API, /v1/audio/, and nothing else")
		}
		if hasScopes && !appliance.ValidScopes(scopes) {
			return errBadRequest("Invalid scopes. Available: [" + quoteJoin(appliance.AvailableScopes) + "]")
		}
		if !hasScopes {
			scopes = slices.Clone(appliance.DefaultScopes)
			switch kind {
			case appliance.KeyKindMCP:
				scopes = slices.Clone(appliance.AvailableScopes)
			case appliance.KeyKindSTT:
				scopes = []string{}
			}
		}
		raw, hash, display := appliance.NewKeySecret(kind)
		k := &appliance.Key{ID: newID(), UserID: userID(c), Kind: kind, Name: name, Hash: hash, Display: display,
			Scopes: scopes, CreatedAt: s.now().UTC()}
		if err := s.store.CreateKey(c.Request().Context(), k); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, struct {
			keyJSON
			Key string `json:"key"`
		}{toKeyJSON(k), raw})
	}
}

// DELETE /v1/dev/keys/{id}, /v1/mcp/keys/{id}, /v1/stt/keys/{id}: 204; the key is refused at
// once afterwards.
func (s *Server) deleteKey(kind appliance.KeyKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, uid, id := c.Request().Context(), userID(c), c.Param("id")
		ks, err := s.store.Keys(ctx, uid)
		if err != nil {
			return err
		}
		found := slices.ContainsFunc(ks, func(k *appliance.Key) bool { return k.ID == id && k.Kind == kind })
		if !found {
			return errNotFound("Key not found")
		}
		if err := s.store.RevokeKey(ctx, uid, id, s.now().UTC()); err != nil {
			return err
		}
		return c.NoContent(http.StatusNoContent)
	}
}

// quoteJoin renders a Python-style list body: 'a', 'b'.
func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}
