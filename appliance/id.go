package appliance

import "github.com/google/uuid"

// NewID names a new record (conversation, segment, memory, action item).
// It is a version 7 UUID: random in its low 74 bits, but led by the
// creation time in milliseconds, so that consecutive records sort
// together. SQLite's primary-key and foreign-key indexes then grow at
// their right edge, as its rowid tables do, instead of touching a random
// leaf page per insert: a create writes fewer pages, and concurrent
// creates that share one commit share those pages. The id stays an
// opaque UUID string to clients.
func NewID() string {
	id, err := uuid.NewV7()
	if err != nil {
		// Only when the system's random source fails, which NewString
		// would report by panicking.
		return uuid.NewString()
	}
	return id.String()
}
