package listen_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
)

// Every word said before a session or a recording ends is kept: the
// scripted route hears each burst of sound only when it ends, like the
// local recognizers, so a recording that ends right after speech (no
// pause) leaves an utterance inside the route.

// storedText waits until the user's conversations hold want, and returns
// their transcript.
func (e *env) storedText(want string) string {
	e.t.Helper()
	var text string
	for range 100 {
		cs, err := e.db.Conversations(context.Background(), e.user, appliance.ConversationFilter{Limit: 10, IncludeDiscarded: true,
			Statuses: []appliance.ConversationStatus{appliance.StatusInProgress, appliance.StatusProcessing, appliance.StatusCompleted}})
		if err != nil {
			e.t.Fatal(err)
		}
		text = ""
		for _, c := range cs {
			full, err := e.db.Conversation(context.Background(), e.user, c.ID)
			if err != nil {
				e.t.Fatal(err)
			}
			for _, s := range full.TranscriptSegments {
				text += s.Text + " "
			}
		}
		if strings.Contains(text, want) {
			return text
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.t.Fatalf("stored transcript %q lacks %q", text, want)
	return ""
}

func TestSessionKeepsTheLastWordsWhenTheClientCloses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "and that is the last thing I said."}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.5, true)) // no pause after it
	c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	e.storedText("and that is the last thing I said.")
}

// The app closes its socket and ends the recording at once when the owner
// stops: the recording is processed with the sentences a slow recognizer
// was still hearing, however long it takes over them while it gets on.
func TestEndingTheRecordingWaitsForASlowRoute(t *testing.T) {
	t.Parallel()
	timing := fast
	timing.Drain = time.Second
	e := newEnv(t, timing, scripted.Script{HearDelayMS: 600, Utterances: utterances(fourSentences)})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.sayBursts(len(fourSentences))
	c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	time.Sleep(100 * time.Millisecond)
	e.endHolds(fourSentences)
}

// A recording ended from outside while the socket is still open drains
// the route; a slow recognizer's queue may have no room for the drain
// then. The drain is asked again as the queue empties: before, the
// recording was processed at once without the sentences still queued.
func TestEndingTheRecordingWaitsForAFullQueue(t *testing.T) {
	t.Parallel()
	timing := fast
	timing.Drain = time.Second
	e := newEnv(t, timing, scripted.Script{HearDelayMS: 400, QueueRoom: 3, Utterances: utterances(fourSentences)})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.sayBursts(len(fourSentences))
	e.endHolds(fourSentences)
}

// fourSentences are what the slow route's tests say, a burst of sound
// each.
var fourSentences = []string{"the first.", "the second.", "the third.", "and that is the last thing I said."}

func utterances(said []string) []scripted.Utterance {
	us := make([]scripted.Utterance, len(said))
	for i, s := range said {
		us[i] = scripted.Utterance{Text: s}
	}
	return us
}

// sayBursts sends n bursts of sound, each followed by a pause.
func (c *client) sayBursts(n int) {
	for range n {
		c.send(pcm16(0.3, true))
		c.send(pcm16(0.5, false))
	}
}

// endHolds ends the user's recording from outside and fails unless its
// processed transcript holds every sentence said.
func (e *env) endHolds(said []string) {
	e.t.Helper()
	conv, err := e.conv.EndRecording(context.Background(), e.user)
	if err != nil {
		e.t.Fatal(err)
	}
	var text []string
	for _, s := range conv.TranscriptSegments {
		text = append(text, s.Text)
	}
	got := strings.Join(text, " ")
	for _, w := range said {
		if !strings.Contains(got, w) {
			e.t.Errorf("processed transcript %q lacks %q", got, w)
		}
	}
}

func TestSessionEndsAnUtteranceWhenAudioStops(t *testing.T) {
	t.Parallel()
	timing := fast
	timing.AudioGap = 300 * time.Millisecond
	e := newEnv(t, timing, scripted.Script{Utterances: []scripted.Utterance{{Text: "Good morning, Maria."}, {Text: "How are you?"}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.2, true))
	// The button is released: no more frames, only the app's keep-alives.
	for range 5 {
		c.conn.WriteMessage(websocket.BinaryMessage, []byte{0x8A, 0x00})
		time.Sleep(100 * time.Millisecond)
	}
	var segs []map[string]any
	json.Unmarshal([]byte(c.next(3*time.Second, isSegments)), &segs)
	if len(segs) != 1 || segs[0]["text"] != "Good morning, Maria." {
		t.Fatalf("segments %v", segs)
	}
	// Audio comes back: the next utterance is heard as usual, on a new
	// stream of the route (the gap gave the last one's slot back), whose
	// script starts again.
	c.send(pcm16(1.0, true))
	c.send(pcm16(0.6, false))
	json.Unmarshal([]byte(c.next(3*time.Second, isSegments)), &segs)
	if len(segs) != 1 || segs[0]["text"] != "Good morning, Maria. Good morning, Maria." {
		t.Fatalf("segments after the pause %v", segs)
	}
}

// TestMergeKeepsTheSegmentID: a short unfinished segment followed within
// 3 s by the same speaker is extended under its own id, as the reference
// does; the client is never told to delete it.
func TestMergeKeepsTheSegmentID(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "Hi Maria, thanks"}, {Text: "for joining the call."}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.0, true))
	c.send(pcm16(0.6, false))
	var first, second []map[string]any
	json.Unmarshal([]byte(c.next(3*time.Second, isSegments)), &first)
	c.send(pcm16(1.0, true))
	c.send(pcm16(0.6, false))
	json.Unmarshal([]byte(c.next(3*time.Second, func(m string) bool {
		if strings.Contains(m, "segments_deleted") {
			t.Fatalf("told to delete: %s", m)
		}
		return isSegments(m)
	})), &second)
	if len(first) != 1 || len(second) != 1 || second[0]["id"] != first[0]["id"] || second[0]["text"] != "Hi Maria, thanks for joining the call." {
		t.Fatalf("first %v, then %v", first, second)
	}
	text := e.storedText("Hi Maria, thanks for joining the call.")
	if strings.Count(text, "Hi Maria") != 1 {
		t.Fatalf("stored %q", text)
	}
}

// TestShutdownHearsOutTheSession: the appliance stopping ends a session
// mid-utterance; the utterance is stored and sent before the 1001 close.
func TestShutdownHearsOutTheSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "one last sentence before the power goes."}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.2, true))
	time.Sleep(100 * time.Millisecond) // the frames are read
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e.srv.Shutdown(ctx)
	m := c.next(3*time.Second, isSegments)
	if !strings.Contains(m, "one last sentence before the power goes.") {
		t.Fatalf("segments %s", m)
	}
	for range c.msgs {
	}
	if code := <-c.code; code != websocket.CloseGoingAway {
		t.Fatalf("close %d", code)
	}
	e.storedText("one last sentence before the power goes.")
}

// TestEndingTheRecordingHearsItOut: the owner ends the recording
// (POST /v1/conversations) while a sentence is still in the recognizer;
// the sentence is in the processed conversation and was sent first.
func TestEndingTheRecordingHearsItOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "first words."}, {Text: "and the words still being said."}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.0, true))
	c.send(pcm16(0.6, false))
	c.next(3*time.Second, isSegments)
	c.send(pcm16(1.0, true)) // no pause yet
	time.Sleep(100 * time.Millisecond)
	conv, err := e.conv.EndRecording(context.Background(), e.user)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, s := range conv.TranscriptSegments {
		text = append(text, s.Text)
	}
	if got := strings.Join(text, " "); !strings.Contains(got, "and the words still being said.") {
		t.Fatalf("processed transcript %q", got)
	}
	m := c.next(3*time.Second, func(m string) bool { return isSegments(m) || strings.Contains(m, "memory_processing_started") })
	if !isSegments(m) || !strings.Contains(m, "and the words still being said.") {
		t.Fatalf("before processing started the client got %s", m)
	}
}

// TestLiveTextInSentences: a local route's lowercase, unpunctuated words
// come back as a sentence.
func TestLiveTextInSentences(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "can you send them the budget report"}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.5, true))
	c.send(pcm16(0.6, false))
	var segs []map[string]any
	json.Unmarshal([]byte(c.next(3*time.Second, isSegments)), &segs)
	if len(segs) != 1 || segs[0]["text"] != "Can you send them the budget report?" {
		t.Fatalf("segments %v", segs)
	}
}

// A recording ended from outside while the route is far behind waits
// HearOut for its words and is processed without the rest; the words
// the route gives afterwards were said before the end, so they go into
// that recording, which is processed again, not into a new one.
func TestWordsSaidBeforeTheEndGoIntoTheEndedRecording(t *testing.T) {
	t.Parallel()
	timing := fast
	timing.Drain = 300 * time.Millisecond
	timing.HearOut = 300 * time.Millisecond
	said := []string{"the first.", "the second.", "and that is the last thing I said."}
	e := newEnv(t, timing, scripted.Script{HearDelayMS: 700, Utterances: utterances(said)})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.sayBursts(len(said))
	conv, err := e.conv.EndRecording(context.Background(), e.user)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for range 200 {
		full, err := e.db.Conversation(context.Background(), e.user, conv.ID)
		if err != nil {
			t.Fatal(err)
		}
		got = ""
		for _, s := range full.TranscriptSegments {
			got += s.Text + " "
		}
		if strings.Contains(got, said[len(said)-1]) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, w := range said {
		if !strings.Contains(got, w) {
			t.Errorf("the ended recording holds %q, lacks %q", got, w)
		}
	}
	cs, err := e.db.Conversations(context.Background(), e.user, appliance.ConversationFilter{Limit: 10, IncludeDiscarded: true,
		Statuses: []appliance.ConversationStatus{appliance.StatusInProgress, appliance.StatusProcessing, appliance.StatusCompleted}})
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range cs {
		if other.ID != conv.ID {
			t.Errorf("words said before the end started another recording %s", other.ID)
		}
	}
}
