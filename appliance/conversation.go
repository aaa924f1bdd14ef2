package appliance

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Conversation is the stored conversation model of the contract. Its JSON
// form is the full document; the developer API renders a narrower projection.
type Conversation struct {
	ID         string             `json:"id"`
	UserID     string             `json:"-"`
	CreatedAt  time.Time          `json:"created_at"`
	UpdatedAt  time.Time          `json:"updated_at"`
	StartedAt  *time.Time         `json:"started_at"`
	FinishedAt *time.Time         `json:"finished_at"`
	Source     ConversationSource `json:"source"`
	Language   string             `json:"language"`
	Status     ConversationStatus `json:"status"`
	Structured Structured         `json:"structured"`

	TranscriptSegments []TranscriptSegment `json:"transcript_segments"`
	Geolocation        *Geolocation        `json:"geolocation"`
	Photos             []Photo             `json:"photos"`
	// AudioFiles are the recordings kept on disk (appliance/recordings),
	// filled where a conversation is shown, not stored in the database.
	AudioFiles   AudioFiles     `json:"audio_files"`
	AppsResults  []AppResult    `json:"apps_results"`
	ExternalData map[string]any `json:"external_data"`

	Discarded  bool       `json:"discarded"`
	Deleted    bool       `json:"deleted"`
	Visibility Visibility `json:"visibility"`
	// IsLocked hides the conversation from developer and assistant surfaces.
	IsLocked bool    `json:"is_locked"`
	Starred  bool    `json:"starred"`
	FolderID *string `json:"folder_id"`

	ClientSessionID string `json:"-"`
	ClientDeviceID  string `json:"client_device_id,omitempty"`
	ClientPlatform  string `json:"client_platform,omitempty"`
	// ClientProcessing is an untrusted, client-authored display blob. It is
	// stored and shown back, never fed to the pipeline.
	ClientProcessing json.RawMessage `json:"client_processing,omitempty"`

	MeetingTreatmentEligible bool   `json:"meeting_treatment_eligible"`
	MeetingTreatmentReason   string `json:"meeting_treatment_reason,omitempty"`
}

// Duration is finished_at − started_at, or zero when either is unknown.
func (c *Conversation) Duration() time.Duration {
	if c.StartedAt == nil || c.FinishedAt == nil {
		return 0
	}
	return c.FinishedAt.Sub(*c.StartedAt)
}

// Structured is the machine-generated structure of a conversation.
type Structured struct {
	Title       string       `json:"title"`
	Overview    string       `json:"overview"`
	Emoji       string       `json:"emoji"`
	Category    Category     `json:"category"`
	ActionItems []ActionItem `json:"action_items"`
	Events      []Event      `json:"events"`
}

// DefaultEmoji is the emoji of an empty structure, the reference's default.
const DefaultEmoji = "🧠"

// EmptyStructured is the structure of a conversation not yet processed.
func EmptyStructured() Structured {
	return Structured{Emoji: DefaultEmoji, Category: CategoryOther, ActionItems: []ActionItem{}, Events: []Event{}}
}

// ActionItem is a task the user owns. Extracted ones link to their conversation.
type ActionItem struct {
	ID             string     `json:"id"`
	UserID         string     `json:"-"`
	Description    string     `json:"description"`
	Completed      bool       `json:"completed"`
	CreatedAt      *time.Time `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
	DueAt          *time.Time `json:"due_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	ConversationID *string    `json:"conversation_id"`
	IsLocked       bool       `json:"-"`
}

// Event is a dated plan found in a conversation.
type Event struct {
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Start       time.Time `json:"start"`
	Duration    int       `json:"duration"` // minutes
	Created     bool      `json:"created"`
}

// Event durations, as the reference's structuring step sets them: default
// 30 minutes, capped at 180.
const (
	DefaultEventMinutes = 30
	MaxEventMinutes     = 180
)

// TranscriptSegment is one stretch of speech by one speaker.
type TranscriptSegment struct {
	ID                     string        `json:"id"`
	Text                   string        `json:"text"`
	Speaker                string        `json:"speaker"`
	SpeakerID              int           `json:"speaker_id"`
	IsUser                 bool          `json:"is_user"`
	PersonID               *string       `json:"person_id"`
	Start                  float64       `json:"start"`
	End                    float64       `json:"end"`
	Translations           []Translation `json:"translations"`
	SpeechProfileProcessed bool          `json:"speech_profile_processed"`
	STTProvider            *string       `json:"stt_provider"`
}

// Translation of a segment into another language.
type Translation struct {
	Lang string `json:"lang"`
	Text string `json:"text"`
}

// DefaultSpeaker is the label of a segment that names no speaker.
const DefaultSpeaker = "SPEAKER_00"

// SpeakerIDFromLabel parses the number after the first "_" of a label such as
// SPEAKER_03. A missing or unparsable number gives 0, as in the reference.
func SpeakerIDFromLabel(label string) int {
	_, num, ok := strings.Cut(label, "_")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Geolocation is where a conversation happened.
type Geolocation struct {
	Latitude      float64    `json:"latitude"`
	Longitude     float64    `json:"longitude"`
	Accuracy      *float64   `json:"accuracy"`
	Address       *string    `json:"address"`
	Altitude      *float64   `json:"altitude"`
	CaptureSource *string    `json:"capture_source"`
	CapturedAt    *time.Time `json:"captured_at"`
	GooglePlaceID *string    `json:"google_place_id"`
	LocationType  *string    `json:"location_type"`
}

// Valid reports whether g is within bounds: latitude −90..90, longitude
// −180..180, accuracy finite and ≥ 0, altitude finite. An invalid geolocation
// is dropped (the conversation is still created), never rejected.
func (g *Geolocation) Valid() bool {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch {
	case g == nil:
		return false
	case !finite(g.Latitude) || g.Latitude < -90 || g.Latitude > 90:
		return false
	case !finite(g.Longitude) || g.Longitude < -180 || g.Longitude > 180:
		return false
	case g.Accuracy != nil && (!finite(*g.Accuracy) || *g.Accuracy < 0):
		return false
	case g.Altitude != nil && !finite(*g.Altitude):
		return false
	}
	return true
}

// Photo is an image captured during a conversation.
type Photo struct {
	ID          string    `json:"id"`
	Base64      string    `json:"base64"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
	Discarded   bool      `json:"discarded"`
}

// AppResult is the output of an app run over a conversation.
type AppResult struct {
	AppID   string `json:"app_id"`
	Content string `json:"content"`
}

// SpeakerName names a segment's speaker as the reference does: userName for
// the user's own segments, a known person's name, else "Speaker N".
func SpeakerName(seg TranscriptSegment, userName string, people map[string]string) string {
	if seg.IsUser {
		return userName
	}
	if seg.PersonID != nil {
		if name, ok := people[*seg.PersonID]; ok && name != "" {
			return name
		}
	}
	return "Speaker " + strconv.Itoa(seg.SpeakerID)
}

// The range of times the appliance accepts: every accepted time, and every
// time computed from one (a default finish five minutes later, a start plus
// a transcript's length), is stored and read back exactly.
var (
	MinTime = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC) // exclusive
)

// TimeInRange reports whether t is within [MinTime, MaxTime).
func TimeInRange(t time.Time) bool { return !t.Before(MinTime) && t.Before(MaxTime) }

// TimeRangeMessage is the 422 message for a time outside the range.
const TimeRangeMessage = "Datetime must be between 1900-01-01 and 2999-12-31"
