package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// readJSONObject reads a size-limited body and decodes it as a JSON object.
// Numbers stay json.Number so that integers and floats are told apart.
// Errors come back in the 422 shape clients of the reference expect.
func readJSONObject(c echo.Context, limit int64) (map[string]any, error) {
	body, err := readBody(c, limit)
	if err != nil {
		return nil, err
	}
	return decodeJSONObject(body)
}

func readBody(c echo.Context, limit int64) ([]byte, error) {
	r := http.MaxBytesReader(c.Response(), c.Request().Body, limit)
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, readBodyError(err, limit)
	}
	return body, nil
}

// pooledBodyMax bounds the buffers kept for readPooledBody: a create's
// body is a few kilobytes; a rare large one is left to the collector.
const pooledBodyMax = 64 << 10

var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readPooledBody is readBody into a pooled buffer, for a handler that
// copies what it keeps out of the body (the from-segments parsers do):
// io.ReadAll's doubling allocated about twice a create's body each time.
// The body must not be used after release.
func readPooledBody(c echo.Context, limit int64) (body []byte, release func(), err error) {
	buf := bodyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	release = func() {
		if buf.Cap() <= pooledBodyMax {
			bodyBuffers.Put(buf)
		}
	}
	r := http.MaxBytesReader(c.Response(), c.Request().Body, limit)
	if _, err := buf.ReadFrom(r); err != nil {
		release()
		return nil, nil, readBodyError(err, limit)
	}
	return buf.Bytes(), release, nil
}

// readBodyError words a failed body read for the client.
func readBodyError(err error, limit int64) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return appliance.Errorf(appliance.ETOOLARGE, "Request body too large (max %d bytes)", limit)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return echo.NewHTTPError(http.StatusRequestTimeout)
	}
	// A body that cannot be read (a malformed chunked encoding, a client
	// that went away mid-body) is the client's fault, not ours.
	return appliance.Errorf(appliance.EINVALID, "Malformed request body")
}

func decodeJSONObject(body []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonInvalid(err)
	}
	if dec.More() {
		return nil, jsonInvalid(errors.New("trailing data after the JSON value"))
	}
	m, ok := v.(map[string]any)
	if !ok {
		ve := &appliance.ValidationError{}
		ve.Add("model_attributes_type", "Input should be a valid dictionary or object to extract fields from", "body")
		return nil, ve
	}
	return m, nil
}

func jsonInvalid(err error) error {
	ve := &appliance.ValidationError{}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		ve.Add("json_invalid", "JSON decode error", "body", syn.Offset)
		return ve
	}
	ve.Add("json_invalid", "JSON decode error", "body")
	return ve
}

// fields walks one JSON object and records typed-field errors with their
// location. Each getter returns the zero value and false when the field is
// absent or null, so callers apply defaults.
type fields struct {
	m   map[string]any
	loc []any
	v   *appliance.ValidationError
}

func newFields(m map[string]any, v *appliance.ValidationError, loc ...any) fields {
	return fields{m: m, loc: loc, v: v}
}

func (f fields) at(name any) []any {
	loc := make([]any, 0, len(f.loc)+1)
	return append(append(loc, f.loc...), name)
}

func (f fields) fail(name any, typ, msg string) { f.v.Add(typ, msg, f.at(name)...) }

// get returns the raw value; a missing required field is recorded.
func (f fields) get(name string, required bool) (any, bool) {
	raw, present := f.m[name]
	if !present {
		if required {
			f.fail(name, "missing", "Field required")
		}
		return nil, false
	}
	if raw == nil {
		if required {
			f.fail(name, "missing", "Field required")
		}
		return nil, false
	}
	return raw, true
}

func (f fields) str(name string, required bool) (string, bool) {
	raw, ok := f.get(name, required)
	if !ok {
		return "", false
	}
	s, isStr := raw.(string)
	if !isStr {
		f.fail(name, "string_type", "Input should be a valid string")
		return "", false
	}
	return s, true
}

// number returns a numeric field's value; a number too large for float64
// comes back as +Inf, for the caller to reject or drop.
func (f fields) number(name string, required bool) (float64, bool) {
	raw, ok := f.get(name, required)
	if !ok {
		return 0, false
	}
	n, isNum := raw.(json.Number)
	if !isNum {
		f.fail(name, "float_type", "Input should be a valid number")
		return 0, false
	}
	x, err := n.Float64()
	if err != nil {
		return math.Inf(1), true
	}
	return x, true
}

// float is number for fields that must be finite.
func (f fields) float(name string, required bool) (float64, bool) {
	x, ok := f.number(name, required)
	if ok && (math.IsInf(x, 0) || math.IsNaN(x)) {
		f.fail(name, "finite_number", "Input should be a finite number")
		return 0, false
	}
	return x, ok
}

func (f fields) int(name string, required bool) (int, bool) {
	raw, ok := f.get(name, required)
	if !ok {
		return 0, false
	}
	n, isNum := raw.(json.Number)
	if !isNum {
		f.fail(name, "int_type", "Input should be a valid integer")
		return 0, false
	}
	if i, err := n.Int64(); err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
		return int(i), true
	}
	// 3.0 is an integer to pydantic; 3.5 is not.
	if x, err := n.Float64(); err == nil && x == math.Trunc(x) && math.Abs(x) <= math.MaxInt32 {
		return int(x), true
	}
	f.fail(name, "int_from_float", "Input should be a valid integer, got a number with a fractional part")
	return 0, false
}

func (f fields) bool(name string, required bool) (bool, bool) {
	raw, ok := f.get(name, required)
	if !ok {
		return false, false
	}
	b, isBool := raw.(bool)
	if !isBool {
		f.fail(name, "bool_type", "Input should be a valid boolean")
		return false, false
	}
	return b, true
}

func (f fields) object(name string) (map[string]any, bool) {
	raw, ok := f.get(name, false)
	if !ok {
		return nil, false
	}
	m, isObj := raw.(map[string]any)
	if !isObj {
		f.fail(name, "model_type", "Input should be a valid dictionary or object")
		return nil, false
	}
	return m, true
}

func (f fields) list(name string, required bool) ([]any, bool) {
	raw, ok := f.get(name, required)
	if !ok {
		return nil, false
	}
	l, isList := raw.([]any)
	if !isList {
		f.fail(name, "list_type", "Input should be a valid list")
		return nil, false
	}
	return l, true
}

func (f fields) enum(name string, allowed []string) (string, bool) {
	raw, ok := f.get(name, false)
	if !ok {
		return "", false
	}
	s, isStr := raw.(string)
	if isStr {
		for _, a := range allowed {
			if s == a {
				return s, true
			}
		}
	}
	f.fail(name, "enum", "Input should be "+quoteList(allowed))
	return "", false
}

func (f fields) datetime(name string) (time.Time, bool) {
	raw, ok := f.get(name, false)
	if !ok {
		return time.Time{}, false
	}
	t, err := parseDateTime(raw)
	if err != nil {
		f.fail(name, "datetime_parsing", "Input should be a valid datetime")
		return time.Time{}, false
	}
	if !appliance.TimeInRange(t) {
		f.fail(name, "datetime_range", appliance.TimeRangeMessage)
		return time.Time{}, false
	}
	return t, true
}

// isoString returns a date or time field as sent, for a service that reads
// it in the user's time zone (a time without a zone, or a bare date, means
// the user's). A value that is not a date or time is a 422; a Unix time is
// turned into RFC 3339.
func (f fields) isoString(name string) string {
	raw, ok := f.get(name, false)
	if !ok {
		return ""
	}
	if s, isStr := raw.(string); isStr {
		s = strings.TrimSpace(s)
		if _, day, err := appliance.ParseDate(s, time.UTC); err == nil && day {
			return s
		}
	}
	t, err := parseDateTime(raw)
	if err != nil {
		f.fail(name, "datetime_parsing", "Input should be a valid datetime")
		return ""
	}
	if !appliance.TimeInRange(t) {
		f.fail(name, "datetime_range", appliance.TimeRangeMessage)
		return ""
	}
	if s, isStr := raw.(string); isStr {
		return strings.TrimSpace(s)
	}
	return t.Format(time.RFC3339Nano)
}

// parseDateTime accepts what clients of the reference send: RFC 3339 with or
// without a zone (no zone means UTC), with a space or T, a bare day, and Unix
// seconds.
func parseDateTime(raw any) (time.Time, error) {
	switch v := raw.(type) {
	case json.Number:
		x, err := v.Float64()
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e11 {
			return time.Time{}, errors.New("bad timestamp")
		}
		sec, frac := math.Modf(x)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
	case string:
		return parseDateTimeString(v)
	}
	return time.Time{}, errors.New("not a datetime")
}

// parseDateTimeString reads a body's time with the one date parser; no zone
// means UTC here, as the reference's app sends its clock that way. A time
// out of range is returned for the caller to word.
func parseDateTimeString(s string) (time.Time, error) {
	t, _, err := appliance.ParseDate(s, time.UTC)
	if err != nil && !errors.Is(err, appliance.ErrDateRange) {
		return time.Time{}, fmt.Errorf("%q is not a datetime", s)
	}
	return t.UTC(), nil
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
