package listen

import (
	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// The server's messages on /v4/listen, one type per wire shape. Transcript
// updates are a bare JSON array of segments; every other message is an
// object whose "type" names it.

// readyStatus is service_status "ready". A custom-STT session names no
// provider; a fallback names why the preferred route was passed over.
type readyStatus struct {
	Type     string `json:"type"`
	Status   string `json:"status"`
	Provider string `json:"provider,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

func ready(provider, reason string) readyStatus {
	return readyStatus{Type: "service_status", Status: "ready", Provider: provider, Reason: reason}
}

// sttFailed is service_status "stt_failed", sent before the 1011 close.
type sttFailed struct {
	Type      string `json:"type"`
	Status    string `json:"status"`
	Outcome   string `json:"outcome"`
	Provider  string `json:"provider"`
	Retryable bool   `json:"retryable"`
	Reason    string `json:"reason"`
}

// sttFailedReason is the 1011 close reason: what is wrong, for a client
// that shows only the close (hearth listen), within the close frame.
func sttFailedReason(e *stt.Error) string {
	if e.Reason == "" || e.Reason == string(e.Outcome) {
		return "stt_failed"
	}
	return "stt_failed: " + e.Reason
}

// customSTTFailedReason is a custom-STT connection's 1011 close reason:
// that socket sends no status messages, so the close alone says what
// failed, by its outcome (timeout, upstream_error, config_error).
func customSTTFailedReason(e *stt.Error) string { return "stt_failed: " + string(e.Outcome) }

func sttFailedStatus(e *stt.Error) sttFailed {
	return sttFailed{Type: "service_status", Status: "stt_failed", Outcome: string(e.Outcome), Provider: e.Provider,
		Retryable: e.Outcome.Retryable(), Reason: orDefault(e.Reason, string(e.Outcome))}
}

// behindStatus is service_status "stt_behind": the route fell behind the
// audio and skipped to live audio. Nothing is lost (the session keeps the
// skipped audio and transcribes it as soon as it can), so the session
// goes on; "ready" follows once the route hears live audio again. The Omi
// app keeps the last service_status as its state: any status but "ready"
// shows as "Connecting", or as status_text with its diagnostics on.
type behindStatus struct {
	Type       string `json:"type"`
	Status     string `json:"status"`
	Provider   string `json:"provider,omitempty"`
	StatusText string `json:"status_text"`
}

func behind(provider string) behindStatus {
	return behindStatus{Type: "service_status", Status: "stt_behind", Provider: provider,
		StatusText: "Transcription is behind: the skipped audio is kept and transcribed shortly"}
}

// lastMemory names the user's latest processed conversation, right after
// connect.
type lastMemory struct {
	Type     string `json:"type"`
	MemoryID string `json:"memory_id"`
}

// memoryEvent is memory_processing_started and memory_created: the
// conversation sits under "memory".
type memoryEvent struct {
	Type     string                  `json:"type"`
	Memory   *appliance.Conversation `json:"memory"`
	Messages []any                   `json:"messages"`
}

func memoryMessage(kind string, c *appliance.Conversation) memoryEvent {
	return memoryEvent{Type: kind, Memory: c, Messages: []any{}}
}

// speakerLabelSuggestion tells the client a live speaker sounds like, or
// named themself as, a person.
type speakerLabelSuggestion struct {
	Type       string `json:"type"`
	SpeakerID  int    `json:"speaker_id"`
	PersonID   string `json:"person_id"`
	PersonName string `json:"person_name"`
	SegmentID  string `json:"segment_id"`
}

func suggestion(speakerID int, personID, personName, segmentID string) speakerLabelSuggestion {
	return speakerLabelSuggestion{Type: "speaker_label_suggestion", SpeakerID: speakerID, PersonID: personID,
		PersonName: personName, SegmentID: segmentID}
}

// photoProcessing and photoDescribed follow a photo the client sent.
type photoProcessing struct {
	Type    string `json:"type"`
	TempID  string `json:"temp_id"`
	PhotoID string `json:"photo_id"`
}

type photoDescribed struct {
	Type        string `json:"type"`
	PhotoID     string `json:"photo_id"`
	Description string `json:"description"`
	Discarded   bool   `json:"discarded"`
}
