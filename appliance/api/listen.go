package api

import (
	"errors"
	"net/http"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/listen"
)

// Listener runs live transcription sessions (appliance/listen).
type Listener interface {
	Serve(w http.ResponseWriter, r *http.Request, userID string, p listen.Params)
	Refuse(w http.ResponseWriter, r *http.Request, code int, reason string)
}

// GET /v4/listen: the live transcription socket. The uid names the user;
// an ID token on the upgrade, when sent (the app always sends one), must
// be valid and be that user's; --listen-require-token makes it mandatory.
// Refusals complete the upgrade and close with a reason the client logs:
// 1008 for a bad uid, token or parameter, 4001 for an expired token (the
// app refreshes it and reconnects).
func (s *Server) listenSocket(c echo.Context) error {
	if s.listen == nil {
		return errNotFound("Not Found")
	}
	w, r := c.Response(), c.Request()
	p, err := listen.ParseParams(r.URL.Query())
	if err != nil {
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, err.Error())
		return nil
	}
	if _, err := s.store.User(r.Context(), p.UID); appliance.ErrorCode(err) == appliance.ENOTFOUND {
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, "Bad uid")
		return nil
	} else if err != nil {
		return err
	}
	cred, sent := appliance.ParseAuthorization(r.Header.Get(echo.HeaderAuthorization), false)
	switch {
	case sent:
		pr, err := s.auth.Authenticate(r.Context(), cred)
		switch {
		case errors.Is(err, authn.ErrExpired):
			s.listen.Refuse(w, r, closeTokenExpired, "Token expired")
			return nil
		case appliance.ErrorCode(err) == appliance.EUNAUTHORIZED || (err == nil && (pr.Kind != appliance.PrincipalIDToken || pr.UserID != p.UID)):
			s.listen.Refuse(w, r, websocket.ClosePolicyViolation, "Invalid token")
			return nil
		case err != nil:
			return err
		}
	case s.cfg.ListenRequireToken:
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, "Auth error: an ID token or a custom-STT key is required")
		return nil
	}
	s.listen.Serve(w, r, p.UID, p)
	return nil
}

// closeTokenExpired tells the app to refresh its ID token and reconnect.
const closeTokenExpired = 4001

// CustomSTT runs the appliance as an external custom-STT service.
type CustomSTT interface {
	ServeCustomSTT(w http.ResponseWriter, r *http.Request, userID string, p listen.CustomSTTParams)
}

// GET /v1/custom-stt: the external custom-STT protocol, backed by the
// appliance's own speech routes. It takes an ID token or a custom-STT key
// (hearth_stt_…, which opens nothing else). A phone app's custom-STT
// setting may take only a URL, so the credential comes in the
// Authorization header or, for such apps, in the token query parameter. Refusals close with 1008, or
// 4001 for an expired token.
func (s *Server) customSTTSocket(c echo.Context) error {
	cs, ok := s.listen.(CustomSTT)
	if s.listen == nil || !ok {
		return errNotFound("Not Found")
	}
	w, r := c.Response(), c.Request()
	raw := r.Header.Get(echo.HeaderAuthorization)
	if raw == "" && r.URL.Query().Get("token") != "" {
		raw = "Bearer " + r.URL.Query().Get("token")
	}
	cred, sent := appliance.ParseAuthorization(raw, false)
	if !sent {
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, "Auth error: an ID token or a custom-STT key is required")
		return nil
	}
	pr, err := s.auth.Authenticate(r.Context(), cred)
	switch {
	case errors.Is(err, authn.ErrExpired):
		s.listen.Refuse(w, r, closeTokenExpired, "Token expired")
		return nil
	case appliance.ErrorCode(err) == appliance.EUNAUTHORIZED || (err == nil && pr.Kind != appliance.PrincipalIDToken && pr.Kind != appliance.PrincipalSTT):
		s.listen.Refuse(w, r, websocket.ClosePolicyViolation, "Invalid token")
		return nil
	case err != nil:
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
