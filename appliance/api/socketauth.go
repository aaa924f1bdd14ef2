package api

import (
	"errors"
	"net/http"
	"slices"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/authn"
)

// The live-audio sockets' close reasons for a refused credential. Clients
// read only the close frame, so each refusal completes the upgrade and
// closes with one of these: 1008, or 4001 for an expired token (the Omi
// app then refreshes its token and reconnects).
const (
	reasonNoCredential = "Auth error: an ID token (hearth token) or a device key (hearth keys create --kind stt) is required"
	reasonInvalidToken = "Invalid token"
	reasonUnbound      = "Invalid token: Firebase account not bound (hearth users bind-firebase)"
	reasonExpired      = "Token expired"
)

// closeTokenExpired tells the app to refresh its ID token and reconnect.
const closeTokenExpired = 4001

// socketKinds are the credentials that open the live-audio sockets: an ID
// token (this appliance's, or a Firebase one of a bound account) and a
// device key (hearth_stt_…).
var socketKinds = []appliance.PrincipalKind{appliance.PrincipalIDToken, appliance.PrincipalSTT}

// socketCredential is the Authorization header's value and whether one was
// sent (even empty); with fromQuery, a request without the header may
// carry the credential in ?token= instead.
func socketCredential(r *http.Request, fromQuery bool) (string, bool) {
	if v, ok := r.Header[echo.HeaderAuthorization]; ok {
		if len(v) == 0 {
			return "", true
		}
		return v[0], true
	}
	if q := r.URL.Query(); fromQuery && q.Has("token") {
		return "Bearer " + q.Get("token"), true
	}
	return "", false
}

// socketPrincipal authenticates a live-audio socket's credential (header
// is the whole Authorization value). When it refuses, it has answered
// (ok false, with err only for an internal failure, such as the store
// being down).
func (s *Server) socketPrincipal(w http.ResponseWriter, r *http.Request, header string, sent bool) (p appliance.Principal, ok bool, err error) {
	refuse := func(code int, reason string) (appliance.Principal, bool, error) {
		s.listen.Refuse(w, r, code, reason)
		return appliance.Principal{}, false, nil
	}
	if !sent {
		return refuse(websocket.ClosePolicyViolation, reasonNoCredential)
	}
	cred, bearer := appliance.ParseAuthorization(header, false)
	// A credential of another family (a developer or MCP key, an OAuth
	// token) is refused by its prefix alone, before any lookup.
	if !bearer || !slices.Contains(socketKinds, appliance.CredentialKind(cred)) {
		return refuse(websocket.ClosePolicyViolation, reasonInvalidToken)
	}
	p, err = s.auth.Authenticate(r.Context(), cred)
	switch {
	case errors.Is(err, authn.ErrExpired):
		return refuse(closeTokenExpired, reasonExpired)
	case errors.Is(err, authn.ErrUnbound):
		return refuse(websocket.ClosePolicyViolation, reasonUnbound)
	case appliance.ErrorCode(err) == appliance.EUNAUTHORIZED:
		return refuse(websocket.ClosePolicyViolation, reasonInvalidToken)
	case err != nil:
		return appliance.Principal{}, false, err
	case !slices.Contains(socketKinds, p.Kind):
		return refuse(websocket.ClosePolicyViolation, reasonInvalidToken)
	}
	return p, true, nil
}
