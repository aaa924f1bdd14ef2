package api

import (
	"context"
	"crypto/subtle"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
)

// ConsoleAuth signs owners in to the console (appliance/console).
type ConsoleAuth interface {
	Claimed(ctx context.Context) (bool, error)
	Setup(ctx context.Context, code, name, password string) (*appliance.ConsoleSession, string, error)
	Login(ctx context.Context, name, password string) (*appliance.ConsoleSession, string, error)
	Session(ctx context.Context, token string) (*appliance.ConsoleSession, error)
	Logout(ctx context.Context, token string) error
	// Owner is the user who claimed the appliance ("" while nobody has).
	Owner(ctx context.Context) (string, error)
}

// sessionCookie holds a console session's token: HttpOnly (no script reads
// it), SameSite=Strict (no other site's page sends it), Secure over TLS.
const sessionCookie = "hearth_session"

// csrfHeader must carry the session's CSRF token on every state change.
const csrfHeader = "X-CSRF-Token"

// PolicyConsoleLogin bounds sign-in attempts per client address.
var PolicyConsoleLogin = Policy{"console:login", 10, time.Minute}

func (s *Server) consoleAuthRoutes() {
	if s.consoleAuth == nil {
		return
	}
	g := s.echo.Group("/console/api")
	g.GET("/state", s.consoleState)
	g.POST("/setup", s.consoleSetup, s.limitByAddress(PolicyConsoleLogin))
	g.POST("/login", s.consoleLogin, s.limitByAddress(PolicyConsoleLogin))
	// Everything else needs a signed-in user, and what is the whole
	// appliance's its owner (ownerOnly); each page's routes are in the file
	// of that page (console*.go).
	signed := g.Group("", s.requireConsoleSession)
	signed.POST("/logout", s.consoleLogout)
	if s.household != nil {
		s.consoleHouseholdRoutes(g, signed)
	}
	s.consoleConversationRoutes(signed)
	s.consoleRecordRoutes(signed)
	s.consoleKeyRoutes(signed)
	s.consoleDeviceRoutes(signed)
	s.consoleLiveRoutes(signed)
	s.consoleSpeechRoutes(signed)
	s.consolePeopleRoutes(signed)
	s.consoleSystemRoutes(signed)
	s.retranscribeRoutes(signed)
}

// limitByAddress charges a request to policies per client address (for
// requests made before anyone is signed in).
func (s *Server) limitByAddress(policies ...Policy) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if d := s.limiter.Allow("addr:"+c.RealIP(), policies...); d != nil {
				return rateLimited(c, d)
			}
			return next(c)
		}
	}
}

// requireConsoleSession admits a signed-in browser: its cookie names a
// live session, and a request that changes anything carries the session's
// CSRF token and, when the browser sends one, this appliance's Origin. The
// session acts as its user, with every permission over their own data
// (like an ID token); what is the whole appliance's is guarded by
// ownerOnly.
func (s *Server) requireConsoleSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(sessionCookie)
		if err != nil {
			return appliance.Errorf(appliance.EUNAUTHORIZED, "Not signed in")
		}
		sess, err := s.consoleAuth.Session(c.Request().Context(), ck.Value)
		if err != nil {
			return err
		}
		r := c.Request()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if subtle.ConstantTimeCompare([]byte(r.Header.Get(csrfHeader)), []byte(sess.CSRF)) != 1 {
				return appliance.Errorf(appliance.EFORBIDDEN, "Missing or wrong %s header", csrfHeader)
			}
			if o := r.Header.Get("Origin"); o != "" && !s.public.SameOrigin(r, o) {
				return appliance.Errorf(appliance.EFORBIDDEN, "Cross-origin request refused")
			}
		}
		setPrincipal(c, appliance.Principal{UserID: sess.UserID, Kind: appliance.PrincipalIDToken})
		c.Set(ctxConsoleToken, ck.Value)
		return next(c)
	}
}

const ctxConsoleToken = "console_token"

// GET /console/api/state: whether the appliance is claimed, and who is
// signed in (with the CSRF token the page sends back).
func (s *Server) consoleState(c echo.Context) error {
	ctx := c.Request().Context()
	claimed, err := s.consoleAuth.Claimed(ctx)
	if err != nil {
		return err
	}
	out := map[string]any{"claimed": claimed, "signed_in": false}
	if ck, err := c.Cookie(sessionCookie); err == nil {
		if sess, err := s.consoleAuth.Session(ctx, ck.Value); err == nil {
			if err := s.sessionReply(c, out, sess); err != nil {
				return err
			}
		}
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) sessionReply(c echo.Context, out map[string]any, sess *appliance.ConsoleSession) error {
	u, err := s.store.User(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	role := appliance.RoleMember
	if owner, err := s.consoleAuth.Owner(c.Request().Context()); err != nil {
		return err
	} else if owner == u.ID {
		role = appliance.RoleOwner
	}
	out["signed_in"], out["csrf_token"] = true, sess.CSRF
	// The console hides what only the owner may do from a member, and
	// names who to ask.
	// It shows times in the user's zone, not the browser's.
	out["user"] = map[string]string{"id": u.ID, "name": u.Name, "role": string(role), "time_zone": u.ZoneName()}
	out["owner_name"] = s.ownerName(c.Request().Context())
	return nil
}

// POST /console/api/setup {code, name?, password}: claims the appliance
// with the setup code serve printed; signs the owner in.
func (s *Server) consoleSetup(c echo.Context) error {
	var in struct{ Code, Name, Password string }
	if err := c.Bind(&in); err != nil {
		return errBadRequest("Expected a JSON body")
	}
	sess, token, err := s.consoleAuth.Setup(c.Request().Context(), in.Code, in.Name, in.Password)
	if err != nil {
		return err
	}
	if s.household != nil {
		if err := s.household.Audit(c.Request().Context(), console.Actor{UserID: sess.UserID}, "appliance claimed", "", false); err != nil {
			s.log.Error("audit trail", "action", "appliance claimed", "err", err)
		}
	}
	return s.signedIn(c, sess, token)
}

// POST /console/api/login {name, password}.
func (s *Server) consoleLogin(c echo.Context) error {
	var in struct{ Name, Password string }
	if err := c.Bind(&in); err != nil {
		return errBadRequest("Expected a JSON body")
	}
	sess, token, err := s.consoleAuth.Login(c.Request().Context(), in.Name, in.Password)
	if err != nil {
		return err
	}
	return s.signedIn(c, sess, token)
}

func (s *Server) signedIn(c echo.Context, sess *appliance.ConsoleSession, token string) error {
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: c.Request().TLS != nil, Expires: sess.ExpiresAt})
	out := map[string]any{"claimed": true}
	if err := s.sessionReply(c, out, sess); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// POST /console/api/logout: 204; the cookie is cleared.
func (s *Server) consoleLogout(c echo.Context) error {
	token, _ := c.Get(ctxConsoleToken).(string)
	if err := s.consoleAuth.Logout(c.Request().Context(), token); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	return c.NoContent(http.StatusNoContent)
}
