package appliance

import (
	"sort"
	"strings"
	"time"
)

// Meeting-treatment thresholds: the reference gives a desktop meeting that
// treatment only when it lasted five minutes with a minute of speech in it.
const (
	meetingMinDuration = 300 * time.Second
	meetingMinSpeech   = 60 * time.Second
)

// MeetingTreatment decides whether a finished conversation gets meeting
// treatment, and why (eligible, too_short, insufficient_speech, rotation,
// discarded, not_desktop_meeting).
func MeetingTreatment(c *Conversation, role ConversationRole, reason FinalizationReason) (bool, string) {
	switch {
	case c.Source != SourceDesktop || role != RoleMeeting:
		return false, "not_desktop_meeting"
	case reason == "max_duration_rotation":
		return false, "rotation"
	case c.Discarded:
		return false, "discarded"
	case c.Duration() < meetingMinDuration:
		return false, "too_short"
	case SpeechTime(c.TranscriptSegments) < meetingMinSpeech:
		return false, "insufficient_speech"
	}
	return true, "eligible"
}

// SpeechTime is the length of the union of the [start, end] intervals of
// segments with text, so overlapping duplicates are counted once.
func SpeechTime(segs []TranscriptSegment) time.Duration {
	type span struct{ a, b float64 }
	spans := make([]span, 0, len(segs))
	for _, s := range segs {
		if strings.TrimSpace(s.Text) != "" && s.End > s.Start {
			spans = append(spans, span{s.Start, s.End})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].a < spans[j].a })
	var total float64
	for i := 0; i < len(spans); {
		a, b := spans[i].a, spans[i].b
		j := i + 1
		for ; j < len(spans) && spans[j].a <= b; j++ {
			b = max(b, spans[j].b)
		}
		total += b - a
		i = j
	}
	return time.Duration(total * float64(time.Second))
}
