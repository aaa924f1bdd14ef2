package appliance

import (
	"errors"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   string
		loc  *time.Location
		want time.Time
		day  bool
		err  error
	}{
		{"2025-12-01", paris, time.Date(2025, 11, 30, 23, 0, 0, 0, time.UTC), true, nil},
		{"2025-12-01", nil, time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), true, nil},
		// The Omi MCP server's form: no zone means the user's zone.
		{"2025-12-01T00:00:00", paris, time.Date(2025, 11, 30, 23, 0, 0, 0, time.UTC), false, nil},
		{"2025-07-01T12:30:00", paris, time.Date(2025, 7, 1, 10, 30, 0, 0, time.UTC), false, nil},
		{"2025-12-01 08:00:00.5", nil, time.Date(2025, 12, 1, 8, 0, 0, 5e8, time.UTC), false, nil},
		{"2025-12-01T08:00", paris, time.Date(2025, 12, 1, 7, 0, 0, 0, time.UTC), false, nil},
		// A zone given wins over the user's.
		{"2025-12-01T00:00:00Z", paris, time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), false, nil},
		{"2025-12-01T00:00:00-05:00", paris, time.Date(2025, 12, 1, 5, 0, 0, 0, time.UTC), false, nil},
		{"2025-12-01T09:15+02:00", nil, time.Date(2025, 12, 1, 7, 15, 0, 0, time.UTC), false, nil},
		{" 2025-12-01 ", nil, time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), true, nil},
		{"", nil, time.Time{}, false, ErrDateFormat},
		{"yesterday", nil, time.Time{}, false, ErrDateFormat},
		{"03/01/2026", nil, time.Time{}, false, ErrDateFormat},
		{"2026-13-01", nil, time.Time{}, false, ErrDateFormat},
		{"2025-12-01T25:00:00", nil, time.Time{}, false, ErrDateFormat},
		{"1899-12-31", nil, time.Time{}, false, ErrDateRange},
		{"3000-01-01T00:00:00Z", nil, time.Time{}, false, ErrDateRange},
	} {
		got, day, err := ParseDate(tc.in, tc.loc)
		if !errors.Is(err, tc.err) || (err == nil && (!got.Equal(tc.want) || day != tc.day)) {
			t.Errorf("ParseDate(%q, %v) = %v, day %v, %v; want %v, day %v, %v", tc.in, tc.loc, got, day, err, tc.want, tc.day, tc.err)
		}
	}
}
