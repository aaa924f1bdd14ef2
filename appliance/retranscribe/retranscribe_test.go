package retranscribe_test

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
	"github.com/hearth-appliance/hearth/appliance/recordings"
	"github.com/hearth-appliance/hearth/appliance/retranscribe"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
	"github.com/hearth-appliance/hearth/store"
)

// burst is d of a voice-band tone, which the scripted route hears as one
// utterance.
func burst(d time.Duration) []int16 {
	pcm := make([]int16, int(d.Seconds()*audio.Rate))
	for i := range pcm {
		pcm[i] = int16(6000 * math.Sin(2*math.Pi*300*float64(i)/audio.Rate))
	}
	return pcm
}

type fixture struct {
	db     *store.DB
	runner *retranscribe.Runner
	ada    string
	conv   string // Ada's, with kept audio
	silent string // Ada's, without
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if !audio.CanEncodeOpus {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("this build has no Opus encoder (make test links libopus)")
		}
		t.Skip("this build has no Opus encoder: no audio is kept to transcribe")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Now().UTC().Truncate(time.Millisecond)
	f := &fixture{db: db, ada: "u-ada", conv: "c-heard", silent: "c-silent"}
	for _, u := range []string{"u-ada", "u-bo"} {
		if err := db.CreateUser(ctx, &appliance.User{ID: u, Name: strings.TrimPrefix(u, "u-"), CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{f.conv, f.silent} {
		c := &appliance.Conversation{ID: id, UserID: f.ada, CreatedAt: now, UpdatedAt: now, StartedAt: &now, FinishedAt: &now,
			Source: appliance.SourceOmi, Language: "en", Status: appliance.StatusCompleted, Structured: appliance.EmptyStructured(),
			TranscriptSegments: []appliance.TranscriptSegment{{ID: "s-old", Text: "the words heard live", Speaker: "SPEAKER_00"}}}
		c.Structured.Title = "Heard live"
		if err := db.SaveProcessed(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	keeper := &recordings.Keeper{Dir: t.TempDir(), NewEncoder: audio.NewOpusEncoder}
	w, err := keeper.Create(f.ada, f.conv, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(burst(time.Second))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	routes := []stt.BatchProvider{
		scripted.New(scripted.Script{Name: "good", Utterances: []scripted.Utterance{{Text: "I need to call the plumber tomorrow morning."}}}),
		scripted.New(scripted.Script{Name: "broken", BatchFailure: "upstream_error"}),
		scripted.New(scripted.Script{Name: "stuck", BatchFailure: "timeout"}),
	}
	convs := conversation.New(conversation.Deps{Store: db, Processor: pipeline.New(builtin.New(), nil)})
	f.runner = retranscribe.New(retranscribe.Deps{Store: db, Audio: keeper, Conversations: convs, Routes: routes})
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { f.runner.Run(run); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	return f
}

// wait polls a job until it is in one of states.
func (f *fixture) wait(t *testing.T, id string, states ...appliance.RetranscribeStatus) *appliance.RetranscribeJob {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		j, err := f.runner.Job(context.Background(), f.ada, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range states {
			if j.Status == s {
				return j
			}
		}
	}
	t.Fatalf("job %s never %v", id, states)
	return nil
}

func (f *fixture) transcript(t *testing.T) (ids, text string) {
	t.Helper()
	c, err := f.db.Conversation(context.Background(), f.ada, f.conv)
	if err != nil {
		t.Fatal(err)
	}
	var is, ts []string
	for _, s := range c.TranscriptSegments {
		is, ts = append(is, s.ID), append(ts, s.Text)
	}
	return strings.Join(is, ","), strings.Join(ts, " ")
}

// TestStart_Refusals: what a job may not be asked for.
func TestStart_Refusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		q    retranscribe.Request
		code string
	}{
		{"unknown route", retranscribe.Request{UserID: f.ada, Route: "telepathy", ConversationIDs: []string{f.conv}}, appliance.EINVALID},
		{"another user's conversation", retranscribe.Request{UserID: "u-bo", ConversationIDs: []string{f.conv}}, appliance.ENOTFOUND},
		{"no such conversation", retranscribe.Request{UserID: f.ada, ConversationIDs: []string{"nope"}}, appliance.ENOTFOUND},
		{"no kept audio", retranscribe.Request{UserID: f.ada, ConversationIDs: []string{f.silent}}, appliance.EINVALID},
		{"all, of a user with none", retranscribe.Request{UserID: "u-bo", All: true}, appliance.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if j, err := f.runner.Start(context.Background(), tc.q); appliance.ErrorCode(err) != tc.code {
				t.Fatalf("got %+v, %v; want %s", j, err, tc.code)
			}
		})
	}
}

// TestRunner: a job through a route that hears the audio replaces the
// transcript and re-extracts the structure; one through a failing route
// leaves the transcript and says why; a cancelled one changes nothing.
func TestRunner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	oldIDs, _ := f.transcript(t)

	j, err := f.runner.Start(ctx, retranscribe.Request{UserID: f.ada, Route: "broken", All: true})
	if err != nil || len(j.ConversationIDs) != 1 || j.ConversationIDs[0] != f.conv {
		t.Fatalf("all of Ada's with audio: %+v %v", j, err)
	}
	if j = f.wait(t, j.ID, appliance.RetranscribeFailed); j.Done != 1 || j.Failed != 1 || !strings.Contains(j.Error, "speech route failed") {
		t.Fatalf("through a failing route: %+v", j)
	}
	if ids, _ := f.transcript(t); ids != oldIDs {
		t.Fatalf("a failed job changed the transcript")
	}

	j, err = f.runner.Start(ctx, retranscribe.Request{UserID: f.ada, Route: "stuck", ConversationIDs: []string{f.conv}})
	if err != nil {
		t.Fatal(err)
	}
	f.wait(t, j.ID, appliance.RetranscribeRunning)
	if _, err := f.runner.Cancel(ctx, "u-bo", j.ID); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("Bo cancels Ada's job: %v", err)
	}
	if j, err = f.runner.Cancel(ctx, f.ada, j.ID); err != nil || j.Status != appliance.RetranscribeCancelled {
		t.Fatalf("cancel: %+v %v", j, err)
	}
	if _, err := f.runner.Cancel(ctx, f.ada, j.ID); appliance.ErrorCode(err) != appliance.ECONFLICT {
		t.Fatalf("cancel twice: %v", err)
	}

	j, err = f.runner.Start(ctx, retranscribe.Request{UserID: f.ada, Route: "good", ConversationIDs: []string{f.conv, f.conv}})
	if err != nil || len(j.ConversationIDs) != 1 {
		t.Fatalf("a conversation named twice: %+v %v", j, err)
	}
	if j = f.wait(t, j.ID, appliance.RetranscribeDone); j.Done != 1 || j.Failed != 0 {
		t.Fatalf("through the good route: %+v", j)
	}
	ids, text := f.transcript(t)
	c, err := f.db.Conversation(ctx, f.ada, f.conv)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ids, "s-old") || text != "I need to call the plumber tomorrow morning." || c.Structured.Title == "Heard live" ||
		len(c.Structured.ActionItems) != 1 || *c.TranscriptSegments[0].STTProvider != "good" {
		t.Fatalf("after the job: %q %q %+v", ids, text, c.Structured)
	}
}
