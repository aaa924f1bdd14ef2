package records

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// ParseDay reads a date argument (YYYY-MM-DD, or an RFC 3339 time, which
// assistants often send) in loc. A day starts at midnight, or with endOfDay
// ends at its last nanosecond, so that end_date includes that day. The
// error is EINVALID "Invalid <field> format: '<value>'. Expected YYYY-MM-DD."
func ParseDay(field, value string, loc *time.Location, endOfDay bool) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	if t, err := time.ParseInLocation(time.DateOnly, value, loc); err == nil {
		if endOfDay {
			t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
		}
		return &t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, value); err == nil {
		return &t, nil
	}
	return nil, appliance.Errorf(appliance.EINVALID, "Invalid %s format: '%s'. Expected YYYY-MM-DD.", field, value)
}

// parseInstant reads an ISO time argument (or a bare date, as midnight in
// loc).
func parseInstant(field, value string, loc *time.Location) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.ParseInLocation(layout, value, loc); err == nil {
			if !appliance.TimeInRange(t) {
				return nil, appliance.Errorf(appliance.EINVALID, "%s: %s", field, appliance.TimeRangeMessage)
			}
			return &t, nil
		}
	}
	return nil, appliance.Errorf(appliance.EINVALID, "Invalid %s format: '%s'. Expected ISO 8601 (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).", field, value)
}
