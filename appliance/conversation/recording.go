package conversation

import (
	"context"
	"errors"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Recording is how a live recording starts.
type Recording struct {
	UserID   string
	Source   appliance.ConversationSource
	Language string
	// SilenceTimeout ends the recording after this long without new speech
	// (a live session's conversation_timeout); zero means the appliance's
	// default (--silence-timeout).
	SilenceTimeout time.Duration
	// StartedAt is when the recording began (its first speech); zero means
	// now.
	StartedAt time.Time
}

// Start creates an in_progress conversation for a live recording: empty
// structure, no segments, started and last heard now.
func (s *Service) Start(ctx context.Context, r Recording) (*appliance.Conversation, error) {
	now := s.now().UTC()
	if r.SilenceTimeout <= 0 {
		r.SilenceTimeout = s.silence
	}
	if r.Source == "" {
		r.Source = appliance.SourceOmi
	}
	if r.Language == "" {
		r.Language = "en"
	}
	started := now
	if !r.StartedAt.IsZero() && r.StartedAt.Before(now) {
		started = r.StartedAt.UTC()
	}
	conv := &appliance.Conversation{
		ID: appliance.NewID(), UserID: r.UserID, CreatedAt: now, UpdatedAt: now, StartedAt: &started, FinishedAt: &now,
		Source: r.Source, Language: r.Language, Status: appliance.StatusInProgress,
		Structured: appliance.EmptyStructured(), TranscriptSegments: []appliance.TranscriptSegment{},
		ExternalData: map[string]any{}, Visibility: appliance.VisibilityPrivate,
	}
	if err := s.store.StartRecording(ctx, conv, r.SilenceTimeout); err != nil {
		return nil, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationStarted, UserID: r.UserID, ConversationID: conv.ID, Conversation: conv})
	return conv, nil
}

// Append adds segments to an in_progress conversation and marks the
// recording as heard now. A segment whose id the recording already has is
// rewritten where it stands (a live tail that a merge extended keeps its
// id); replaces names earlier segments to remove in the same write. Once
// Append returns nil the segments are committed and survive a crash of the
// process. A conversation that is no longer in progress is ECONFLICT: its
// recording has ended.
func (s *Service) Append(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment, replaces ...string) error {
	if len(segs) == 0 && len(replaces) == 0 {
		return nil
	}
	out := make([]appliance.TranscriptSegment, len(segs))
	for i, seg := range segs {
		if seg.ID == "" {
			seg.ID = appliance.NewID()
		}
		if seg.Translations == nil {
			seg.Translations = []appliance.Translation{}
		}
		out[i] = seg
	}
	if err := s.store.AppendSegments(ctx, userID, id, out, replaces, s.now().UTC()); err != nil {
		return err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventSegmentsAppended, UserID: userID, ConversationID: id, Segments: out, Replaced: replaces})
	return nil
}

// Insert puts segments transcribed late into a conversation's transcript
// by their start time, whatever its status: a live session's route that
// fell behind skipped audio, and the session transcribed it afterwards.
// Segments without an id get one. A recording still in progress waits
// its silence timeout again from now before it is processed; stale says
// that it was not in progress any more: processed (or being processed)
// without these segments, it wants Restructure once they are all in.
func (s *Service) Insert(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment) (stale bool, err error) {
	if len(segs) == 0 {
		return false, nil
	}
	out := make([]appliance.TranscriptSegment, len(segs))
	for i, seg := range segs {
		if seg.ID == "" {
			seg.ID = appliance.NewID()
		}
		if seg.Translations == nil {
			seg.Translations = []appliance.Translation{}
		}
		out[i] = seg
	}
	status, err := s.store.InsertSegments(ctx, userID, id, out, s.now().UTC())
	if err != nil {
		return false, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
	return status != appliance.StatusInProgress, nil
}

// FinishReason says why a recording ends.
type FinishReason int

const (
	// FinishSilence: nothing was heard for the silence timeout. The discard
	// rules apply, and a recording with no speech at all is deleted.
	FinishSilence FinishReason = iota
	// FinishRequested: the owner ended it (POST /v1/conversations). It is
	// never discarded.
	FinishRequested
	// FinishForced: the appliance ended it (a closing session, a rotation).
	// It is never discarded.
	FinishForced
)

// Finish ends an in_progress recording and processes it. Only one caller
// can finish a recording: another gets ECONFLICT. When processing fails the
// conversation is marked failed (see Retry) and the error returned.
func (s *Service) Finish(ctx context.Context, userID, id string, why FinishReason) (*appliance.Conversation, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), processTimeout)
	defer cancel()
	if s.live != nil {
		// Words still inside a live session's recognizer were said before
		// the end: they belong to this recording.
		s.live.HearOut(ctx, userID, id)
	}
	if err := s.store.SetConversationStatus(ctx, userID, id, []appliance.ConversationStatus{appliance.StatusInProgress}, appliance.StatusProcessing); err != nil {
		return nil, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventProcessingStarted, UserID: userID, ConversationID: id})
	conv, err := s.store.Conversation(ctx, userID, id)
	if err != nil {
		return nil, s.fail(ctx, userID, id, err)
	}
	if why == FinishSilence && len(conv.TranscriptSegments) == 0 && len(conv.Photos) == 0 {
		// Nothing was said: there is nothing to keep.
		if err := s.store.DeleteConversation(ctx, userID, id); err != nil {
			return nil, err
		}
		s.forgetAudio(ctx, userID, id)
		conv.Deleted = true
		s.publish(appliance.StreamEvent{Type: appliance.EventConversationChanged, UserID: userID, ConversationID: id})
		return conv, nil
	}
	return s.processAndSave(ctx, conv, appliance.ProcessOptions{ForceProcess: why != FinishSilence})
}

// EndRecording finishes the user's newest in_progress conversation now, at
// the owner's request: ENOTFOUND "Conversation in progress not found" when
// there is none.
func (s *Service) EndRecording(ctx context.Context, userID string) (*appliance.Conversation, error) {
	conv, err := s.store.InProgressConversation(ctx, userID)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "Conversation in progress not found")
	} else if err != nil {
		return nil, err
	}
	return s.Finish(ctx, userID, conv.ID, FinishRequested)
}

// Retry processes a failed conversation again. It is never discarded: it
// was already judged worth processing.
func (s *Service) Retry(ctx context.Context, userID, id string) (*appliance.Conversation, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), processTimeout)
	defer cancel()
	if err := s.store.SetConversationStatus(ctx, userID, id, []appliance.ConversationStatus{appliance.StatusFailed}, appliance.StatusProcessing); err != nil {
		return nil, err
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventProcessingStarted, UserID: userID, ConversationID: id})
	conv, err := s.store.Conversation(ctx, userID, id)
	if err != nil {
		return nil, s.fail(ctx, userID, id, err)
	}
	return s.processAndSave(ctx, conv, appliance.ProcessOptions{ForceProcess: true})
}

// Fail marks a conversation that is recording or processing as failed.
func (s *Service) Fail(ctx context.Context, userID, id string, cause error) error {
	return s.fail(ctx, userID, id, cause)
}

// fail marks the conversation failed, publishes why, and returns cause (or
// the error of marking it, when that fails too).
func (s *Service) fail(ctx context.Context, userID, id string, cause error) error {
	err := s.store.SetConversationStatus(ctx, userID, id,
		[]appliance.ConversationStatus{appliance.StatusInProgress, appliance.StatusProcessing}, appliance.StatusFailed)
	if err != nil {
		s.log.Error("mark conversation failed", "conversation_id", id, "err", err)
		return errors.Join(cause, err)
	}
	msg := "processing failed"
	if appliance.ErrorCode(cause) != appliance.EINTERNAL {
		msg = appliance.ErrorMessage(cause)
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventConversationFailed, UserID: userID, ConversationID: id, Err: msg})
	return cause
}

func (s *Service) processAndSave(ctx context.Context, conv *appliance.Conversation, opt appliance.ProcessOptions) (*appliance.Conversation, error) {
	conv.Status = appliance.StatusProcessing
	memories, err := s.process(ctx, conv, opt)
	if err != nil {
		return nil, s.fail(ctx, conv.UserID, conv.ID, err)
	}
	if err := s.saveProcessed(ctx, conv, memories); err != nil {
		return nil, s.fail(ctx, conv.UserID, conv.ID, err)
	}
	return conv, nil
}

// FinishIdle finishes every recording whose silence timeout has run out,
// and returns how many it finished. One that fails is logged and left
// failed; the others go on.
func (s *Service) FinishIdle(ctx context.Context) (int, error) {
	idle, err := s.store.IdleInProgress(ctx, s.now().UTC(), s.silence, sweepBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range idle {
		if ctx.Err() != nil {
			break
		}
		if _, err := s.Finish(ctx, c.UserID, c.ID, FinishSilence); err != nil {
			if appliance.ErrorCode(err) != appliance.ECONFLICT { // someone else finished it
				s.log.Warn("finish idle recording", "conversation_id", c.ID, "err", err)
			}
			continue
		}
		n++
	}
	return n, nil
}

// RunSilenceTimeouts finishes idle recordings every few seconds until ctx
// ends.
func (s *Service) RunSilenceTimeouts(ctx context.Context) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.FinishIdle(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("look for idle recordings", "err", err)
			}
		}
	}
}

// Resume returns the recording a reconnecting session continues: the
// user's in_progress conversation, when its last speech is within
// r.SilenceTimeout; one whose timeout has run out is finished first (its
// processing runs now) and a new recording started.
func (s *Service) Resume(ctx context.Context, r Recording) (conv *appliance.Conversation, resumed bool, err error) {
	if r.SilenceTimeout <= 0 {
		r.SilenceTimeout = s.silence
	}
	cur, err := s.store.InProgressConversation(ctx, r.UserID)
	switch {
	case appliance.ErrorCode(err) == appliance.ENOTFOUND:
	case err != nil:
		return nil, false, err
	case cur.FinishedAt != nil && s.now().Sub(*cur.FinishedAt) < r.SilenceTimeout:
		return cur, true, nil
	default:
		if _, err := s.Finish(ctx, r.UserID, cur.ID, FinishSilence); err != nil && appliance.ErrorCode(err) != appliance.ECONFLICT {
			s.log.Warn("finish an expired recording on reconnect", "conversation_id", cur.ID, "err", err)
		}
	}
	conv, err = s.Start(ctx, r)
	return conv, false, err
}
