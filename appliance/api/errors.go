package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// statusOf maps application error codes to HTTP status codes, in one place.
var statusOf = map[string]int{
	appliance.EINVALID:      http.StatusBadRequest,
	appliance.ENOTFOUND:     http.StatusNotFound,
	appliance.ECONFLICT:     http.StatusConflict,
	appliance.EUNAUTHORIZED: http.StatusUnauthorized,
	appliance.EFORBIDDEN:    http.StatusForbidden,
	appliance.ELOCKED:       http.StatusPaymentRequired,
	appliance.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	appliance.ERATELIMIT:    http.StatusTooManyRequests,
	appliance.EUNAVAILABLE:  http.StatusServiceUnavailable,
	appliance.EUPSTREAM:     http.StatusBadGateway,
	appliance.EINTERNAL:     http.StatusInternalServerError,
}

// errorBody is the contract's error shape: {"detail": string | array}.
type errorBody struct {
	Detail any `json:"detail"`
}

// errorHandler renders every error a handler returns, and logs internal ones
// once, here at the edge, with the request id. Clients never see internals.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, body := s.render(err, c)
	if c.Request().Method == http.MethodHead {
		err = c.NoContent(status)
	} else {
		err = c.JSON(status, body)
	}
	if err != nil {
		s.log.Debug("write error response", "err", err)
	}
}

func (s *Server) render(err error, c echo.Context) (int, errorBody) {
	var ve *appliance.ValidationError
	var he *echo.HTTPError
	var ae *appliance.Error
	var fe *failureError
	switch {
	case errors.As(err, &fe):
		return fe.status, errorBody{Detail: fe.body}
	case errors.As(err, &ve):
		return http.StatusUnprocessableEntity, errorBody{Detail: ve.Fields}
	case errors.As(err, &ae):
		return statusOf[ae.Code], errorBody{Detail: ae.Message}
	case errors.As(err, &he):
		if he.Code >= 500 {
			s.logInternal(c, err)
			return he.Code, errorBody{Detail: "Internal error."}
		}
		// Echo's own 404/405 answer in the reference's wording ("Not Found").
		return he.Code, errorBody{Detail: http.StatusText(he.Code)}
	default:
		s.logInternal(c, err)
		return http.StatusInternalServerError, errorBody{Detail: "Internal error."}
	}
}

func (s *Server) logInternal(c echo.Context, err error) {
	s.log.Error("request failed",
		"req_id", c.Response().Header().Get(echo.HeaderXRequestID),
		"method", c.Request().Method,
		"path", c.Path(),
		"err", err)
}

// Error constructors used by handlers; messages follow the reference's wording.
func errNotFound(msg string) error   { return appliance.Errorf(appliance.ENOTFOUND, "%s", msg) }
func errBadRequest(msg string) error { return appliance.Errorf(appliance.EINVALID, "%s", msg) }

func errUnprocessable(typ, msg string, loc ...any) error {
	ve := &appliance.ValidationError{}
	ve.Add(typ, msg, loc...)
	return ve
}
