package appliance

import "time"

// SelfPersonID is the person id a client uses for the owner themself.
const SelfPersonID = "user"

// SpeakerAssignment is the owner naming the voice behind a live speaker:
// the segments take the person (the owner's own segments become is_user),
// and the assignment is kept as evidence for learning voices.
type SpeakerAssignment struct {
	UserID         string
	ConversationID string
	SpeakerID      int
	PersonID       string // SelfPersonID, or one of the user's people
	PersonName     string // names a person the appliance does not know yet
	SegmentIDs     []string
	CreatedAt      time.Time
}

// Self reports whether the assignment names the owner.
func (a SpeakerAssignment) Self() bool { return a.PersonID == SelfPersonID }
