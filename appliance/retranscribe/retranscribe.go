// Package retranscribe transcribes conversations again from their kept
// audio ("Transcribe again with …"), as background jobs: one conversation,
// a selection, or all of a user's, through one speech route's batch side
// or the first that serves.
//
// A job is a row (store: retranscribe_jobs). Each conversation's new
// transcript replaces the old as one revision, in the transaction that
// moves the job on (conversation.Service.ReplaceTranscript), so a job
// stopped by a restart resumes at the conversation it was on and never
// does one twice. Cancelling stops the conversation being transcribed; the
// ones already done keep their new revision.
package retranscribe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// Store is what jobs need from persistence.
type Store interface {
	CreateRetranscribeJob(ctx context.Context, j *appliance.RetranscribeJob) error
	RetranscribeJob(ctx context.Context, userID, id string) (*appliance.RetranscribeJob, error)
	RetranscribeJobs(ctx context.Context, userID string, limit int) ([]*appliance.RetranscribeJob, error)
	OpenRetranscribeJobs(ctx context.Context) ([]*appliance.RetranscribeJob, error)
	SetRetranscribeStatus(ctx context.Context, userID, id string, from []appliance.RetranscribeStatus, to appliance.RetranscribeStatus, why string) error
	SkipRetranscribe(ctx context.Context, userID, jobID string, at int, why string) error
	RecordedConversationIDs(ctx context.Context, userID string) ([]string, error)
	ConversationHead(ctx context.Context, userID, id string) (*appliance.Conversation, error)
}

// Audio is where the conversations' recordings are kept (recordings.Keeper).
type Audio interface {
	Files(user, conv string) (appliance.AudioFiles, error)
	Source(user, conv, id string) (audio.Source, error)
}

// Conversations replaces a transcript as one revision (conversation.Service).
type Conversations interface {
	ReplaceTranscript(ctx context.Context, r conversation.Retranscribed) (*appliance.Conversation, error)
}

// Voices are the users' known voices: the owner's speech profile and the
// people they named (speaker.Profiles).
type Voices interface {
	Household(ctx context.Context, userID string) (Household, error)
}

// Household tells whose voice a stretch of speech is.
type Household interface {
	Identify(ctx context.Context, pcm []int16) (speaker.Identity, error)
}

// Deps are the parts a Runner is built from (wired by hand in cmd).
type Deps struct {
	Store         Store
	Audio         Audio
	Conversations Conversations
	// Routes are the speech routes' batch sides, in order of preference.
	Routes []stt.BatchProvider
	// Diarizer tells voices apart where the route names no speakers; nil
	// labels one speaker.
	Diarizer transcribe.Diarizer
	// Voices marks the owner's segments and the people's; nil marks none.
	Voices Voices
	Logger *slog.Logger
	Now    func() time.Time
}

// Runner creates jobs and runs them, one at a time, in the background.
type Runner struct {
	d    Deps
	wake chan struct{}

	mu      sync.Mutex
	running map[string]context.CancelFunc // by job id
}

// New returns a runner; Run runs its jobs.
func New(d Deps) *Runner {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Runner{d: d, wake: make(chan struct{}, 1), running: map[string]context.CancelFunc{}}
}

// Routes names the routes a job may ask for.
func (r *Runner) Routes() []string {
	out := make([]string, 0, len(r.d.Routes))
	for _, p := range r.d.Routes {
		out = append(out, p.Name())
	}
	return out
}

// Request is what a user asks to transcribe again.
type Request struct {
	UserID string
	// Route names one route; "" is the first that serves each conversation.
	Route string
	// ConversationIDs, or All for every conversation of the user's with
	// kept audio.
	ConversationIDs []string
	All             bool
}

// maxJobConversations bounds one job (a selection, or "all").
const maxJobConversations = 10000

// Start queues a job. A conversation that is not the user's is ENOTFOUND,
// one without kept audio EINVALID (with All, those are passed over).
func (r *Runner) Start(ctx context.Context, q Request) (*appliance.RetranscribeJob, error) {
	if q.Route != "" && !slices.Contains(r.Routes(), q.Route) {
		return nil, appliance.Errorf(appliance.EINVALID, "Unknown speech route %q (known: %s)", q.Route, strings.Join(r.Routes(), ", "))
	}
	ids := q.ConversationIDs
	if q.All {
		all, err := r.d.Store.RecordedConversationIDs(ctx, q.UserID)
		if err != nil {
			return nil, err
		}
		ids = ids[:0:0]
		for _, id := range all {
			if conv, err := r.d.Store.ConversationHead(ctx, q.UserID, id); err != nil || replaceable(conv) != nil {
				continue
			}
			if fs, err := r.d.Audio.Files(q.UserID, id); err == nil && len(fs) > 0 {
				ids = append(ids, id)
			}
		}
	} else {
		seen := map[string]bool{}
		var uniq []string
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			conv, err := r.d.Store.ConversationHead(ctx, q.UserID, id)
			if appliance.ErrorCode(err) == appliance.ENOTFOUND {
				return nil, appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
			} else if err != nil {
				return nil, err
			}
			if err := replaceable(conv); err != nil {
				return nil, err
			}
			if fs, err := r.d.Audio.Files(q.UserID, id); err != nil || len(fs) == 0 {
				return nil, appliance.Errorf(appliance.EINVALID, "Conversation %s has no kept audio to transcribe", id)
			}
			uniq = append(uniq, id)
		}
		ids = uniq
	}
	if len(ids) == 0 {
		return nil, appliance.Errorf(appliance.EINVALID, "No conversation with kept audio to transcribe")
	}
	if len(ids) > maxJobConversations {
		return nil, appliance.Errorf(appliance.EINVALID, "At most %d conversations per job", maxJobConversations)
	}
	now := r.d.Now().UTC()
	j := &appliance.RetranscribeJob{ID: appliance.NewID(), UserID: q.UserID, Route: q.Route, ConversationIDs: ids,
		Status: appliance.RetranscribeQueued, CreatedAt: now, UpdatedAt: now}
	if err := r.d.Store.CreateRetranscribeJob(ctx, j); err != nil {
		return nil, err
	}
	r.d.Logger.Info("retranscribe job queued", "job_id", j.ID, "user_id", q.UserID, "route", q.Route, "conversations", len(ids))
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return j, nil
}

// replaceable is nil when conv's transcript may be replaced: it is no
// longer recording or being processed, and not locked (the owner unlocks
// it to change it, as for every other change on the console).
func replaceable(conv *appliance.Conversation) error {
	if conv.IsLocked {
		return appliance.Errorf(appliance.ECONFLICT, "This conversation is locked: unlock it to change it")
	}
	if conv.Status != appliance.StatusCompleted && conv.Status != appliance.StatusFailed {
		return appliance.Errorf(appliance.ECONFLICT, "Conversation is %s", conv.Status)
	}
	return nil
}

// Job is one of the user's jobs.
func (r *Runner) Job(ctx context.Context, userID, id string) (*appliance.RetranscribeJob, error) {
	return r.d.Store.RetranscribeJob(ctx, userID, id)
}

// Jobs are the user's latest jobs, newest first.
func (r *Runner) Jobs(ctx context.Context, userID string) ([]*appliance.RetranscribeJob, error) {
	return r.d.Store.RetranscribeJobs(ctx, userID, 20)
}

// Cancel stops one of the user's open jobs; a finished one is ECONFLICT.
func (r *Runner) Cancel(ctx context.Context, userID, id string) (*appliance.RetranscribeJob, error) {
	err := r.d.Store.SetRetranscribeStatus(ctx, userID, id,
		[]appliance.RetranscribeStatus{appliance.RetranscribeQueued, appliance.RetranscribeRunning}, appliance.RetranscribeCancelled, "")
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if cancel := r.running[id]; cancel != nil {
		cancel()
	}
	r.mu.Unlock()
	r.d.Logger.Info("retranscribe job cancelled", "job_id", id, "user_id", userID)
	return r.d.Store.RetranscribeJob(ctx, userID, id)
}

// Run runs open jobs, oldest first (those a restart interrupted
// included), until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	for {
		jobs, err := r.d.Store.OpenRetranscribeJobs(ctx)
		if err != nil && ctx.Err() == nil {
			r.d.Logger.Error("list retranscribe jobs", "err", err)
		}
		for _, j := range jobs {
			if ctx.Err() != nil {
				return
			}
			r.runJob(ctx, j)
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-time.After(time.Minute):
		}
	}
}

// runJob transcribes the job's conversations from where it stands. When
// ctx ends (shutdown) the job stays running, for the next start.
func (r *Runner) runJob(ctx context.Context, j *appliance.RetranscribeJob) {
	open := []appliance.RetranscribeStatus{appliance.RetranscribeQueued, appliance.RetranscribeRunning}
	if err := r.d.Store.SetRetranscribeStatus(ctx, j.UserID, j.ID, open, appliance.RetranscribeRunning, j.Error); err != nil {
		return // cancelled meanwhile
	}
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.mu.Lock()
	r.running[j.ID] = cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.running, j.ID)
		r.mu.Unlock()
	}()
	log := r.d.Logger.With("job_id", j.ID, "user_id", j.UserID)
	if j.Done > 0 {
		log.Info("retranscribe job resumed", "done", j.Done, "of", len(j.ConversationIDs))
	}
	failed, why := j.Failed, j.Error
	for i := j.Done; i < len(j.ConversationIDs); i++ {
		id := j.ConversationIDs[i]
		err := r.one(jctx, j, i)
		if jctx.Err() != nil {
			return // cancelled, or shutting down (resumed at the next start)
		}
		if appliance.ErrorCode(err) == appliance.ECONFLICT {
			if cur, gerr := r.d.Store.RetranscribeJob(ctx, j.UserID, j.ID); gerr == nil && !cur.Status.Open() {
				return // cancelled between the transcription and its save
			}
		}
		if err != nil {
			failed, why = failed+1, failReason(id, err)
			log.Warn("retranscribe a conversation", "conversation_id", id, "err", err)
			if serr := r.d.Store.SkipRetranscribe(ctx, j.UserID, j.ID, i, why); serr != nil {
				log.Error("move a retranscribe job on", "err", serr)
				return
			}
		}
	}
	// The job keeps the last conversation's reason for keeping its
	// transcript: failed when none could be transcribed again.
	status := appliance.RetranscribeDone
	if failed == len(j.ConversationIDs) {
		status = appliance.RetranscribeFailed
	}
	if err := r.d.Store.SetRetranscribeStatus(ctx, j.UserID, j.ID, open, status, why); err != nil {
		log.Warn("finish a retranscribe job", "err", err)
		return
	}
	log.Info("retranscribe job finished", "status", status, "conversations", len(j.ConversationIDs), "failed", failed)
}

// failReason is what the owner reads of a conversation that kept its
// transcript.
func failReason(id string, err error) string {
	var se *stt.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("conversation %s: the speech route failed (%s)", id, cmp.Or(se.Reason, string(se.Outcome)))
	}
	if c := appliance.ErrorCode(err); c != appliance.EINTERNAL {
		return fmt.Sprintf("conversation %s: %s", id, appliance.ErrorMessage(err))
	}
	return fmt.Sprintf("conversation %s: it could not be transcribed again", id)
}

// one transcribes the job's i-th conversation again and saves it.
func (r *Runner) one(ctx context.Context, j *appliance.RetranscribeJob, i int) error {
	id := j.ConversationIDs[i]
	conv, err := r.d.Store.ConversationHead(ctx, j.UserID, id)
	if err != nil {
		return err
	}
	if err := replaceable(conv); err != nil {
		return err
	}
	files, err := r.d.Audio.Files(j.UserID, id)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return appliance.Errorf(appliance.EINVALID, "no kept audio")
	}
	svc := transcribe.New(r.d.Logger, r.routes(j.Route)...)
	if r.d.Diarizer != nil {
		svc = svc.WithDiarizer(r.d.Diarizer)
	}
	var house Household
	if r.d.Voices != nil {
		if house, err = r.d.Voices.Household(ctx, j.UserID); err != nil {
			r.d.Logger.Warn("load the user's voices", "user_id", j.UserID, "err", err)
		}
	}
	var segs []appliance.TranscriptSegment
	for _, f := range files {
		fs, err := r.file(ctx, svc, house, conv, f)
		if err != nil {
			return err
		}
		segs = append(segs, fs...)
	}
	if len(segs) == 0 {
		return appliance.Errorf(appliance.EINVALID, "the speech route heard no words; the transcript is kept")
	}
	_, err = r.d.Conversations.ReplaceTranscript(ctx, conversation.Retranscribed{UserID: j.UserID, ID: id, Segments: segs, JobID: j.ID, At: i})
	return err
}

// routes are the routes a job uses: the one it names, or all in order.
func (r *Runner) routes(name string) []stt.BatchProvider {
	if name == "" {
		return r.d.Routes
	}
	for _, p := range r.d.Routes {
		if p.Name() == name {
			return []stt.BatchProvider{p}
		}
	}
	return nil
}

// file transcribes one recording of conv, its times counted from the
// conversation's start.
func (r *Runner) file(ctx context.Context, svc *transcribe.Service, house Household, conv *appliance.Conversation,
	f appliance.AudioFile) ([]appliance.TranscriptSegment, error) {
	src, err := r.d.Audio.Source(conv.UserID, conv.ID, f.ID)
	if err != nil {
		return nil, err
	}
	pcm, err := readAll(src)
	src.Close()
	if err != nil {
		return nil, fmt.Errorf("decode recording %s: %w", f.ID, err)
	}
	offset := 0.0
	if conv.StartedAt != nil {
		offset = max(f.StartedAt.Sub(*conv.StartedAt).Seconds(), 0)
	}
	res, err := svc.Transcribe(ctx, &pcmSource{pcm: pcm}, transcribe.Options{Language: conv.Language, Diarize: true})
	if err != nil {
		return nil, err
	}
	out := make([]appliance.TranscriptSegment, 0, len(res.Segments))
	for _, s := range res.Segments {
		seg := appliance.TranscriptSegment{ID: appliance.NewID(), Text: s.Text, Speaker: s.Speaker,
			SpeakerID: speakerID(s.Speaker), Start: s.Start + offset, End: s.End + offset,
			Translations: []appliance.Translation{}, SpeechProfileProcessed: true}
		if res.Provider != "" {
			p := res.Provider
			seg.STTProvider = &p
		}
		out = append(out, seg)
	}
	if house != nil {
		r.identify(ctx, house, out, pcm, offset)
	}
	return out, nil
}

// maxVoiceSample bounds the speech embedded per speaker.
const maxVoiceSample = 60 * audio.Rate

// identify names each speaker the route or the diarizer told apart: their
// speech, taken together (a short segment alone is too little to tell a
// voice by), is matched with the owner's speech profile and the people's
// voices, and all their segments are marked the owner's or the person's.
func (r *Runner) identify(ctx context.Context, house Household, segs []appliance.TranscriptSegment, pcm []int16, offset float64) {
	speech := map[string][]int16{}
	for _, s := range segs {
		from, to := int((s.Start-offset)*audio.Rate), int((s.End-offset)*audio.Rate)
		from, to = max(min(from, len(pcm)), 0), max(min(to, len(pcm)), 0)
		if have := speech[s.Speaker]; len(have) < maxVoiceSample && to > from {
			speech[s.Speaker] = append(have, pcm[from:min(to, from+maxVoiceSample-len(have))]...)
		}
	}
	who := map[string]speaker.Identity{}
	for label, voice := range speech {
		if len(voice) < audio.Rate/2 {
			continue // too little to tell a voice by
		}
		id, err := house.Identify(ctx, voice)
		if err != nil {
			r.d.Logger.Warn("identify a speaker", "err", err)
			continue
		}
		who[label] = id
	}
	for i := range segs {
		id := who[segs[i].Speaker]
		switch {
		case id.Owner:
			segs[i].IsUser = true
		case id.PersonID != "":
			p := id.PersonID
			segs[i].PersonID = &p
		}
	}
}

// speakerID reads "SPEAKER_01" as 1.
func speakerID(label string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(label, "SPEAKER_"))
	if err != nil {
		return 0
	}
	return n
}

func readAll(src audio.Source) ([]int16, error) {
	var pcm []int16
	buf := make([]int16, audio.Rate)
	for {
		n, err := src.Read(buf)
		pcm = append(pcm, buf[:n]...)
		if err == io.EOF {
			return pcm, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// pcmSource is decoded audio as an audio.Source.
type pcmSource struct {
	pcm []int16
	pos int
}

func (p *pcmSource) Read(dst []int16) (int, error) {
	if p.pos >= len(p.pcm) {
		return 0, io.EOF
	}
	n := copy(dst, p.pcm[p.pos:])
	p.pos += n
	return n, nil
}

func (p *pcmSource) Duration() time.Duration {
	return time.Duration(len(p.pcm)) * time.Second / audio.Rate
}
func (p *pcmSource) Format() string { return "ogg opus (kept recording)" }
func (p *pcmSource) Close() error   { return nil }
