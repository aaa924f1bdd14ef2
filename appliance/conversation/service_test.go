package conversation_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/events"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/store"
)

// env is the lifecycle on a real SQLite file with the real built-in
// pipeline, a controllable clock and the event stream.
type env struct {
	t      *testing.T
	db     *store.DB
	svc    *conversation.Service
	broker *events.Broker
	proc   *flakyPipeline
	clock  *clock
	user   string
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// flakyPipeline is the real pipeline with an injectable failure, for the
// paths where processing fails (an LLM route that is down, say).
type flakyPipeline struct {
	real  *pipeline.Pipeline
	fails atomic.Int32 // the next n calls fail
}

func (p *flakyPipeline) Process(ctx context.Context, c *appliance.Conversation, opt appliance.ProcessOptions) (appliance.ProcessResult, error) {
	if p.fails.Add(-1) >= 0 {
		return appliance.ProcessResult{}, errors.New("extractor unavailable")
	}
	p.fails.Store(0)
	return p.real.Process(ctx, c, opt)
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &clock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	db.Now = clk.Now
	broker := events.NewBroker(64)
	t.Cleanup(broker.Close)
	proc := &flakyPipeline{real: pipeline.New(pipeline.NewBuiltin(), slog.New(slog.DiscardHandler))}
	e := &env{t: t, db: db, broker: broker, proc: proc, clock: clk,
		svc: conversation.New(conversation.Deps{Store: db, Processor: proc, Events: broker, Now: clk.Now})}
	e.user = e.addUser("Ada Lovelace")
	return e
}

func (e *env) addUser(name string) string {
	e.t.Helper()
	u := &appliance.User{ID: fmt.Sprintf("u-%d", time.Now().UnixNano()), Name: name, TimeZone: "Europe/Berlin", CreatedAt: e.clock.Now()}
	if err := e.db.CreateUser(context.Background(), u); err != nil {
		e.t.Fatal(err)
	}
	return u.ID
}

var meeting = []appliance.TranscriptSegment{
	{Text: "We need to finish the quarterly budget before the board meeting on Friday.", Speaker: "SPEAKER_00", IsUser: true, Start: 0, End: 4},
	{Text: "Marketing is over by ten percent, so let us cut conference travel this quarter.", Speaker: "SPEAKER_01", SpeakerID: 1, Start: 4.5, End: 9},
	{Text: "I will send the revised budget to the finance team tomorrow morning.", Speaker: "SPEAKER_00", IsUser: true, Start: 9.5, End: 13},
	{Text: "I love hiking in the Alps every summer with my family, it is my favourite thing.", Speaker: "SPEAKER_00", IsUser: true, Start: 13.5, End: 18},
}

func (e *env) draft(session string) conversation.Draft {
	start := e.clock.Now().Add(-time.Minute)
	return conversation.Draft{UserID: e.user, Source: appliance.SourceOmi, Language: "en", StartedAt: start,
		FinishedAt: start.Add(18 * time.Second), Segments: meeting, ClientSessionID: session, Role: appliance.RoleAmbient}
}

// next returns the next event of sub, failing after a second.
func next(t *testing.T, sub appliance.Subscription) appliance.StreamEvent {
	t.Helper()
	select {
	case ev := <-sub.C():
		return ev
	case <-time.After(time.Second):
		t.Fatal("no event")
	}
	return appliance.StreamEvent{}
}

func types(t *testing.T, sub appliance.Subscription, n int) []appliance.EventType {
	t.Helper()
	out := make([]appliance.EventType, n)
	for i := range out {
		out[i] = next(t, sub).Type
	}
	return out
}

func TestCreateProcessesSavesAndPublishes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sub := e.broker.Subscribe(e.user)
	defer sub.Close()
	ctx := context.Background()

	conv, err := e.svc.Create(ctx, e.draft(""))
	if err != nil {
		t.Fatal(err)
	}
	if conv.Status != appliance.StatusCompleted || conv.Discarded || conv.Structured.Title == "" {
		t.Fatalf("created %+v", conv)
	}
	if got := next(t, sub); got.Type != appliance.EventProcessingStarted || got.ConversationID != conv.ID {
		t.Fatalf("first event %+v", got)
	}
	processed := next(t, sub)
	if processed.Type != appliance.EventConversationProcessed || processed.Conversation == nil || processed.Conversation.ID != conv.ID {
		t.Fatalf("processed event %+v", processed)
	}
	stored, err := e.db.Conversation(ctx, e.user, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Status != appliance.StatusCompleted || len(stored.TranscriptSegments) != len(meeting) || len(stored.Structured.ActionItems) == 0 {
		t.Fatalf("stored %+v", stored)
	}
	ms, err := e.db.Memories(ctx, e.user, appliance.MemoryFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || len(ms) != len(processed.Memories) {
		t.Fatalf("memories stored %d, in the event %d", len(ms), len(processed.Memories))
	}
	if mc := next(t, sub); mc.Type != appliance.EventMemoryCreated || len(mc.Memories) != len(ms) {
		t.Fatalf("memory event %+v", mc)
	}
}

func TestCreateIsIdempotentOnClientSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := e.svc.Create(ctx, e.draft("session-42"))
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = c.ID
		}()
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("retries made different conversations: %v", ids)
		}
	}
	cs, err := e.db.Conversations(ctx, e.user, appliance.ConversationFilter{Limit: 10})
	if err != nil || len(cs) != 1 {
		t.Fatalf("conversations %d, err %v", len(cs), err)
	}
}

func TestCreateFailureLeavesNothingAndAllowsRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.proc.fails.Store(1)
	if _, err := e.svc.Create(ctx, e.draft("s1")); err == nil {
		t.Fatal("create succeeded with a failing pipeline")
	}
	if cs, _ := e.db.Conversations(ctx, e.user, appliance.ConversationFilter{Limit: 10, Statuses: []appliance.ConversationStatus{appliance.StatusProcessing}}); len(cs) != 0 {
		t.Fatalf("a failed create left its claim: %d", len(cs))
	}
	c, err := e.svc.Create(ctx, e.draft("s1"))
	if err != nil || c.Status != appliance.StatusCompleted {
		t.Fatalf("retry: %v %+v", err, c)
	}
}

func TestRecordingLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sub := e.broker.Subscribe(e.user)
	defer sub.Close()
	ctx := context.Background()

	conv, err := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err != nil {
		t.Fatal(err)
	}
	if conv.Status != appliance.StatusInProgress || conv.Source != appliance.SourceOmi {
		t.Fatalf("started %+v", conv)
	}
	for i := 0; i < len(meeting); i += 2 {
		e.clock.Add(5 * time.Second)
		if err := e.svc.Append(ctx, e.user, conv.ID, meeting[i:i+2]); err != nil {
			t.Fatal(err)
		}
	}
	if got := types(t, sub, 3); got[0] != appliance.EventConversationStarted || got[1] != appliance.EventSegmentsAppended || got[2] != appliance.EventSegmentsAppended {
		t.Fatalf("events %v", got)
	}
	head, err := e.db.Conversation(ctx, e.user, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(head.TranscriptSegments) != 4 || head.TranscriptSegments[3].Text != meeting[3].Text || !head.FinishedAt.Equal(e.clock.Now()) {
		t.Fatalf("in progress: %d segments, finished_at %v", len(head.TranscriptSegments), head.FinishedAt)
	}

	done, err := e.svc.Finish(ctx, e.user, conv.ID, conversation.FinishRequested)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != appliance.StatusCompleted || done.Structured.Title == "" {
		t.Fatalf("finished %+v", done)
	}
	if got := types(t, sub, 2); got[0] != appliance.EventProcessingStarted || got[1] != appliance.EventConversationProcessed {
		t.Fatalf("events %v", got)
	}
	// The recording is over: a second finish and a late append are conflicts.
	if _, err := e.svc.Finish(ctx, e.user, conv.ID, conversation.FinishRequested); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("second finish: %v", err)
	}
	if err := e.svc.Append(ctx, e.user, conv.ID, meeting[:1]); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("append after finish: %v", err)
	}
	if err := e.svc.Append(ctx, e.user, "missing", meeting[:1]); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("append to a missing conversation: %v", err)
	}
}

func TestOnlyOneFinisherWins(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	conv, err := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Append(ctx, e.user, conv.ID, meeting); err != nil {
		t.Fatal(err)
	}
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.svc.Finish(ctx, e.user, conv.ID, conversation.FinishForced)
			switch appliance.ErrorCode(err) {
			case "":
				wins.Add(1)
			case appliance.ECONFLICT:
				conflicts.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != 5 {
		t.Fatalf("wins %d, conflicts %d", wins.Load(), conflicts.Load())
	}
}

func TestEndRecording(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.EndRecording(ctx, e.user); appliance.ErrorCode(err) != appliance.ENOTFOUND || appliance.ErrorMessage(err) != "Conversation in progress not found" {
		t.Fatalf("nothing in progress: %v", err)
	}
	conv, _ := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	// One word: the discard rules would drop it, but an ended recording is kept.
	if err := e.svc.Append(ctx, e.user, conv.ID, []appliance.TranscriptSegment{{Text: "Okay.", Speaker: "SPEAKER_00", End: 1}}); err != nil {
		t.Fatal(err)
	}
	done, err := e.svc.EndRecording(ctx, e.user)
	if err != nil {
		t.Fatal(err)
	}
	if done.ID != conv.ID || done.Discarded || done.Status != appliance.StatusCompleted {
		t.Fatalf("ended %+v", done)
	}
}

func TestFailAndRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sub := e.broker.Subscribe(e.user)
	defer sub.Close()
	ctx := context.Background()
	conv, _ := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err := e.svc.Append(ctx, e.user, conv.ID, meeting); err != nil {
		t.Fatal(err)
	}
	e.proc.fails.Store(1)
	if _, err := e.svc.Finish(ctx, e.user, conv.ID, conversation.FinishSilence); err == nil {
		t.Fatal("finish succeeded with a failing pipeline")
	}
	got := types(t, sub, 4)
	if got[2] != appliance.EventProcessingStarted || got[3] != appliance.EventConversationFailed {
		t.Fatalf("events %v", got)
	}
	stored, _ := e.db.ConversationHead(ctx, e.user, conv.ID)
	if stored.Status != appliance.StatusFailed {
		t.Fatalf("status %s, want failed", stored.Status)
	}
	// Only a failed conversation can be retried.
	done, err := e.svc.Retry(ctx, e.user, conv.ID)
	if err != nil || done.Status != appliance.StatusCompleted {
		t.Fatalf("retry: %v %+v", err, done)
	}
	if _, err := e.svc.Retry(ctx, e.user, conv.ID); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("retry of a completed conversation: %v", err)
	}
	// Fail works on a recording too.
	rec, _ := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err := e.svc.Fail(ctx, e.user, rec.ID, errors.New("socket lost")); err == nil {
		t.Fatal("Fail returns its cause")
	}
	if c, _ := e.db.ConversationHead(ctx, e.user, rec.ID); c.Status != appliance.StatusFailed {
		t.Fatalf("failed recording is %s", c.Status)
	}
}

func TestSilenceTimeoutFinishesOnlyIdleRecordings(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // the default silence timeout: 2 minutes
	ctx := context.Background()
	idle, _ := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err := e.svc.Append(ctx, e.user, idle.ID, meeting); err != nil {
		t.Fatal(err)
	}
	silent, _ := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	patient, _ := e.svc.Start(ctx, conversation.Recording{UserID: e.user, SilenceTimeout: 10 * time.Minute})
	if err := e.svc.Append(ctx, e.user, patient.ID, meeting); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(90 * time.Second)
	other := e.addUser("Grace Hopper")
	live, _ := e.svc.Start(ctx, conversation.Recording{UserID: other})
	e.clock.Add(60 * time.Second) // idle, silent, patient: 150 s; live: 60 s

	n, err := e.svc.FinishIdle(ctx)
	if err != nil || n != 2 {
		t.Fatalf("finished %d, err %v", n, err)
	}
	if c, _ := e.db.ConversationHead(ctx, e.user, idle.ID); c.Status != appliance.StatusCompleted {
		t.Fatalf("idle recording is %s", c.Status)
	}
	// A recording in which nothing was said is deleted, not kept empty.
	if _, err := e.db.ConversationHead(ctx, e.user, silent.ID); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("silent recording: %v", err)
	}
	for id, user := range map[string]string{live.ID: other, patient.ID: e.user} {
		if c, _ := e.db.ConversationHead(ctx, user, id); c.Status != appliance.StatusInProgress {
			t.Fatalf("recording %s within its timeout is %s", id, c.Status)
		}
	}
	// Speech moves the deadline: the patient recording ends 10 minutes
	// after its last segment, not after it started.
	e.clock.Add(8 * time.Minute)
	if err := e.svc.Append(ctx, e.user, patient.ID, meeting[:1]); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(9 * time.Minute)
	if n, _ := e.svc.FinishIdle(ctx); n != 1 { // only live (Grace's, 2 min default) ends
		t.Fatalf("finished %d after the patient recording spoke again", n)
	}
	e.clock.Add(2 * time.Minute)
	if n, _ := e.svc.FinishIdle(ctx); n != 1 {
		t.Fatalf("patient recording not finished 11 min after its last speech (%d)", n)
	}
}

func TestDiscardRemovesExtractedMemoriesOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	conv, err := e.svc.Create(ctx, e.draft(""))
	if err != nil {
		t.Fatal(err)
	}
	cid := conv.ID
	manual := &appliance.Memory{ID: "manual-1", UserID: e.user, Content: "I prefer tea", Category: appliance.MemoryManual,
		ManuallyAdded: true, ConversationID: &cid, CreatedAt: e.clock.Now(), UpdatedAt: e.clock.Now()}
	if err := e.db.CreateMemories(ctx, []*appliance.Memory{manual}); err != nil {
		t.Fatal(err)
	}
	yes := true
	got, err := e.svc.Update(ctx, e.user, cid, conversation.Patch{Discarded: &yes})
	if err != nil || !got.Discarded {
		t.Fatalf("discard: %v %+v", err, got)
	}
	ms, _ := e.db.Memories(ctx, e.user, appliance.MemoryFilter{Limit: 10})
	if len(ms) != 1 || ms[0].ID != "manual-1" {
		t.Fatalf("memories after discard: %d", len(ms))
	}
	if _, err := e.svc.Update(ctx, e.user, cid, conversation.Patch{}); appliance.ErrorCode(err) != appliance.EINVALID {
		var ve *appliance.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("empty patch: %v", err)
		}
	}
}

func TestLockedConversationRefusesMutationsButNotLock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	conv, err := e.svc.Create(ctx, e.draft(""))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Lock(ctx, e.user, conv.ID, true); err != nil {
		t.Fatal(err)
	}
	title := "New"
	if _, err := e.svc.Update(ctx, e.user, conv.ID, conversation.Patch{Title: &title}); appliance.ErrorCode(err) != appliance.ELOCKED {
		t.Fatalf("update of a locked conversation: %v", err)
	}
	if err := e.svc.Delete(ctx, e.user, conv.ID); appliance.ErrorCode(err) != appliance.ELOCKED {
		t.Fatalf("delete of a locked conversation: %v", err)
	}
	if err := e.svc.Lock(ctx, e.user, conv.ID, false); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Delete(ctx, e.user, conv.ID); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Lock(ctx, e.user, conv.ID, true); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("lock of a deleted conversation: %v", err)
	}
	// Another user's conversation is as missing as a deleted one.
	other := e.addUser("Grace Hopper")
	if err := e.svc.Lock(ctx, other, conv.ID, true); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("cross-user lock: %v", err)
	}
}

func TestEventsStayWithTheirUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.addUser("Grace Hopper")
	theirs := e.broker.Subscribe(other)
	defer theirs.Close()
	if _, err := e.svc.Create(context.Background(), e.draft("")); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-theirs.C():
		t.Fatalf("another user's subscription got %+v", ev)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestResumeWithinTheTimeoutOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rec := conversation.Recording{UserID: e.user, SilenceTimeout: time.Minute}
	first, resumed, err := e.svc.Resume(ctx, rec)
	if err != nil || resumed {
		t.Fatalf("first connect: %v resumed=%v", err, resumed)
	}
	if err := e.svc.Append(ctx, e.user, first.ID, meeting); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(30 * time.Second)
	again, resumed, err := e.svc.Resume(ctx, rec)
	if err != nil || !resumed || again.ID != first.ID || len(again.TranscriptSegments) != len(meeting) {
		t.Fatalf("reconnect within the timeout: %v resumed=%v", err, resumed)
	}
	// A merge replaces the tail segment in the same write.
	tail := again.TranscriptSegments[len(again.TranscriptSegments)-1]
	merged := tail
	merged.ID, merged.Text = "", tail.Text+" And the Dolomites."
	if err := e.svc.Append(ctx, e.user, first.ID, []appliance.TranscriptSegment{merged}, tail.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := e.db.Conversation(ctx, e.user, first.ID)
	if n := len(got.TranscriptSegments); n != len(meeting) || got.TranscriptSegments[n-1].ID == tail.ID || got.TranscriptSegments[n-1].Text != merged.Text {
		t.Fatalf("after a merged append: %d segments, last %+v", n, got.TranscriptSegments[n-1])
	}
	e.clock.Add(2 * time.Minute)
	fresh, resumed, err := e.svc.Resume(ctx, rec)
	if err != nil || resumed || fresh.ID == first.ID {
		t.Fatalf("reconnect after the timeout: %v resumed=%v", err, resumed)
	}
	if c, _ := e.db.ConversationHead(ctx, e.user, first.ID); c.Status != appliance.StatusCompleted {
		t.Fatalf("the expired recording is %s, want completed", c.Status)
	}
}

func TestSilentRecordingWithAPhotoIsKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	silent, err := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Finish(ctx, e.user, silent.ID, conversation.FinishSilence); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Conversation(ctx, e.user, silent.ID); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("a silent recording without photos: %v, want deleted", err)
	}

	pictured, err := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.AddPhoto(ctx, e.user, pictured.ID, appliance.Photo{ID: "ph1", Base64: "iVBORw0K", Description: "A photo."}); err != nil {
		t.Fatal(err)
	}
	done, err := e.svc.Finish(ctx, e.user, pictured.ID, conversation.FinishSilence)
	if err != nil {
		t.Fatal(err)
	}
	if done.Deleted || len(done.Photos) != 1 || done.Photos[0].ID != "ph1" {
		t.Fatalf("a silent recording with a photo: %+v", done)
	}
	// A photo for a recording that has ended belongs to the next one.
	if err := e.svc.AddPhoto(ctx, e.user, pictured.ID, appliance.Photo{ID: "ph2"}); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("photo after the end: %v", err)
	}
	if err := e.svc.AddPhoto(ctx, "someone-else", pictured.ID, appliance.Photo{ID: "ph3"}); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("another user's recording: %v", err)
	}
}
