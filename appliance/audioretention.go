package appliance

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// AudioRetention is how long a conversation's recording is kept on disk:
// "forever" (until the conversation is deleted), "never" (nothing is
// written), or a number of days ("30d") after the recording started.
type AudioRetention struct {
	Never bool
	Days  int // 0 with Never false: forever
}

// ParseAudioRetention reads forever, never or Nd.
func ParseAudioRetention(s string) (AudioRetention, error) {
	switch s = strings.TrimSpace(strings.ToLower(s)); s {
	case "", "forever", "keep":
		return AudioRetention{}, nil
	case "never", "off":
		return AudioRetention{Never: true}, nil
	}
	n, err := strconv.Atoi(strings.TrimSuffix(s, "d"))
	if err != nil || n < 1 || !strings.HasSuffix(s, "d") {
		return AudioRetention{}, fmt.Errorf("audio retention %q: want forever, never or a number of days like 30d", s)
	}
	return AudioRetention{Days: n}, nil
}

func (r AudioRetention) String() string {
	switch {
	case r.Never:
		return "never"
	case r.Days > 0:
		return strconv.Itoa(r.Days) + "d"
	}
	return "forever"
}

// Expired reports whether a recording started at started is past the
// retention at now.
func (r AudioRetention) Expired(started, now time.Time) bool {
	return r.Days > 0 && now.Sub(started) > time.Duration(r.Days)*24*time.Hour
}
