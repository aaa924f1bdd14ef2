package omiapp

import (
	"bytes"
	"encoding/json"
	"time"
)

// Message kinds that are not event types.
const (
	KindSegments = "segments" // a bare JSON array of segments
	KindPing     = "ping"     // the server's text heartbeat
	KindBinary   = "binary"   // a binary message (the app ignores them)
	KindInvalid  = "invalid"  // text that is neither JSON nor "ping"
)

// knownEvents are the event types the app dispatches; any other type is
// an UnknownEvent it does nothing with.
var knownEvents = map[string]bool{
	"service_status": true, "memory_processing_started": true, "memory_created": true, "last_memory": true,
	"translating": true, "photo_processing": true, "photo_described": true, "speaker_label_suggestion": true,
	"onboarding_question": true, "question_answered": true, "onboarding_complete": true,
	"freemium_threshold_reached": true,
}

// Message is one server message, in the order received.
type Message struct {
	// Kind is the event type ("service_status", "memory_created", ...,
	// "segments_deleted") or one of the Kind constants.
	Kind string
	// Unknown is an event whose type the app has no case for.
	Unknown bool
	// Segments are a KindSegments message's segments, or a translating
	// event's.
	Segments []Segment
	// Raw is the message as received.
	Raw  []byte
	At   time.Time
	Err  error // why a segments message could not be decoded
	data map[string]any
}

// Field is a top-level field of an event object, nil when absent.
func (m Message) Field(name string) any { return m.data[name] }

// Memory is the conversation an event carries under "memory" (its id and
// status, and the rest as decoded JSON), nil when there is none.
func (m Message) Memory() map[string]any {
	v, _ := m.data["memory"].(map[string]any)
	return v
}

func parseMessage(text []byte, at time.Time) Message {
	m := Message{Raw: append([]byte(nil), text...), At: at}
	trimmed := bytes.TrimSpace(text)
	switch {
	case string(text) == "ping":
		m.Kind = KindPing
	case bytes.HasPrefix(trimmed, []byte("[")):
		m.Kind = KindSegments
		m.Segments, m.Err = DecodeSegments(trimmed)
	default:
		if json.Unmarshal(trimmed, &m.data) != nil || m.data == nil {
			m.Kind = KindInvalid
			return m
		}
		typ, _ := m.data["type"].(string)
		if typ == "" {
			typ = "unknown"
		}
		m.Kind = typ
		m.Unknown = !knownEvents[typ]
		if typ == "translating" {
			var tr struct {
				Segments []Segment `json:"segments"`
			}
			if err := json.Unmarshal(trimmed, &tr); err != nil {
				m.Err = err
			}
			m.Segments = tr.Segments
		}
	}
	return m
}

// segmentIDs is a segments_deleted event's ids.
func (m Message) segmentIDs() []string {
	raw, _ := m.data["segment_ids"].([]any)
	var ids []string
	for _, v := range raw {
		if s, ok := v.(string); ok {
			ids = append(ids, s)
		}
	}
	return ids
}
