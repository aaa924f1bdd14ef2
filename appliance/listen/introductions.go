package listen

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
)

// A speaker who introduces themself ("my name is John", "I'm John") is
// suggested under that name (speaker_label_suggestion), as the reference's
// text-based detection does. With create_speakers=true and
// speaker_auto_assign=enabled the person is created and the speaker
// assigned to them at once.

// "my name is" is unmistakable in any case; after "I'm" a name must be
// capitalised (in lower case it is too easily a word: "i'm fine"). Both
// are compiled at first use, not as the program starts: the {1,30}s make
// them 0.07 ms of start-up.
var (
	myNameIs = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bmy name is ([a-z][a-z'-]{1,30})\b`)
	})
	iAm = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:I'm|I am|i'm|i am) ([A-Z][a-z'-]{1,30})\b`)
	})
)

// notNames are words that follow "I am" without being a name.
var notNames = map[string]bool{"going": true, "sure": true, "not": true, "sorry": true, "here": true, "fine": true,
	"good": true, "glad": true, "happy": true, "just": true, "so": true, "really": true, "also": true, "still": true}

// introducedName returns the name a segment's speaker gives themself.
func introducedName(text string) string {
	m := myNameIs().FindStringSubmatch(text)
	if m == nil {
		m = iAm().FindStringSubmatch(text)
	}
	if m == nil {
		return ""
	}
	name := m[1]
	if notNames[strings.ToLower(name)] {
		return ""
	}
	return strings.ToUpper(name[:1]) + strings.ToLower(name[1:])
}

// introductions looks for self-introductions in segments just sent (with
// their ids). Called with s.mu held.
func (s *session) introductions(ctx context.Context, sent []appliance.TranscriptSegment) {
	for _, seg := range sent {
		if seg.IsUser || seg.PersonID != nil {
			continue
		}
		name := introducedName(seg.Text)
		if name == "" {
			continue
		}
		if s.introduced == nil {
			s.introduced = map[int]string{}
		}
		if s.introduced[seg.SpeakerID] == name {
			continue
		}
		s.introduced[seg.SpeakerID] = name
		personID := ""
		if s.p.CreateSpeakers && s.p.SpeakerAutoAssign && s.conv != nil {
			personID = uuid.NewString()
			if s.people == nil {
				s.people = map[int]string{}
			}
			s.people[seg.SpeakerID] = personID
			a := appliance.SpeakerAssignment{UserID: s.user, ConversationID: s.conv.ID, SpeakerID: seg.SpeakerID,
				PersonID: personID, PersonName: name, SegmentIDs: []string{seg.ID}}
			go func() {
				if _, err := s.srv.d.Conversations.AssignSpeaker(context.WithoutCancel(ctx), a); err != nil {
					s.srv.d.Logger.Warn("introduced speaker not stored", "user", s.user, "err", err)
				}
			}()
		}
		s.send(suggestion(seg.SpeakerID, personID, name, seg.ID))
	}
}
