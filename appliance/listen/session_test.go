package listen_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/events"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
	"github.com/hearth-appliance/hearth/store"
)

// env is the socket in process (so the race detector sees the session),
// on a real store, the real lifecycle and pipeline, and the scripted route.
type env struct {
	t      testing.TB
	db     *store.DB
	srv    *listen.Server
	http   *httptest.Server
	user   string
	broker *events.Broker
	conv   *conversation.Service
}

func newEnv(t testing.TB, timing listen.Timing, script scripted.Script, opts ...func(*listen.Deps)) *env {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	u := &appliance.User{ID: "u1", Name: "Ada", CreatedAt: time.Now()}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	broker := events.NewBroker(0)
	conv := conversation.New(conversation.Deps{Store: db, Events: broker,
		Processor: pipeline.New(pipeline.NewBuiltin(), slog.New(slog.DiscardHandler))})
	deps := listen.Deps{Conversations: conv, History: db, Events: broker, Timing: timing, SpoolDir: t.TempDir(),
		Router: stt.NewRouter(nil, scripted.New(script)).WithRetry(1, time.Millisecond)}
	for _, o := range opts {
		o(&deps)
	}
	srv := listen.New(deps)
	conv.HearOutFrom(srv)
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/custom-stt" {
			p, err := listen.ParseCustomSTTParams(r.URL.Query())
			if err != nil {
				srv.Refuse(w, r, websocket.ClosePolicyViolation, err.Error())
				return
			}
			srv.ServeCustomSTT(w, r, "u1", p)
			return
		}
		p, err := listen.ParseParams(r.URL.Query())
		if err != nil {
			srv.Refuse(w, r, websocket.ClosePolicyViolation, err.Error())
			return
		}
		srv.Serve(w, r, p.UID, p)
	}))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		h.Close()
		broker.Close()
	})
	return &env{t: t, db: db, srv: srv, http: h, user: u.ID, broker: broker, conv: conv}
}

type client struct {
	t    testing.TB
	conn *websocket.Conn
	msgs chan string
	code chan int
}

func (e *env) dial(query string) *client {
	e.t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.http.URL, "http")+"/?"+query, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	c := &client{t: e.t, conn: conn, msgs: make(chan string, 256), code: make(chan int, 1)}
	go func() {
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				var ce *websocket.CloseError
				if errors.As(err, &ce) {
					c.code <- ce.Code
				} else {
					c.code <- -1
				}
				close(c.msgs)
				return
			}
			c.msgs <- string(b)
		}
	}()
	e.t.Cleanup(func() { conn.Close() })
	return c
}

func (c *client) next(d time.Duration, ok func(string) bool) string {
	c.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case m, open := <-c.msgs:
			if !open {
				c.t.Fatal("closed")
			}
			if ok(m) {
				return m
			}
		case <-timeout:
			c.t.Fatal("timed out")
		}
	}
}

func isType(typ string) func(string) bool {
	return func(m string) bool { return strings.Contains(m, `"type":"`+typ+`"`) }
}

func isSegments(m string) bool { return strings.HasPrefix(m, "[") }

// pcm16 is s seconds of a speech-level tone (or silence) as pcm16 bytes.
func pcm16(seconds float64, loud bool) []byte {
	n := int(seconds * 16000)
	b := make([]byte, 0, 2*n)
	for i := range n {
		v := 0.0
		if loud {
			v = 6000 * math.Sin(2*math.Pi*180*float64(i)/16000)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(v)))
	}
	return b
}

func (c *client) send(b []byte) {
	c.t.Helper()
	for off := 0; off < len(b); off += 640 { // 20 ms messages
		if err := c.conn.WriteMessage(websocket.BinaryMessage, b[off:min(off+640, len(b))]); err != nil {
			c.t.Fatal(err)
		}
	}
}

var fast = listen.Timing{Flush: 50 * time.Millisecond, Heartbeat: 200 * time.Millisecond, Inactivity: 3 * time.Second}

func TestSessionFromSpeechToProcessedConversation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{
		{Text: "We need to finish the quarterly budget before the board meeting on Friday."},
		{Text: "I will send the numbers tomorrow."}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000&conversation_timeout=2")
	if m := c.next(2*time.Second, isType("service_status")); !strings.Contains(m, `"provider":"scripted"`) {
		t.Fatalf("ready %s", m)
	}
	c.next(2*time.Second, func(m string) bool { return m == "ping" }) // the heartbeat
	c.send(pcm16(0.3, false))
	c.send(pcm16(1.5, true))
	c.send(pcm16(0.6, false))
	var first []map[string]any
	json.Unmarshal([]byte(c.next(3*time.Second, isSegments)), &first)
	if len(first) != 1 || !strings.Contains(first[0]["text"].(string), "quarterly budget") || first[0]["start"].(float64) < 0.2 {
		t.Fatalf("first segments %v", first)
	}
	c.send(pcm16(1.0, true))
	c.send(pcm16(0.6, false))
	c.next(3*time.Second, isSegments)
	started := c.next(6*time.Second, isType("memory_processing_started"))
	created := c.next(6*time.Second, isType("memory_created"))
	if !strings.Contains(started, first[0]["text"].(string)[:10]) && !strings.Contains(created, `"status":"completed"`) {
		t.Fatalf("events %s / %s", started, created)
	}
	// Speech after the processed recording starts a new one.
	c.send(pcm16(1.0, true))
	c.send(pcm16(0.6, false))
	c.next(3*time.Second, isSegments)
	cs, _ := e.db.Conversations(context.Background(), e.user, appliance.ConversationFilter{Limit: 10,
		Statuses: []appliance.ConversationStatus{appliance.StatusInProgress, appliance.StatusCompleted}})
	if len(cs) != 2 {
		t.Fatalf("%d conversations, want the processed one and a new recording", len(cs))
	}
}

func TestSessionInactivityAndShutdown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, listen.Timing{Flush: 50 * time.Millisecond, Heartbeat: time.Second, Inactivity: 300 * time.Millisecond},
		scripted.Script{Utterances: []scripted.Utterance{{Text: "hello"}}})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	select {
	case code := <-c.code:
		if code != websocket.CloseGoingAway {
			t.Fatalf("inactivity close %d, want 1001", code)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no inactivity close")
	}

	e2 := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "hello"}}})
	c2 := e2.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c2.next(2*time.Second, isType("service_status"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	e2.srv.Shutdown(ctx)
	select {
	case code := <-c2.code:
		if code != websocket.CloseGoingAway {
			t.Fatalf("shutdown close %d", code)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no close on shutdown")
	}
	if n := e2.srv.Sessions(); n != 0 {
		t.Fatalf("%d sessions after shutdown", n)
	}
}

func TestSessionBadFramesAreSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, scripted.Script{Utterances: []scripted.Utterance{{Text: "still here"}}})
	c := e.dial("uid=u1&codec=opus_fs320&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	for range 20 {
		c.conn.WriteMessage(websocket.BinaryMessage, []byte{0xff, 0xfe, 0xfd, 0x00, 0x01})
		c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":`))
	}
	c.conn.WriteMessage(websocket.BinaryMessage, []byte{0x8a, 0x00})
	c.next(2*time.Second, func(m string) bool { return m == "ping" })
	select {
	case code := <-c.code:
		t.Fatalf("a bad frame closed the session (%d)", code)
	default:
	}
}

func TestParams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query   string
		wantErr string
		check   func(listen.Params) bool
	}{
		{"uid=u", "", func(p listen.Params) bool {
			return p.Codec == "pcm8" && p.SampleRate == 8000 && p.Language == "en" && p.ConversationTimeout == 120*time.Second
		}},
		{"uid=u&conversation_timeout=-1", "", func(p listen.Params) bool { return p.ConversationTimeout == 4*time.Hour }},
		{"uid=u&conversation_timeout=2&language=auto", "", func(p listen.Params) bool { return p.ConversationTimeout == 2*time.Second && p.Language == "multi" }},
		{"uid=u&channels=2", "", func(p listen.Params) bool { return p.ConversationTimeout == 4*time.Hour }},
		{"uid=u&source=nonsense", "", func(p listen.Params) bool { return p.Source == appliance.SourceOmi }},
		{"uid=u&source=openglass&custom_stt=enabled&onboarding=enabled&vad_gate=enabled&whatever=1", "", func(p listen.Params) bool {
			return p.Source == appliance.SourceOpenglass && p.CustomSTT
		}},
		{"codec=pcm16", "Bad uid", nil},
		{"uid=u&conversation_timeout=1", "conversation_timeout", nil},
		{"uid=u&conversation_timeout=14401", "conversation_timeout", nil},
		{"uid=u&conversation_timeout=soon", "conversation_timeout", nil},
		{"uid=u&codec=flac", "Invalid codec", nil},
		{"uid=u&sample_rate=7", "sample_rate", nil},
		{"uid=u&channels=3", "channels", nil},
	} {
		q, _ := parseQuery(tc.query)
		p, err := listen.ParseParams(q)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want %q", tc.query, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !tc.check(p) {
			t.Errorf("%s: %+v %v", tc.query, p, err)
		}
	}
}

func parseQuery(q string) (map[string][]string, error) {
	v, err := url.ParseQuery(q)
	return v, err
}
