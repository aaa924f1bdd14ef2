package api

import (
	"net/http"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/listen"
)

// Listener runs live transcription sessions (appliance/listen).
type Listener interface {
	Serve(w http.ResponseWriter, r *http.Request, userID string, p listen.Params)
	Refuse(w http.ResponseWriter, r *http.Request, code int, reason string)
}

// GET /v4/listen: the live transcription socket. It takes a credential
// (socketPrincipal): the session runs for the credential's user, and the
// uid in the query must name that same account, by its user id or a
// Firebase uid bound to it. A uid alone opens nothing.
func (s *Server) listenSocket(c echo.Context) error {
	if s.listen == nil {
		return errNotFound("Not Found")
	}
	w, r := c.Response(), c.Request()
	raw, sent := socketCredential(r, false)
	pr, ok, err := s.socketPrincipal(w, r, raw, sent)
	if !ok {
		return err
	}
	p, err := listen.ParseParams(r.URL.Query())
	if err != nil {
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, err.Error())
		return nil
	}
	if same, err := s.sameAccount(r, p.UID, pr.UserID); err != nil {
		return err
	} else if !same {
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, reasonInvalidToken)
		return nil
	}
	p.UID = pr.UserID
	s.listen.Serve(w, r, pr.UserID, p)
	return nil
}

// sameAccount reports whether uid, the query's, names the user: its id, or
// a Firebase uid bound to it.
func (s *Server) sameAccount(r *http.Request, uid, userID string) (bool, error) {
	if uid == userID {
		return true, nil
	}
	bound, err := s.store.FirebaseUser(r.Context(), uid)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return false, nil
	}
	return bound == userID, err
}

// CustomSTT runs the appliance as an external custom-STT service.
type CustomSTT interface {
	ServeCustomSTT(w http.ResponseWriter, r *http.Request, userID string, p listen.CustomSTTParams)
}

// GET /v1/custom-stt: the external custom-STT protocol, backed by the
// appliance's own speech routes. It takes the same credentials as
// /v4/listen (socketPrincipal). A phone app's custom-STT setting may take
// only a URL, so the credential comes in the Authorization header or, for
// such apps, in the token query parameter.
func (s *Server) customSTTSocket(c echo.Context) error {
	cs, ok := s.listen.(CustomSTT)
	if s.listen == nil || !ok {
		return errNotFound("Not Found")
	}
	w, r := c.Response(), c.Request()
	raw, sent := socketCredential(r, true)
	pr, ok, err := s.socketPrincipal(w, r, raw, sent)
	if !ok {
		return err
	}
	p, err := listen.ParseCustomSTTParams(r.URL.Query())
	if err != nil {
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, err.Error())
		return nil
	}
	cs.ServeCustomSTT(w, r, pr.UserID, p)
	return nil
}
