package records

import (
	"errors"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// ParseDay reads a date argument (YYYY-MM-DD, or an RFC 3339 time with or
// without a zone, which assistants and the Omi MCP server send) in loc. A
// day starts at midnight, or with endOfDay ends at its last nanosecond, so
// that end_date includes that day. The error is EINVALID "Invalid <field>
// format: '<value>'. Expected YYYY-MM-DD."
func ParseDay(field, value string, loc *time.Location, endOfDay bool) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	t, day, err := appliance.ParseDate(value, loc)
	if err != nil {
		return nil, appliance.Errorf(appliance.EINVALID, "Invalid %s format: '%s'. Expected YYYY-MM-DD.", field, value)
	}
	if day && endOfDay {
		t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
	}
	return &t, nil
}

// parseInstant reads an ISO time argument (or a bare date, as midnight in
// loc).
func parseInstant(field, value string, loc *time.Location) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	t, _, err := appliance.ParseDate(value, loc)
	if errors.Is(err, appliance.ErrDateRange) {
		return nil, appliance.Errorf(appliance.EINVALID, "%s: %s", field, appliance.TimeRangeMessage)
	}
	if err != nil {
		return nil, appliance.Errorf(appliance.EINVALID, "Invalid %s format: '%s'. Expected ISO 8601 (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).", field, value)
	}
	return &t, nil
}
