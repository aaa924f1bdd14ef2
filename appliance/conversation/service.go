// Package conversation is the conversation lifecycle: the only code that
// moves a conversation between states. Every entry point (the developer
// API, the owner's ID-token routes, and the live socket and uploads that
// build on them) calls it; handlers only parse requests and shape replies.
//
//	Start ──► in_progress ──Append…──► Finish ──► processing ──► completed
//	                                                  │              ▲
//	Create (segments or text) ──► processing ─────────┤              │
//	                                                  └──► failed ──Retry
//
// Processing runs the pipeline and saves the processed conversation, its
// action items and its memories in one transaction, then publishes
// EventConversationProcessed on the event stream.
package conversation

import (
	"context"
	"log/slog"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Store is what the lifecycle needs from persistence.
type Store interface {
	User(ctx context.Context, id string) (*appliance.User, error)

	ClaimConversation(ctx context.Context, c *appliance.Conversation, staleBefore time.Time) (*appliance.Conversation, bool, error)
	DeleteClaim(ctx context.Context, userID, id string) error
	SaveProcessedFiled(ctx context.Context, c *appliance.Conversation, memories []*appliance.Memory, systemFolder string) error
	SaveRetranscribed(ctx context.Context, jobID string, at int, c *appliance.Conversation, memories []*appliance.Memory) error
	AppendSegments(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment, replaces []string, finishedAt time.Time) error
	InsertSegments(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment, now time.Time) (appliance.ConversationStatus, error)
	SetConversationStatus(ctx context.Context, userID, id string, from []appliance.ConversationStatus, to appliance.ConversationStatus) error

	Conversation(ctx context.Context, userID, id string) (*appliance.Conversation, error)
	ConversationHead(ctx context.Context, userID, id string) (*appliance.Conversation, error)
	InProgressConversation(ctx context.Context, userID string) (*appliance.Conversation, error)
	StartRecording(ctx context.Context, c *appliance.Conversation, silenceTimeout time.Duration) error
	IdleInProgress(ctx context.Context, now time.Time, defaultTimeout time.Duration, limit int) ([]*appliance.Conversation, error)

	SetConversationTitle(ctx context.Context, userID, id, title string) error
	SetConversationStarred(ctx context.Context, userID, id string, starred bool) error
	DiscardConversation(ctx context.Context, userID, id string, discarded bool) error
	SetConversationLocked(ctx context.Context, userID, id string, locked bool) error
	DeleteConversation(ctx context.Context, userID, id string) error
	Folder(ctx context.Context, userID, id string) (*appliance.Folder, error)
	SetConversationFolder(ctx context.Context, userID, id string, folderID *string) error

	AssignSpeaker(ctx context.Context, a appliance.SpeakerAssignment) (int, error)
	SetSegmentTranslations(ctx context.Context, userID, id string, tr map[string][]appliance.Translation) error
	ActionItems(ctx context.Context, userID string, f appliance.ActionItemFilter) ([]*appliance.ActionItem, error)
	OpenActionItemTexts(ctx context.Context, userID, except string, limit int) ([]string, error)
	AddPhoto(ctx context.Context, userID, id string, p appliance.Photo) error
}

// Processor runs the conversation pipeline (appliance/pipeline).
type Processor interface {
	Process(ctx context.Context, c *appliance.Conversation, opt appliance.ProcessOptions) (appliance.ProcessResult, error)
}

// Tuning of the lifecycle.
const (
	// staleClaimAge: a create whose client_session_id claim is older than
	// this and never finished (the process died mid-request) is redone by
	// the next retry.
	staleClaimAge = 15 * time.Minute
	// processTimeout bounds one pipeline run. Processing is detached from
	// the caller's context, so a dropped connection never leaves a
	// half-written conversation behind.
	processTimeout = 2 * time.Minute
	// DefaultSilenceTimeout ends a recording after this long without new
	// speech, unless it was started with its own; the reference's default.
	DefaultSilenceTimeout = 2 * time.Minute
	// sweepEvery is how often idle recordings are looked for, as often as
	// the reference checks its live sessions.
	sweepEvery = 5 * time.Second
	// sweepBatch bounds one sweep; the rest wait for the next.
	sweepBatch = 50
)

// Deps are the parts a Service is built from (wired by hand in cmd).
type Deps struct {
	Store     Store
	Processor Processor
	// Events receives the lifecycle's events; nil drops them.
	Events appliance.EventPublisher
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SilenceTimeout is the default time without speech after which a live
	// recording ends; zero means DefaultSilenceTimeout.
	SilenceTimeout time.Duration
	// Audio holds the conversations' kept recordings; nil keeps none.
	Audio Audio
}

// Audio is where a conversation's recordings are kept: they go with it.
type Audio interface {
	Forget(ctx context.Context, userID, id string) error
}

// Live is what records into recordings as they are said (the live
// socket): before a recording is processed, it hears out and appends what
// is still being recognised.
type Live interface {
	HearOut(ctx context.Context, userID, id string)
}

// HearOutFrom makes Finish wait for live's last words of a recording. Set
// once, at wiring, before the service is used.
func (s *Service) HearOutFrom(live Live) { s.live = live }

// Service is the conversation lifecycle. It is safe for concurrent use.
type Service struct {
	live    Live
	store   Store
	proc    Processor
	events  appliance.EventPublisher
	log     *slog.Logger
	now     func() time.Time
	silence time.Duration
	audio   Audio
}

// New returns the lifecycle service.
func New(d Deps) *Service {
	if d.Events == nil {
		d.Events = appliance.NopPublisher{}
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.SilenceTimeout <= 0 {
		d.SilenceTimeout = DefaultSilenceTimeout
	}
	return &Service{store: d.Store, proc: d.Processor, events: d.Events, log: d.Logger, now: d.Now, silence: d.SilenceTimeout, audio: d.Audio}
}

// forgetAudio deletes a deleted conversation's recordings; a failure is
// logged (the sweep removes them later).
func (s *Service) forgetAudio(ctx context.Context, userID, id string) {
	if s.audio == nil {
		return
	}
	if err := s.audio.Forget(ctx, userID, id); err != nil {
		s.log.Warn("delete a conversation's audio", "conversation_id", id, "err", err)
	}
}

func (s *Service) publish(e appliance.StreamEvent) {
	if e.At.IsZero() {
		e.At = s.now().UTC()
	}
	s.events.Publish(e)
}
