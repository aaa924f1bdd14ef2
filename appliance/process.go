package appliance

import "time"

// ProcessOptions tune one run of the conversation pipeline.
type ProcessOptions struct {
	// ForceProcess (an ended recording, a retry) never discards.
	ForceProcess bool
	// Location is the user's time zone for resolving relative times; nil
	// means the appliance's local zone, as an empty User.TimeZone does.
	Location *time.Location
	// UserName lets the extractor name the user instead of "Speaker 0".
	UserName string
	// OpenActionItems are the descriptions of the user's open action items
	// from other conversations, so that the extractor does not add a task
	// the user already has. It is called only when the extractor found
	// tasks; nil means none.
	OpenActionItems func() []string
}

// ProcessResult is what processing produced besides the conversation
// itself.
type ProcessResult struct {
	// Memories extracted from a kept conversation, at most
	// MaxMemoriesPerConversation, with Content and Category set.
	Memories []Memory
}
