package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// revision is what a conversation holds after a (re)transcription.
type revision struct {
	segIDs      []string
	text, title string
	actionItems []string // ids
	memories    []string // ids
}

// readRevision reads a conversation's transcript, structure, action items
// and memories through the developer API.
func readRevision(t *testing.T, srv *server, key, convID string) revision {
	t.Helper()
	st, body := srv.call(t, "GET", "/v1/dev/user/conversations/"+convID+"?include_transcript=true", key, "")
	var c struct {
		Structured struct {
			Title string `json:"title"`
		} `json:"structured"`
		Segments []struct {
			ID, Text string
		} `json:"transcript_segments"`
	}
	if st != 200 || json.Unmarshal([]byte(body), &c) != nil {
		t.Fatalf("read the conversation: %d %s", st, body)
	}
	var r revision
	var texts []string
	for _, s := range c.Segments {
		r.segIDs = append(r.segIDs, s.ID)
		texts = append(texts, s.Text)
	}
	r.text, r.title = strings.Join(texts, " "), c.Structured.Title
	st, body = srv.call(t, "GET", "/v1/dev/user/action-items?limit=100&conversation_id="+convID, key, "")
	var items []struct{ ID string }
	if st != 200 || json.Unmarshal([]byte(body), &items) != nil {
		t.Fatalf("list action items: %d %s", st, body)
	}
	for _, a := range items {
		r.actionItems = append(r.actionItems, a.ID)
	}
	st, body = srv.call(t, "GET", "/v1/dev/user/memories?limit=100", key, "")
	var mems []struct {
		ID             string
		ConversationID *string `json:"conversation_id"`
	}
	if st != 200 || json.Unmarshal([]byte(body), &mems) != nil {
		t.Fatalf("list memories: %d %s", st, body)
	}
	for _, m := range mems {
		if m.ConversationID != nil && *m.ConversationID == convID {
			r.memories = append(r.memories, m.ID)
		}
	}
	return r
}

// waitJob polls one of the user's jobs until it is no longer open.
func waitJob(t *testing.T, srv *server, token, id string) appliance.RetranscribeJob {
	t.Helper()
	var j appliance.RetranscribeJob
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		st, body := srv.call(t, "GET", "/v1/retranscribe/"+id, token, "")
		if st != 200 || json.Unmarshal([]byte(body), &j) != nil {
			t.Fatalf("job %s: %d %s", id, st, body)
		}
		if !j.Status.Open() {
			return j
		}
	}
	t.Fatalf("job %s still %s after 60 s", id, j.Status)
	return j
}

func overlap(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// recordLive streams frames into a live session of user's, ends the
// recording once its audio is kept, and returns the conversation's id.
func recordLive(t *testing.T, srv *server, data, user, token string, frames [][]byte) string {
	t.Helper()
	c := dialListen(t, srv.base, appQuery(user, "pcm16", 120, ""), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	c.stream(frames, 4)
	c.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil })
	c.conn.Close()
	var sent time.Duration
	for _, f := range frames {
		sent += time.Duration(len(f)/2) * time.Second / 16000
	}
	waitKept(t, data, user, sent-time.Second)
	st, body := srv.call(t, "POST", "/v1/conversations", token, "{}")
	var ended struct {
		Conversation struct{ ID string } `json:"conversation"`
	}
	if json.Unmarshal([]byte(body), &ended) != nil || st != 200 || ended.Conversation.ID == "" {
		t.Fatalf("end the recording: %d %s", st, body)
	}
	return ended.Conversation.ID
}

// TestRetranscribe: a live session heard through a scripted route keeps
// its audio; `hearth retranscribe` transcribes it again with PocketSphinx
// from that audio, replacing the transcript, structure, action items and
// memories once (again and again: never duplicated); a job killed (-9)
// mid-transcription, or left running in the database, resumes at the next
// start and completes once; a cancelled job leaves the transcript as it
// was; a locked conversation is refused; another user's conversation and
// job are 404; the console's twin of the API answers the signed-in user.
func TestRetranscribe(t *testing.T) {
	t.Parallel()
	requireOpusEncoder(t)
	frames := encodeFrames(t, "pcm16", speechWAV(t,
		"I need to book the dentist for Thursday afternoon.", "Remind me to call Farid about Easter.", "I work at the hospital in the city centre, five days every week."))
	data := t.TempDir()
	// The live words are a script's, not what was said; its batch side
	// never answers (the job cancelled below waits on it).
	env := []string{writeScript(t, retranscribeScript),
		"HEARTH_STT_ROUTES=pocketsphinx", "HEARTH_RATE_LIMIT_BOOST=0"}
	srv := startServe(t, data, env...)
	ada := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", ada, "--kind", "dev",
		"--scopes", "conversations:read,memories:read,action_items:read")
	token := ownerToken(t, data, ada)
	// The owner's voice is the speaker's: segments are marked theirs, and
	// the facts they state become memories.
	profile := speechWAV(t, "Good morning, this is my voice.", "I am recording my speech profile today.", "The weather is lovely and the garden is green.")
	if code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": profile}, nil); code != 200 {
		t.Fatalf("speech profile: %d %s", code, body)
	}

	conv := recordLive(t, srv, data, ada, token, frames)
	live := readRevision(t, srv, key, conv)
	if !strings.Contains(live.text, "passport") || len(live.actionItems) == 0 || len(live.memories) == 0 {
		t.Fatalf("the live revision: %+v", live)
	}

	// Transcribed again from the audio, through the CLI.
	out := mustCLIOut(t, "retranscribe", conv, "--route", "pocketsphinx", "--url", srv.base, "--token", token)
	if !strings.Contains(out, "done: 1 of 1 conversations done") {
		t.Fatalf("hearth retranscribe printed:\n%s", out)
	}
	first := readRevision(t, srv, key, conv)
	t.Logf("live %q (%d action items, %d memories) → again %q, title %q (%d action items, %d memories)",
		live.text, len(live.actionItems), len(live.memories), first.text, first.title, len(first.actionItems), len(first.memories))
	heard := false
	for _, w := range []string{"dentist", "thursday", "afternoon", "call", "easter", "book"} {
		heard = heard || strings.Contains(strings.ToLower(first.text), w)
	}
	if !heard || strings.Contains(first.text, "passport") || len(first.segIDs) == 0 || overlap(first.segIDs, live.segIDs) {
		t.Fatalf("the transcript was not replaced by what the audio says: %+v", first)
	}
	// The owner's voice is recognised in the new segments: the fact they
	// state is a memory again (the previous revision's is gone).
	if overlap(first.actionItems, live.actionItems) || overlap(first.memories, live.memories) || first.title == live.title ||
		len(first.actionItems) == 0 || len(first.memories) == 0 {
		t.Errorf("the structure was not re-extracted: live %+v, again %+v", live, first)
	}

	// Again: the same words, so as many action items and memories, new.
	out = mustCLIOut(t, "retranscribe", "--route", "pocketsphinx", "--all", "--url", srv.base, "--token", token)
	second := readRevision(t, srv, key, conv)
	if !strings.Contains(out, "done: 1 of 1") || len(second.actionItems) != len(first.actionItems) ||
		len(second.memories) != len(first.memories) || overlap(second.segIDs, first.segIDs) || second.text != first.text {
		t.Fatalf("a second retranscription duplicated or changed: %+v → %+v\n%s", first, second, out)
	}

	// Another user: Ada's conversation and jobs are not there.
	bo := ownerToken(t, data, mustCLI(t, "users", "add", "--data", data, "--name", "Bo"))
	if st, body := srv.call(t, "POST", "/v1/retranscribe", bo, `{"conversation_ids":["`+conv+`"]}`); st != 404 {
		t.Errorf("Bo retranscribes Ada's conversation: %d %s", st, body)
	}
	st, body := srv.call(t, "POST", "/v1/retranscribe", token, `{"conversation_ids":["`+conv+`"],"route":"scripted"}`)
	var job appliance.RetranscribeJob
	if st != 202 || json.Unmarshal([]byte(body), &job) != nil {
		t.Fatalf("queue a job: %d %s", st, body)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if st, body := srv.call(t, m, "/v1/retranscribe/"+job.ID, bo, ""); st != 404 {
			t.Errorf("Bo %s Ada's job: %d %s", m, st, body)
		}
	}

	// Cancelled while its route is transcribing: nothing changes.
	for deadline := time.Now().Add(20 * time.Second); job.Status != appliance.RetranscribeRunning; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the job did not start: %+v", job)
		}
		_, body := srv.call(t, "GET", "/v1/retranscribe/"+job.ID, token, "")
		json.Unmarshal([]byte(body), &job)
	}
	if out := mustCLIOut(t, "retranscribe", "--cancel", job.ID, "--url", srv.base, "--token", token); !strings.Contains(out, "cancelled: 0 of 1") {
		t.Fatalf("cancel printed %s", out)
	}
	if j := waitJob(t, srv, token, job.ID); j.Status != appliance.RetranscribeCancelled || j.Done != 0 {
		t.Fatalf("the cancelled job: %+v", j)
	}
	if r := readRevision(t, srv, key, conv); !slices.Equal(r.segIDs, second.segIDs) {
		t.Fatalf("a cancelled job changed the transcript")
	}

	// A locked conversation is unlocked before it is changed.
	if st, body := srv.call(t, "PUT", "/v1/console/conversations/"+conv+"/locked", token, `{"locked":true}`); st != 200 {
		t.Fatalf("lock: %d %s", st, body)
	}
	if st, body := srv.call(t, "POST", "/v1/retranscribe", token, `{"conversation_ids":["`+conv+`"]}`); st != 409 {
		t.Errorf("retranscribe a locked conversation: %d %s", st, body)
	}
	if st, body := srv.call(t, "PUT", "/v1/console/conversations/"+conv+"/locked", token, `{"locked":false}`); st != 200 {
		t.Fatalf("unlock: %d %s", st, body)
	}

	// The console's twin, signed in: the routes to choose from, the jobs,
	// and a job queued and cancelled there.
	setPassword(t, data, ada, "correct horse battery")
	console := newConsoleClient(t, srv.base)
	if st, v, _ := console.do("POST", "/console/api/login", `{"name":"Ada","password":"correct horse battery"}`); st != 200 {
		t.Fatalf("sign in: %d %v", st, v)
	}
	st, v, _ := console.do("GET", "/console/api/retranscribe", "")
	routes, _ := v["routes"].([]any)
	jobs, _ := v["jobs"].([]any)
	if st != 200 || !slices.Contains(routes, any("pocketsphinx")) || len(jobs) != 3 {
		t.Fatalf("the console's jobs: %d %v", st, v)
	}
	csrf := []string{"X-CSRF-Token", console.csrf, "Origin", srv.base}
	st, v, _ = console.do("POST", "/console/api/retranscribe", `{"conversation_ids":["`+conv+`"],"route":"scripted"}`, csrf...)
	if st != 202 || v["status"] != "queued" {
		t.Fatalf("queue from the console: %d %v", st, v)
	}
	if st, v, _ := console.do("DELETE", "/console/api/retranscribe/"+v["id"].(string), "", csrf...); st != 200 || v["status"] != "cancelled" {
		t.Fatalf("cancel from the console: %d %v", st, v)
	}

	// kill -9 while a job's route is transcribing: at the next start the
	// job resumes (its route now answers) and replaces the transcript once.
	st, body = srv.call(t, "POST", "/v1/retranscribe", token, `{"conversation_ids":["`+conv+`"],"route":"scripted"}`)
	var killed appliance.RetranscribeJob
	if st != 202 || json.Unmarshal([]byte(body), &killed) != nil {
		t.Fatalf("queue a job: %d %s", st, body)
	}
	for deadline := time.Now().Add(20 * time.Second); killed.Status != appliance.RetranscribeRunning; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the job did not start: %+v", killed)
		}
		_, body := srv.call(t, "GET", "/v1/retranscribe/"+killed.ID, token, "")
		json.Unmarshal([]byte(body), &killed)
	}
	srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.done
	answering := []string{writeScript(t, `{"utterances":[{"text":"Said again after the crash."}]}`), "HEARTH_STT_ROUTES=pocketsphinx", "HEARTH_RATE_LIMIT_BOOST=0"}
	srv = startServe(t, data, answering...)
	if j := waitJob(t, srv, token, killed.ID); j.Status != appliance.RetranscribeDone || j.Done != 1 || j.Failed != 0 {
		t.Fatalf("the job resumed after kill -9: %+v", j)
	}
	if r := readRevision(t, srv, key, conv); !strings.Contains(r.text, "Said again after the crash.") || overlap(r.segIDs, second.segIDs) ||
		strings.Count(r.text, "Said again") != len(r.segIDs) {
		t.Fatalf("after the resumed job: %+v", r)
	}

	// A job left running by a crash resumes at the next start and does
	// its conversation once.
	srv.stop(t)
	ctx := context.Background()
	db, err := store.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	left := &appliance.RetranscribeJob{ID: appliance.NewID(), UserID: ada, Route: "pocketsphinx", ConversationIDs: []string{conv},
		Status: appliance.RetranscribeRunning, CreatedAt: now, UpdatedAt: now}
	if err := db.CreateRetranscribeJob(ctx, left); err != nil {
		t.Fatal(err)
	}
	db.Close()
	srv = startServe(t, data, env...)
	if j := waitJob(t, srv, token, left.ID); j.Status != appliance.RetranscribeDone || j.Done != 1 || j.Failed != 0 {
		t.Fatalf("the resumed job: %+v", j)
	}
	third := readRevision(t, srv, key, conv)
	if overlap(third.segIDs, second.segIDs) || len(third.actionItems) != len(first.actionItems) || len(third.memories) != len(first.memories) {
		t.Fatalf("after the resumed job: %+v (before %+v)", third, second)
	}
	if !strings.Contains(srv.logs.String(), "retranscribe job finished") {
		t.Errorf("no log of the finished job:\n%s", srv.logs)
	}
}

// retranscribeScript is what the scripted route pretends a live session
// said; its batch side never answers.
const retranscribeScript = `{"batch_failure":"timeout","utterances":[{"text":"I need to renew the passport before the trip to Lisbon. I work at the library."}]}`

// TestConsoleRetranscribeInChromium: on a conversation's console page,
// "Transcribe again with" PocketSphinx replaces the script's transcript
// with what the kept audio says, and the page shows it when the job is
// done (playwright-core drives the system's Chromium, as in
// TestConsoleInChromium).
func TestConsoleRetranscribeInChromium(t *testing.T) {
	t.Parallel()
	requireOpusEncoder(t)
	dir, node, chromium := consoleBrowser(t)
	frames := encodeFrames(t, "pcm16", speechWAV(t, "I need to book the dentist for Thursday afternoon."))
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, retranscribeScript), "HEARTH_STT_ROUTES=pocketsphinx")
	ada := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	setPassword(t, data, ada, "correct horse battery")
	conv := recordLive(t, srv, data, ada, ownerToken(t, data, ada), frames)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "retranscribe.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BASE="+srv.base, "NAME=Ada", "PASSWORD=correct horse battery", "CONV="+conv, "CHROMIUM="+chromium)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("the console's retranscription (%v):\n%s\nserver log:\n%s", err, out, tail(srv.logs.String(), 30))
	}
}
