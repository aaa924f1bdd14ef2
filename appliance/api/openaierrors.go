package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// OpenAI's error types, which its clients read.
const (
	typeInvalidRequest = "invalid_request_error"
	typeServer         = "server_error"
	typeRateLimit      = "rate_limit_error"
)

// openaiError is an error in OpenAI's shape:
// {"error":{"message","type","param","code"}}.
type openaiError struct {
	status                    int
	message, typ, param, code string
}

func (e *openaiError) Error() string { return e.message }

func paramError(param, msg string) error {
	return &openaiError{status: http.StatusBadRequest, typ: typeInvalidRequest, param: param, message: msg}
}

// openaiErrors renders every error of the routes it wraps, their
// authentication and rate limits included, in OpenAI's shape, so that
// OpenAI clients report the message rather than a parse failure.
func (s *Server) openaiErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || c.Response().Committed {
			return err
		}
		oe := s.asOpenAIError(err, c)
		body := map[string]any{"error": map[string]any{
			"message": oe.message, "type": oe.typ, "param": nullable(oe.param), "code": nullable(oe.code),
		}}
		return c.JSON(oe.status, body)
	}
}

func (s *Server) asOpenAIError(err error, c echo.Context) *openaiError {
	if oe := (*openaiError)(nil); errors.As(err, &oe) {
		return oe
	}
	status, body := s.render(err, c) // logs internal errors once
	oe := &openaiError{status: status, message: detailMessage(body.Detail), typ: typeInvalidRequest}
	if ve := (*appliance.ValidationError)(nil); errors.As(err, &ve) && len(ve.Fields) > 0 {
		oe.status = http.StatusBadRequest
		if loc := ve.Fields[0].Loc; len(loc) > 0 {
			oe.param = fmt.Sprint(loc[len(loc)-1])
		}
	}
	switch {
	case status == http.StatusUnauthorized:
		oe.code = "invalid_api_key"
	case status == http.StatusForbidden:
		oe.code = "insufficient_permissions"
	case status == http.StatusRequestEntityTooLarge:
		oe.param, oe.code = "file", "file_too_large"
	case status == http.StatusTooManyRequests:
		oe.typ, oe.code = typeRateLimit, "rate_limit_exceeded"
	case status == http.StatusServiceUnavailable:
		oe.typ, oe.code = typeServer, "service_unavailable"
	case status >= 500:
		oe.typ = typeServer
	}
	return oe
}

// detailMessage is the text of the contract's detail: a string, or the
// messages of a validation error's fields.
func detailMessage(d any) string {
	switch v := d.(type) {
	case string:
		return v
	case []appliance.FieldError:
		msgs := make([]string, len(v))
		for i, f := range v {
			msgs[i] = f.Msg
		}
		return strings.Join(msgs, "; ")
	}
	return fmt.Sprint(d)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
