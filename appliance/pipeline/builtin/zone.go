package builtin

import "time"

// Times said in another zone. People who work across zones give a time in
// the zone it was set in: "two pm eastern", "4 pm Tokyo time", "10am GMT".
// The time is that zone's wall clock on the day said, and the plan's
// instant is the same whatever zone the user hears it in. "Our time",
// "my time" and "local time" name the user's own.

// zoneNames are the zones said after a clock, by their usual spoken names.
var zoneNames = map[string]string{
	"eastern": "America/New_York", "et": "America/New_York", "est": "America/New_York", "edt": "America/New_York",
	"central": "America/Chicago", "ct": "America/Chicago", "cst": "America/Chicago", "cdt": "America/Chicago",
	"mountain": "America/Denver", "mst": "America/Denver", "mdt": "America/Denver",
	"pacific": "America/Los_Angeles", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles",
	"gmt": "UTC", "utc": "UTC", "zulu": "UTC",
	"bst": "Europe/London", "cet": "Europe/Paris", "cest": "Europe/Paris",
	"ist": "Asia/Kolkata", "jst": "Asia/Tokyo", "aest": "Australia/Sydney", "aedt": "Australia/Sydney",
}

// cityZones are said with "time": "London time", "New York time".
var cityZones = map[string]string{
	"london": "Europe/London", "uk": "Europe/London", "paris": "Europe/Paris", "berlin": "Europe/Berlin",
	"madrid": "Europe/Madrid", "amsterdam": "Europe/Amsterdam", "dublin": "Europe/Dublin", "lisbon": "Europe/Lisbon",
	"tokyo": "Asia/Tokyo", "singapore": "Asia/Singapore", "india": "Asia/Kolkata", "sydney": "Australia/Sydney",
	"melbourne": "Australia/Melbourne", "chicago": "America/Chicago", "denver": "America/Denver",
	"toronto": "America/Toronto", "california": "America/Los_Angeles", "seattle": "America/Los_Angeles",
	"york": "America/New_York", "angeles": "America/Los_Angeles", "la": "America/Los_Angeles",
	"our": "", "my": "", "your": "", "local": "",
}

// zoneAt reads a zone said at ws[i] after a clock: the zone's name ("" for
// the user's own) and how many words it takes, 0 when none is said.
func zoneAt(ws []cword, i int) (string, int) {
	w := wordAt(ws, i)
	if z, ok := zoneNames[w]; ok {
		if wordAt(ws, i+1) == "time" && ws[i].punct == 0 {
			return z, 2
		}
		return z, 1
	}
	if z, ok := cityZones[w]; ok && wordAt(ws, i+1) == "time" && ws[i].punct == 0 {
		return z, 2
	}
	if (w == "new" || w == "los") && ws[i].punct == 0 {
		if z, ok := cityZones[wordAt(ws, i+1)]; ok && wordAt(ws, i+2) == "time" && ws[i+1].punct == 0 {
			return z, 3
		}
	}
	return "", 0
}

// inZone is the wall-clock time y-m-d h:mi in the zone named, or in loc
// when the name is empty or unknown.
func inZone(y int, m time.Month, d, h, mi int, zone string, loc *time.Location) time.Time {
	if zone != "" {
		if zl, err := time.LoadLocation(zone); err == nil {
			return time.Date(y, m, d, h, mi, 0, 0, zl)
		}
	}
	return time.Date(y, m, d, h, mi, 0, 0, loc)
}
