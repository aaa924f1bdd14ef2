package appliance

import (
	"encoding/json"
	"time"
)

// AudioFile is one recording kept for a conversation, in the reference's
// shape: a live session that reconnects to the same conversation adds a
// file. StartedAt is the wall time of its first sample: a conversation
// second t plays at t − (StartedAt − the conversation's started_at) in it.
type AudioFile struct {
	ID              string    `json:"id"`
	UID             string    `json:"uid"`
	ConversationID  string    `json:"conversation_id"`
	ChunkTimestamps []float64 `json:"chunk_timestamps"`
	Provider        string    `json:"provider"`
	StartedAt       time.Time `json:"started_at"`
	// Duration is in seconds.
	Duration float64 `json:"duration"`
}

// AudioFiles is a conversation's kept recordings; none is [] in JSON, the
// reference's default, never null.
type AudioFiles []AudioFile

func (a AudioFiles) MarshalJSON() ([]byte, error) {
	if a == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]AudioFile(a))
}

// AudioStatus is what the System page shows of the kept audio: whether it
// is kept (Reason says why not), the retention, and a user's use of their
// quota.
type AudioStatus struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
	Retention string `json:"retention"`
	Quota     int64  `json:"quota_bytes"`
	Used      int64  `json:"used_bytes"`
	Dir       string `json:"dir,omitempty"`
}
