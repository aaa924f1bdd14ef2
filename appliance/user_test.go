package appliance_test

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestUserZoneName: the zone a browser shows a user's times in is theirs
// when the zone database knows it, else the appliance's as $TZ names it;
// nothing when neither names a known zone and /etc/localtime does not
// either (the browser then uses its own).
func TestUserZoneName(t *testing.T) {
	tests := []struct {
		name, own, tz, want string
	}{
		{"their own", "Asia/Tokyo", "Europe/Berlin", "Asia/Tokyo"},
		{"the appliance's", "", "Europe/Berlin", "Europe/Berlin"},
		{"the appliance's, as a TZ file name", "", ":Europe/Berlin", "Europe/Berlin"},
		{"theirs unknown here", "Mars/Olympus_Mons", "Europe/Berlin", "Europe/Berlin"},
		{"UTC", "", "UTC", "UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TZ", tt.tz)
			u := &appliance.User{TimeZone: tt.own}
			if got := u.ZoneName(); got != tt.want {
				t.Errorf("ZoneName() = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("an unknown TZ", func(t *testing.T) {
		t.Setenv("TZ", "Nowhere/Special")
		// /etc/localtime may name a zone on this machine; an unknown
		// $TZ never comes back.
		if got := (&appliance.User{}).ZoneName(); got == "Nowhere/Special" {
			t.Errorf("ZoneName() = %q", got)
		}
	})
}
