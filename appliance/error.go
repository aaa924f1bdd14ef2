package appliance

import (
	"errors"
	"fmt"
)

// Error codes. Adapters map these to transport status codes in one place
// (appliance/api's error handler), so the domain never speaks HTTP.
const (
	EINVALID      = "invalid"      // bad input: 400
	ENOTFOUND     = "not_found"    // 404
	ECONFLICT     = "conflict"     // 409
	EUNAUTHORIZED = "unauthorized" // 401
	EFORBIDDEN    = "forbidden"    // 403
	ELOCKED       = "locked"       // 402: content hidden from this surface
	ETOOLARGE     = "too_large"    // 413
	ERATELIMIT    = "rate_limited" // 429
	EUNAVAILABLE  = "unavailable"  // 503
	EUPSTREAM     = "upstream"     // 502: a route the appliance relies on failed
	EINTERNAL     = "internal"     // 500
)

// Error is an application error whose Message is safe to show a client.
// Anything that is not an *Error is internal and is never shown.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("hearth error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with a formatted client-safe message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the client-safe message of err.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	default:
		return "Internal error."
	}
}

// FieldError is one entry of a validation failure, in the shape clients of
// the reference expect: loc is a path such as ["body","transcript_segments",0,"end"].
type FieldError struct {
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
}

// ValidationError carries every FieldError found in a request. It is rendered
// as 422 {"detail":[...]}.
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	if len(e.Fields) == 0 {
		return "validation failed"
	}
	return fmt.Sprintf("validation failed: %s (%d errors)", e.Fields[0].Msg, len(e.Fields))
}

// Add appends one field error.
func (e *ValidationError) Add(typ, msg string, loc ...any) {
	e.Fields = append(e.Fields, FieldError{Loc: loc, Msg: msg, Type: typ})
}

// Err returns e when it holds at least one error, and nil otherwise, so that
// callers can collect problems and return `v.Err()`.
func (e *ValidationError) Err() error {
	if e == nil || len(e.Fields) == 0 {
		return nil
	}
	return e
}
