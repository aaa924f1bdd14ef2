package appliance

// ConversationSource says what captured a conversation. The twenty spellings
// are the reference's and part of the wire contract.
type ConversationSource string

// The conversation sources, exactly as clients send them.
const (
	SourceFriend              ConversationSource = "friend"
	SourceOmi                 ConversationSource = "omi"
	SourceFieldy              ConversationSource = "fieldy"
	SourceBee                 ConversationSource = "bee"
	SourcePlaud               ConversationSource = "plaud"
	SourceFrame               ConversationSource = "frame"
	SourceFriendCom           ConversationSource = "friend_com"
	SourceAppleWatch          ConversationSource = "apple_watch"
	SourcePhone               ConversationSource = "phone"
	SourcePhoneCall           ConversationSource = "phone_call"
	SourceDesktop             ConversationSource = "desktop"
	SourceOpenglass           ConversationSource = "openglass"
	SourceScreenpipe          ConversationSource = "screenpipe"
	SourceWorkflow            ConversationSource = "workflow"
	SourceSDCard              ConversationSource = "sdcard"
	SourceExternalIntegration ConversationSource = "external_integration"
	SourceLimitless           ConversationSource = "limitless"
	SourceRaybanMeta          ConversationSource = "rayban_meta"
	SourceOnboarding          ConversationSource = "onboarding"
	SourceUnknown             ConversationSource = "unknown"
)

// ConversationSources lists all twenty sources in the reference's order.
var ConversationSources = []ConversationSource{
	SourceFriend, SourceOmi, SourceFieldy, SourceBee, SourcePlaud, SourceFrame, SourceFriendCom,
	SourceAppleWatch, SourcePhone, SourcePhoneCall, SourceDesktop, SourceOpenglass, SourceScreenpipe,
	SourceWorkflow, SourceSDCard, SourceExternalIntegration, SourceLimitless, SourceRaybanMeta,
	SourceOnboarding, SourceUnknown,
}

// ParseConversationSource maps any string to a source; an unknown spelling
// becomes "unknown" rather than an error, as the reference does.
func ParseConversationSource(s string) ConversationSource {
	for _, v := range ConversationSources {
		if string(v) == s {
			return v
		}
	}
	return SourceUnknown
}

// IsTextIntegration reports whether a source is a text integration, whose
// conversations the reference never discards.
func (s ConversationSource) IsTextIntegration() bool {
	return s == SourceWorkflow || s == SourceExternalIntegration
}

// Category is structured.category: one of 33 values.
type Category string

// CategoryOther is the fallback for anything outside the enum.
const CategoryOther Category = "other"

// Categories lists the reference's 33 wire values. Note the wire
// value "romantic" and the odd-looking "real": both are the reference's.
var Categories = []Category{
	"personal", "education", "health", "finance", "legal", "philosophy", "spiritual", "science",
	"entrepreneurship", "parenting", "romantic", "travel", "inspiration", "technology", "business",
	"social", "work", "sports", "politics", "literature", "history", "architecture", "music",
	"weather", "news", "entertainment", "psychology", "real", "design", "family", "economics",
	"environment", "other",
}

// ParseCategory returns the category named s, and ok=false when s is not one.
func ParseCategory(s string) (Category, bool) {
	for _, c := range Categories {
		if string(c) == s {
			return c, true
		}
	}
	return CategoryOther, false
}

// NormalizeCategory coerces an invalid category to "other", as the reference's
// Structured validator does.
func NormalizeCategory(s string) Category {
	c, _ := ParseCategory(s)
	return c
}

// ConversationStatus is the processing state of a conversation.
type ConversationStatus string

// Conversation states: a recording is in_progress until it ends (the
// client's POST /v1/conversations or the silence timeout), then processing,
// then completed, or failed and retried into processing again.
const (
	StatusInProgress ConversationStatus = "in_progress"
	StatusProcessing ConversationStatus = "processing"
	StatusCompleted  ConversationStatus = "completed"
	StatusFailed     ConversationStatus = "failed"
)

// Visibility of a conversation or memory.
type Visibility string

// Visibility values; private is the default.
const (
	VisibilityPrivate Visibility = "private"
	VisibilityShared  Visibility = "shared"
	VisibilityPublic  Visibility = "public"
)

// FinalizationReason says why a client closed a conversation.
type FinalizationReason string

// FinalizationReasons are the accepted conversation_finalization_reason values.
var FinalizationReasons = []FinalizationReason{
	"user_stop", "finish_and_continue", "meeting_started", "meeting_ended",
	"max_duration_rotation", "crash_recovery", "retry",
}

// ConversationRole is ambient (default) or meeting.
type ConversationRole string

// Conversation roles.
const (
	RoleAmbient ConversationRole = "ambient"
	RoleMeeting ConversationRole = "meeting"
)

// GeolocationCaptureSource values accepted in geolocation.capture_source.
var GeolocationCaptureSources = []string{"current_position", "last_known_position", "manual", "integration"}
