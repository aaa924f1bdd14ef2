package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
)

// Household is the owner's management of the members and the audit trail
// (appliance/console.Household). Who may ask is checked here: only the
// owner's session reaches it, except Redeem, which a code authorises.
type Household interface {
	Members(ctx context.Context) ([]*appliance.Member, error)
	Invite(ctx context.Context, by console.Actor, name string) (*appliance.User, string, time.Time, error)
	ResetPassword(ctx context.Context, by console.Actor, userID string) (string, time.Time, error)
	Remove(ctx context.Context, by console.Actor, userID string) error
	TransferOwner(ctx context.Context, by console.Actor, userID string) error
	Redeem(ctx context.Context, code, password string) (*appliance.ConsoleSession, string, error)
	Audit(ctx context.Context, by console.Actor, action, target string, refused bool) error
	AuditLog(ctx context.Context, limit int) ([]*appliance.AuditEntry, error)
}

// auditLines is how much of the audit trail the System page shows.
const auditLines = 200

// consoleHouseholdRoutes serves the owner's Members page and the audit
// trail; the redeeming of an invite or reset code needs no session.
func (s *Server) consoleHouseholdRoutes(open, signed *echo.Group) {
	open.POST("/redeem", s.consoleRedeem, s.limitByAddress(PolicyConsoleLogin))
	const manage = "manage the household's members"
	// The household's own changes record themselves, with names: the
	// guard records only refusals.
	signed.GET("/members", s.consoleMembers, s.ownerOnly(manage, "members listed", "", false))
	signed.POST("/members", s.consoleInvite, s.ownerOnly(manage, "member invited", "", false))
	signed.POST("/members/:id/reset", s.consoleResetPassword, s.ownerOnly(manage, "password reset", "id", false))
	signed.POST("/members/:id/owner", s.consoleTransferOwner, s.ownerOnly(manage, "ownership transferred", "id", false))
	signed.DELETE("/members/:id", s.consoleRemoveMember, s.ownerOnly(manage, "member removed", "id", false))
	signed.GET("/system/audit", s.consoleAudit, s.ownerOnly("read the audit trail", "audit trail read", "", false))
}

// ownerOnly admits the owner's session alone. A member's attempt is
// refused with a sentence the console shows (what they may not do, and
// whom to ask) and recorded in the audit trail as action; when
// recordDone, the owner's change is recorded too. param names the path
// parameter the change is to, if any (a member's id is recorded by name).
func (s *Server) ownerOnly(what, action, param string, recordDone bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			owner, err := s.isOwner(c)
			if err != nil {
				return err
			}
			if !owner {
				s.audit(c, action, s.auditTarget(c, param), true)
				return appliance.Errorf(appliance.EFORBIDDEN, "Only the appliance's owner may %s. Ask %s.", what, s.ownerName(c.Request().Context()))
			}
			if err := next(c); err != nil || !recordDone {
				return err
			}
			s.audit(c, action, s.auditTarget(c, param), false)
			return nil
		}
	}
}

// auditTarget is what a change is to, as the trail shows it: a member by
// name, else the path parameter's value.
func (s *Server) auditTarget(c echo.Context, param string) string {
	if param == "" {
		return ""
	}
	v := c.Param(param)
	if param == "id" {
		if u, err := s.store.User(c.Request().Context(), v); err == nil {
			return u.Name
		}
	}
	return v
}

// isOwner reports whether the signed-in user owns the appliance.
func (s *Server) isOwner(c echo.Context) (bool, error) {
	owner, err := s.consoleAuth.Owner(c.Request().Context())
	return owner != "" && owner == userID(c), err
}

// audit records a change or a refused attempt; a trail that cannot be
// written does not undo the change or the refusal, and the log says so.
func (s *Server) audit(c echo.Context, action, target string, refused bool) {
	if s.household == nil {
		return
	}
	if err := s.household.Audit(c.Request().Context(), console.Actor{UserID: userID(c)}, action, target, refused); err != nil {
		s.log.Error("audit trail", "action", action, "refused", refused, "err", err)
	}
}

// ownerName is who a member should ask: the owner by name.
func (s *Server) ownerName(ctx context.Context) string {
	if owner, err := s.consoleAuth.Owner(ctx); err == nil && owner != "" {
		if u, err := s.store.User(ctx, owner); err == nil && u.Name != "" {
			return u.Name
		}
	}
	return "the owner"
}

// GET /console/api/members: the household, the owner marked.
func (s *Server) consoleMembers(c echo.Context) error {
	ms, err := s.household.Members(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"members": ms})
}

// codeReply is a one-time code as the owner passes it on: the digits to
// type, and the link that fills them in.
func (s *Server) codeReply(c echo.Context, out map[string]any, code string, expires time.Time) map[string]any {
	out["code"] = code
	out["link"] = s.public.Base(c.Request()) + "/console#/code/" + code
	out["expires_at"] = expires.UTC().Format(time.RFC3339)
	return out
}

// POST /console/api/members {name}: 201 with the new member and their
// invite code.
func (s *Server) consoleInvite(c echo.Context) error {
	var in struct{ Name string }
	if err := c.Bind(&in); err != nil {
		return errBadRequest("Expected a JSON body")
	}
	u, code, expires, err := s.household.Invite(c.Request().Context(), console.Actor{UserID: userID(c)}, in.Name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, s.codeReply(c, map[string]any{"member": map[string]string{"id": u.ID, "name": u.Name}}, code, expires))
}

// POST /console/api/members/{id}/reset: the member's password stops
// working; the reply's code lets them choose another.
func (s *Server) consoleResetPassword(c echo.Context) error {
	code, expires, err := s.household.ResetPassword(c.Request().Context(), console.Actor{UserID: userID(c)}, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.codeReply(c, map[string]any{}, code, expires))
}

// POST /console/api/members/{id}/owner: 204; the caller becomes a member.
func (s *Server) consoleTransferOwner(c echo.Context) error {
	if err := s.household.TransferOwner(c.Request().Context(), console.Actor{UserID: userID(c)}, c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// DELETE /console/api/members/{id}: 204; the member and all their data go.
func (s *Server) consoleRemoveMember(c echo.Context) error {
	if err := s.household.Remove(c.Request().Context(), console.Actor{UserID: userID(c)}, c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// GET /console/api/system/audit: the newest lines of the audit trail.
func (s *Server) consoleAudit(c echo.Context) error {
	lines, err := s.household.AuditLog(c.Request().Context(), auditLines)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"audit": lines})
}

// POST /console/api/redeem {code, password}: an invite or reset code sets
// the member's password and signs them in.
func (s *Server) consoleRedeem(c echo.Context) error {
	if s.household == nil {
		return errNotFound("Not Found")
	}
	var in struct{ Code, Password string }
	if err := c.Bind(&in); err != nil {
		return errBadRequest("Expected a JSON body")
	}
	sess, token, err := s.household.Redeem(c.Request().Context(), in.Code, in.Password)
	if err != nil {
		return err
	}
	return s.signedIn(c, sess, token)
}
