package appliance

import "time"

// EventType names what happened to a user's data.
type EventType string

// Events of the conversation lifecycle and of searchable records. Every
// write that the search index or a live view cares about publishes one.
const (
	// EventConversationStarted: an in_progress conversation was created
	// (Conversation is set).
	EventConversationStarted EventType = "conversation.started"
	// EventSegmentsAppended: segments were durably added to an in_progress
	// conversation (Segments holds the new ones).
	EventSegmentsAppended EventType = "conversation.segments_appended"
	// EventProcessingStarted: the conversation entered processing.
	EventProcessingStarted EventType = "conversation.processing_started"
	// EventConversationProcessed: processing finished and the result, its
	// action items and memories were saved (Conversation and Memories set).
	EventConversationProcessed EventType = "conversation.processed"
	// EventConversationFailed: processing failed; Err says why.
	EventConversationFailed EventType = "conversation.failed"
	// EventConversationChanged: title, discard flag, lock, folder or
	// deletion changed.
	EventConversationChanged EventType = "conversation.changed"
	// EventMemoryCreated: memories were created (Memories set).
	EventMemoryCreated EventType = "memory.created"
	// EventMemoryChanged: a memory was edited, locked or deleted.
	EventMemoryChanged EventType = "memory.changed"
	// EventActionItemChanged: action items were created, edited or deleted.
	EventActionItemChanged EventType = "action_item.changed"
)

// StreamEvent is one thing that happened to one user's data. Subscribers get
// pointers to shared values and must not modify them.
type StreamEvent struct {
	Type   EventType `json:"type"`
	UserID string    `json:"-"`
	At     time.Time `json:"at"`
	// ConversationID names the conversation the event is about, if any.
	ConversationID string              `json:"conversation_id,omitempty"`
	Conversation   *Conversation       `json:"conversation,omitempty"`
	Segments       []TranscriptSegment `json:"segments,omitempty"`
	// Replaced names segments removed in the same write (a merged tail
	// keeps its id and is rewritten in place, so the live path removes none).
	Replaced []string  `json:"replaced,omitempty"`
	Memories []*Memory `json:"memories,omitempty"`
	// Err is a client-safe reason for EventConversationFailed.
	Err string `json:"error,omitempty"`
}

// EventPublisher takes events. Publish never blocks on a subscriber.
type EventPublisher interface {
	Publish(e StreamEvent)
}

// EventSubscriber hands out subscriptions.
type EventSubscriber interface {
	// Subscribe returns the events of one user, or of every user when
	// userID is empty. Close the subscription when done.
	Subscribe(userID string) Subscription
}

// Subscription is a bounded stream of events. A subscriber that falls
// behind loses events rather than slowing the publisher; Dropped counts
// them, so a subscriber can notice and resynchronise from the store.
type Subscription interface {
	C() <-chan StreamEvent
	Dropped() uint64
	Close()
}

// NopPublisher drops every event, for parts wired without a stream.
type NopPublisher struct{}

// Publish implements EventPublisher.
func (NopPublisher) Publish(StreamEvent) {}
