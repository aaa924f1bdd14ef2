package appliance

import "time"

// RetranscribeJob transcribes a user's conversations again from their kept
// audio, through one speech route (or the first that serves), in the
// background. Done counts the conversations finished, in order; a job
// resumed after a restart starts at ConversationIDs[Done].
type RetranscribeJob struct {
	ID              string             `json:"id"`
	UserID          string             `json:"-"`
	Route           string             `json:"route"`
	ConversationIDs []string           `json:"conversation_ids"`
	Done            int                `json:"done"`
	Failed          int                `json:"failed"`
	Status          RetranscribeStatus `json:"status"`
	Error           string             `json:"error,omitempty"`
	CreatedAt       time.Time          `json:"created_at"`
	UpdatedAt       time.Time          `json:"updated_at"`
}

// RetranscribeStatus is a job's state.
type RetranscribeStatus string

// Job states: queued and running jobs are open (run, or resumed at start);
// the others are final.
const (
	RetranscribeQueued    RetranscribeStatus = "queued"
	RetranscribeRunning   RetranscribeStatus = "running"
	RetranscribeDone      RetranscribeStatus = "done"
	RetranscribeFailed    RetranscribeStatus = "failed"
	RetranscribeCancelled RetranscribeStatus = "cancelled"
)

// Open reports whether the job still has work to do.
func (s RetranscribeStatus) Open() bool {
	return s == RetranscribeQueued || s == RetranscribeRunning
}
