package listen_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
)

var noScript = scripted.Script{Utterances: []scripted.Utterance{{Text: "unused"}}}

func (c *client) sendJSON(v any) {
	c.t.Helper()
	b, _ := json.Marshal(v)
	if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) segments(d time.Duration) []appliance.TranscriptSegment {
	c.t.Helper()
	var segs []appliance.TranscriptSegment
	if err := json.Unmarshal([]byte(c.next(d, isSegments)), &segs); err != nil {
		c.t.Fatal(err)
	}
	return segs
}

// eventually polls cond for up to 3 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

func (e *env) recording() *appliance.Conversation {
	e.t.Helper()
	c, err := e.db.InProgressConversation(context.Background(), e.user)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func TestSpeakerAssignedNamesSegmentsAndLaterSpeech(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, noScript)
	ctx := context.Background()
	// Someone else's person: its id must not be usable here.
	if err := e.db.CreateUser(ctx, &appliance.User{ID: "u2", Name: "Eve", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := e.db.CreatePerson(ctx, &appliance.Person{ID: "eves-friend", UserID: "u2", Name: "Mallory", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000&custom_stt=enabled&conversation_timeout=120")
	c.next(2*time.Second, isType("service_status"))
	c.sendJSON(map[string]any{"type": "suggested_transcript", "stt_provider": "phone", "segments": []map[string]any{
		{"text": "Shall we plan the garden this weekend?", "speaker": "SPEAKER_01", "start": 0.0, "end": 2.0},
		{"text": "Yes, I will buy the seeds.", "speaker": "SPEAKER_00", "start": 2.5, "end": 4.0},
	}})
	first := c.segments(3 * time.Second)
	if len(first) != 2 {
		t.Fatalf("segments %+v", first)
	}
	c.sendJSON(map[string]any{"type": "speaker_assigned", "speaker_id": 1, "person_id": "p-grace", "person_name": "Grace",
		"segment_ids": []string{first[0].ID}})
	c.sendJSON(map[string]any{"type": "speaker_assigned", "speaker_id": 0, "person_id": "user", "person_name": "",
		"segment_ids": []string{first[1].ID}})
	c.sendJSON(map[string]any{"type": "speaker_assigned", "speaker_id": 3, "person_id": "eves-friend", "person_name": "",
		"segment_ids": []string{first[0].ID}})
	eventually(t, "the assignments are stored on the segments", func() bool {
		segs := e.recording().TranscriptSegments
		return len(segs) == 2 && segs[0].PersonID != nil && *segs[0].PersonID == "p-grace" && !segs[0].IsUser &&
			segs[1].IsUser && segs[1].PersonID == nil
	})
	names, _ := e.db.PersonNames(ctx, e.user, []string{"p-grace", "eves-friend"})
	if names["p-grace"] != "Grace" || names["eves-friend"] != "" {
		t.Fatalf("people %v: Grace created for u1, Eve's person not borrowed", names)
	}
	as, err := e.db.SpeakerAssignments(ctx, e.user, e.recording().ID)
	if err != nil || len(as) != 2 || as[0].SpeakerID != 1 || as[0].SegmentIDs[0] != first[0].ID || as[1].PersonID != "user" {
		t.Fatalf("assignments %+v %v", as, err)
	}
	// Later speech of speaker 1 carries Grace without being assigned again.
	c.sendJSON(map[string]any{"type": "suggested_transcript", "segments": []map[string]any{
		{"text": "Tomatoes and basil.", "speaker": "SPEAKER_01", "start": 9.0, "end": 10.0}}})
	later := c.segments(3 * time.Second)
	if len(later) != 1 || later[0].PersonID == nil || *later[0].PersonID != "p-grace" {
		t.Fatalf("later segment %+v", later)
	}
	// A malformed assignment is ignored and the session goes on.
	c.sendJSON(map[string]any{"type": "speaker_assigned", "person_id": "x"})
	c.next(2*time.Second, func(m string) bool { return m == "ping" })
}

func pngBase64(t *testing.T, w, h int) string {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{200, 30, 30, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestImageChunksBecomePhotosOfTheRecording(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, noScript)
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000&custom_stt=enabled&source=openglass")
	c.next(2*time.Second, isType("service_status"))

	b64 := pngBase64(t, 64, 48)
	third := len(b64) / 3
	parts := []string{b64[:third], b64[third : 2*third], b64[2*third:]}
	// Out of order, with a piece out of range that must be ignored.
	for _, i := range []int{2, 0} {
		c.sendJSON(map[string]any{"type": "image_chunk", "id": "tmp-1", "index": i, "total": 3, "data": parts[i]})
	}
	c.sendJSON(map[string]any{"type": "image_chunk", "id": "tmp-1", "index": 7, "total": 3, "data": "AAAA"})
	c.sendJSON(map[string]any{"type": "image_chunk", "id": "tmp-1", "index": 1, "total": 3, "data": parts[1]})

	var processing struct{ TempID, PhotoID string }
	m := c.next(3*time.Second, isType("photo_processing"))
	json.Unmarshal([]byte(strings.NewReplacer(`"temp_id"`, `"TempID"`, `"photo_id"`, `"PhotoID"`).Replace(m)), &processing)
	if processing.TempID != "tmp-1" || processing.PhotoID == "" {
		t.Fatalf("photo_processing %s", m)
	}
	described := c.next(3*time.Second, isType("photo_described"))
	want := fmt.Sprintf(`"photo_id":%q`, processing.PhotoID)
	if !strings.Contains(described, want) || !strings.Contains(described, `"description":"A 64×48 PNG photo."`) ||
		!strings.Contains(described, `"discarded":false`) {
		t.Fatalf("photo_described %s", described)
	}
	rec := e.recording()
	if len(rec.Photos) != 1 || rec.Photos[0].ID != processing.PhotoID || rec.Photos[0].Base64 != b64 || rec.Source != appliance.SourceOpenglass {
		t.Fatalf("recording photos %+v", rec.Photos)
	}

	// Bytes that are no image are kept, marked discarded.
	c.sendJSON(map[string]any{"type": "image_chunk", "id": "tmp-2", "index": 0, "total": 1,
		"data": base64.StdEncoding.EncodeToString([]byte("not a picture"))})
	if d := c.next(3*time.Second, isType("photo_described")); !strings.Contains(d, `"discarded":true`) {
		t.Fatalf("garbage photo %s", d)
	}
	if n := len(e.recording().Photos); n != 2 {
		t.Fatalf("%d photos, want 2", n)
	}
}

// translator is the LLM route's stand-in: the LLM is outside the
// appliance, and this test is about the session, not the route (the route
// is tested against a fake OpenAI-compatible server in pipeline/llm).
type translator struct{}

func (translator) Translate(_ context.Context, text, to string) (string, error) {
	if strings.HasPrefix(text, "Hello") {
		return text, nil // already English
	}
	return "[" + to + "] " + text, nil
}

func TestLiveTranslation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		event, language string
		want            bool
	}{
		{"", "es", true},
		{listen.TranslationEvent, "es", true},
		{"", "en", false},
	} {
		t.Run(tc.event+"/"+tc.language, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, fast, noScript, func(d *listen.Deps) {
				d.Translator, d.Translation = translator{}, listen.Translation{To: "en", Event: tc.event}
			})
			c := e.dial("uid=u1&codec=pcm16&sample_rate=16000&custom_stt=enabled&language=" + tc.language)
			c.next(2*time.Second, isType("service_status"))
			c.sendJSON(map[string]any{"type": "suggested_transcript", "segments": []map[string]any{
				{"text": "Hola, compramos pan mañana.", "speaker": "SPEAKER_00", "start": 0.0, "end": 2.0},
				{"text": "Hello there.", "speaker": "SPEAKER_01", "start": 2.5, "end": 3.0}}})
			segs := c.segments(3 * time.Second)
			kind := listen.TranslatingEvent
			if tc.event != "" {
				kind = tc.event
			}
			if !tc.want {
				c.next(2*time.Second, func(m string) bool {
					if strings.Contains(m, `"type":"translat`) {
						t.Fatalf("an English session was translated: %s", m)
					}
					return m == "ping"
				})
				return
			}
			var ev struct {
				Type     string
				Segments []struct {
					ID           string
					Text         string
					Translations []appliance.Translation
				}
			}
			json.Unmarshal([]byte(c.next(3*time.Second, isType(kind))), &ev)
			if len(ev.Segments) != 1 || ev.Segments[0].ID != segs[0].ID ||
				len(ev.Segments[0].Translations) != 1 || ev.Segments[0].Translations[0].Text != "[en] Hola, compramos pan mañana." {
				t.Fatalf("%s event %+v", kind, ev)
			}
			if (kind == listen.TranslationEvent) != (ev.Segments[0].Text == "") {
				t.Fatalf("%s carries the whole segment only as translating: %+v", kind, ev.Segments[0])
			}
			eventually(t, "the translation is stored", func() bool {
				s := e.recording().TranscriptSegments
				return len(s) == 2 && len(s[0].Translations) == 1 && s[0].Translations[0].Lang == "en" && len(s[1].Translations) == 0
			})
		})
	}
}

func TestCustomSTTClosesWhenIdleOrShutDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, listen.Timing{Flush: 50 * time.Millisecond, Heartbeat: time.Second, Inactivity: 300 * time.Millisecond},
		scripted.Script{Utterances: []scripted.Utterance{{Text: "Hello."}}})
	dial := func(query string) *websocket.Conn {
		conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.http.URL, "http")+"/custom-stt?"+query, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	closeCode := func(conn *websocket.Conn) int {
		conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		for {
			_, _, err := conn.ReadMessage()
			if ce, ok := err.(*websocket.CloseError); ok {
				return ce.Code
			} else if err != nil {
				return -1
			}
		}
	}
	if code := closeCode(dial("codec=pcm16")); code != websocket.CloseGoingAway {
		t.Fatalf("an idle connection closed with %d, want 1001", code)
	}
	if code := closeCode(dial("codec=pcm16&language=xx")); code != websocket.ClosePolicyViolation {
		t.Fatalf("an unsupported language closed with %d, want 1008", code)
	}
	// Speech, then CloseStream: the words come back before the close.
	conn := dial("codec=pcm16")
	conn.WriteMessage(websocket.BinaryMessage, pcm16(1.2, true))
	conn.WriteMessage(websocket.BinaryMessage, pcm16(0.2, false))
	conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"CloseStream"}`))
	conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, b, err := conn.ReadMessage()
	var reply struct {
		Segments []struct {
			Text, Speaker string
			Start, End    float64
		}
	}
	if err != nil || json.Unmarshal(b, &reply) != nil || strings.Contains(string(b), `"type"`) || len(reply.Segments) != 1 ||
		reply.Segments[0].Text != "Hello." || reply.Segments[0].Speaker != "SPEAKER_00" || reply.Segments[0].End < 1.1 || reply.Segments[0].End > 1.5 {
		t.Fatalf("reply %s %v", b, err)
	}
	if code := closeCode(conn); code != websocket.CloseNormalClosure {
		t.Fatalf("close %d after CloseStream", code)
	}
}
