package appliance

import (
	"errors"
	"strings"
	"time"
)

// ErrDateFormat and ErrDateRange are ParseDate's two refusals, which the
// surfaces word differently.
var (
	ErrDateFormat = errors.New("not a date")
	//lint:ignore ST1005 the reference's sentence, which surfaces show as it is
	ErrDateRange = errors.New(TimeRangeMessage)
)

// dateLayouts are the forms clients of the reference send for a date or a
// time: a bare day, RFC 3339 with a zone, and RFC 3339 without one (the Omi
// MCP server sends start_date=2025-12-01T00:00:00), with a T or a space.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
}

// ParseDate is the one parser for every date argument of the REST twins,
// the MCP tools and the developer API. A time without a zone, or a bare
// day, is read in loc (the user's time zone; UTC when nil), so that a day
// means the user's day. day reports a bare YYYY-MM-DD, which callers may
// stretch to the day's end. Times outside [MinTime, MaxTime) are refused
// with ErrDateRange.
func ParseDate(value string, loc *time.Location) (t time.Time, day bool, err error) {
	if loc == nil {
		loc = time.UTC
	}
	value = strings.TrimSpace(value)
	if t, err := time.ParseInLocation(time.DateOnly, value, loc); err == nil {
		return t, true, inRange(t)
	}
	for _, layout := range dateLayouts {
		if t, err := time.ParseInLocation(layout, value, loc); err == nil {
			return t, false, inRange(t)
		}
	}
	return time.Time{}, false, ErrDateFormat
}

func inRange(t time.Time) error {
	if !TimeInRange(t) {
		return ErrDateRange
	}
	return nil
}
