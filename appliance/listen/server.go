// Package listen is the live transcription socket (/v4/listen): a wearable
// or phone streams audio for hours and gets transcript segments back every
// 600 ms, and a processed conversation after each silence. A session
// decodes each frame (appliance/audio), feeds a speech route
// (appliance/stt), groups and merges the words into segments, appends them
// durably to the recording through the conversation lifecycle before it
// sends them, and follows the user's event stream to tell the client when
// the recording was processed.
package listen

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Conversations is the lifecycle, as a session uses it.
type Conversations interface {
	Resume(ctx context.Context, r conversation.Recording) (*appliance.Conversation, bool, error)
	Start(ctx context.Context, r conversation.Recording) (*appliance.Conversation, error)
	Append(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment, replaces ...string) error
	Insert(ctx context.Context, userID, id string, segs []appliance.TranscriptSegment) (stale bool, err error)
	Restructure(ctx context.Context, userID, id string) error
	Finish(ctx context.Context, userID, id string, why conversation.FinishReason) (*appliance.Conversation, error)
	AssignSpeaker(ctx context.Context, a appliance.SpeakerAssignment) (int, error)
	SetTranslations(ctx context.Context, userID, id string, tr map[string][]appliance.Translation) error
	AddPhoto(ctx context.Context, userID, id string, p appliance.Photo) error
}

// History finds the user's latest processed conversation (last_memory).
type History interface {
	Conversations(ctx context.Context, userID string, f appliance.ConversationFilter) ([]*appliance.Conversation, error)
}

// Timing of a session. Flush, Heartbeat and Inactivity are the
// reference's; tests shorten them.
type Timing struct {
	Flush      time.Duration // how often results are processed and sent (600 ms)
	Heartbeat  time.Duration // the server's text "ping" (10 s)
	Inactivity time.Duration // no client message for this long closes 1001 (90 s)
	// AudioGap: no audio frame for this long ends the utterance in
	// progress, as a pause would (1.5 s). A wearable whose button is
	// released, or a phone that loses it, sends no silence to end it.
	AudioGap time.Duration
	// Drain bounds the wait for a route to hear out what it holds, at a
	// session's end or before its recording is processed (30 s).
	Drain time.Duration
	// HearOut bounds how long a recording ended from outside waits for
	// the route's words before it is processed (1 min; zero is that).
	// Words the route gives later, said before the end, are put into it
	// afterwards and it is processed again.
	HearOut time.Duration
}

// DefaultTiming is the reference's, with the appliance's own AudioGap and
// Drain.
var DefaultTiming = Timing{Flush: 600 * time.Millisecond, Heartbeat: 10 * time.Second, Inactivity: 90 * time.Second,
	AudioGap: 1500 * time.Millisecond, Drain: 30 * time.Second}

// Deps are what sessions are built from (wired by hand in cmd).
type Deps struct {
	Conversations Conversations
	History       History
	Events        appliance.EventSubscriber
	// Router opens speech routes; nil serves only custom-STT sessions.
	// Each session pins the routes in place when it opens (stt.Router.Pin).
	Router *stt.Router
	// SpoolDir keeps audio a failed route could not transcribe, for a
	// later retry; empty keeps none.
	SpoolDir string
	// Translator translates live segments when Translation.To is set;
	// nil turns translation off.
	Translator  Translator
	Translation Translation
	// Voices identifies the owner by their speech profile; nil leaves
	// is_user to the route and the owner's assignments.
	Voices Voices
	// UserStreams caps the speech-route streams one user's sessions hold
	// at once (0: no cap); StreamsRoute runs Streams streams at most (0:
	// no bound), of which the others leave one to the owner; Owner's
	// sessions are never refused.
	UserStreams  int
	StreamsRoute string
	Streams      int
	Owner        Owner
	// Keep opens the recording a live session's audio is kept in, for a
	// conversation whose first kept sample is at started: fed samples, or
	// the client's Opus packets as packets describes (nil: samples); nil
	// (or an error) keeps no audio. AudioFiles lists a conversation's
	// kept recordings for the conversation events.
	Keep       func(user, conv string, started time.Time, packets *audio.OpusPackets) (AudioSink, error)
	AudioFiles func(user, conv string) appliance.AudioFiles
	Timing     Timing
	Logger     *slog.Logger
	Now        func() time.Time
}

// Server runs sessions.
type Server struct {
	d        Deps
	upgrader websocket.Upgrader
	wg       sync.WaitGroup
	mu       sync.Mutex
	live     map[liveConn]struct{}
	// lingering are ended sessions still transcribing audio their route
	// skipped (late.go): their recording waits for it as for a live one.
	lingering map[*session]struct{}
	slots     *streamSlots
}

// liveConn is a running connection: a /v4/listen session or a custom-STT
// connection.
type liveConn interface {
	owner() string
	describe() Active
	// stop ends it: what its route holds is heard out and sent first.
	stop(code int, reason string)
	// abandon ends it now, when a shutdown's time is up before it was
	// heard out: the audio its route did not transcribe is kept, and the
	// client gets its close frame rather than a dropped connection.
	abandon()
}

// track runs c in the live set until done returns.
func (s *Server) track(c liveConn, run func()) {
	s.mu.Lock()
	s.live[c] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.live, c)
		s.mu.Unlock()
		s.wg.Done()
	}()
	run()
}

// conns lists the running connections of user ("" for all).
func (s *Server) conns(user string) []liveConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]liveConn, 0, len(s.live))
	for c := range s.live {
		if user == "" || c.owner() == user {
			out = append(out, c)
		}
	}
	return out
}

// New returns a session server.
func New(d Deps) *Server {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	removeStaleTapes(d.SpoolDir)
	if d.Translation.Event != TranslationEvent {
		d.Translation.Event = TranslatingEvent
	}
	if d.Timing.Flush <= 0 {
		d.Timing.Flush = DefaultTiming.Flush
	}
	if d.Timing.Heartbeat <= 0 {
		d.Timing.Heartbeat = DefaultTiming.Heartbeat
	}
	if d.Timing.Inactivity <= 0 {
		d.Timing.Inactivity = DefaultTiming.Inactivity
	}
	if d.Timing.AudioGap <= 0 {
		d.Timing.AudioGap = DefaultTiming.AudioGap
	}
	if d.Timing.Drain <= 0 {
		d.Timing.Drain = DefaultTiming.Drain
	}
	return &Server{d: d, live: map[liveConn]struct{}{}, slots: &streamSlots{cap: d.UserStreams, route: d.StreamsRoute, total: d.Streams, owner: d.Owner, held: map[string]int{}},
		upgrader: websocket.Upgrader{
			ReadBufferSize: 4096, WriteBufferSize: 4096,
			// Wearables and phone apps are not browsers and send no Origin;
			// a browser page on another site must not stream into the
			// owner's recordings with the owner's cookies (there are none,
			// but the check costs nothing).
			CheckOrigin: func(r *http.Request) bool {
				o := r.Header.Get("Origin")
				return o == "" || sameHost(o, r.Host)
			},
		}}
}

// Refuse completes the upgrade and closes at once with code (1008, or 4001
// for an expired token) and reason, so that a client that only reads close
// frames can log why.
func (s *Server) Refuse(w http.ResponseWriter, r *http.Request, code int, reason string) {
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered with an HTTP error
	}
	defer conn.Close()
	msg := websocket.FormatCloseMessage(code, truncateReason(reason))
	conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
}

// Serve upgrades r and runs a session for user with p until the client or
// the appliance ends it.
func (s *Server) Serve(w http.ResponseWriter, r *http.Request, user string, p Params) {
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	ss := newSession(s, conn, user, p)
	s.track(ss, func() { ss.run(r.Context()) })
}

// Active describes one running session for the owner's live view.
type Active struct {
	StartedAt time.Time `json:"started_at"`
	// Route is the speech route transcribing it ("custom_stt" when the
	// client brings its own transcripts; empty until audio arrives).
	Route          string `json:"route"`
	Codec          string `json:"codec"`
	SampleRate     int    `json:"sample_rate"`
	Language       string `json:"language"`
	ConversationID string `json:"conversation_id,omitempty"`
}

// ActiveFor lists user's running sessions, oldest first.
func (s *Server) ActiveFor(user string) []Active {
	conns := s.conns(user)
	out := make([]Active, 0, len(conns))
	for _, c := range conns {
		out = append(out, c.describe())
	}
	slices.SortFunc(out, func(a, b Active) int { return a.StartedAt.Compare(b.StartedAt) })
	return out
}

// Sessions counts the sessions running now.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

// HearOut makes every live session recording conversation id of user hear
// out what its route holds and append it, before the recording is
// processed: the words of an utterance still being said when the owner
// ends the recording belong to it.
func (s *Server) HearOut(ctx context.Context, user, id string) {
	var wg sync.WaitGroup
	for _, c := range s.conns(user) {
		ss, ok := c.(*session)
		if !ok || ss.convID() != id {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); ss.hearOut(ctx, true) }()
	}
	for _, ss := range s.lingerers(user) {
		if ss.convID() == id {
			wg.Add(1)
			go func() { defer wg.Done(); ss.late.wait(s.d.Timing.Drain) }()
		}
	}
	wg.Wait()
}

// linger keeps an ended session whose skipped audio is still being
// transcribed, until unlinger.
func (s *Server) linger(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lingering == nil {
		s.lingering = map[*session]struct{}{}
	}
	s.lingering[ss] = struct{}{}
}

func (s *Server) unlinger(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.lingering, ss)
}

// lingerers lists user's lingering sessions ("" for all).
func (s *Server) lingerers(user string) []*session {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*session
	for ss := range s.lingering {
		if user == "" || ss.user == user {
			out = append(out, ss)
		}
	}
	return out
}

// Shutdown ends every connection with 1001 (going away), each after
// hearing out and sending what its route holds, and waits for them, at
// most until ctx ends.
func (s *Server) Shutdown(ctx context.Context) {
	for _, c := range s.conns("") {
		c.stop(websocket.CloseGoingAway, "server shutting down")
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		for _, c := range s.conns("") {
			c.abandon()
		}
	}
	// Skipped audio not transcribed yet is kept, as a failed route's is.
	for _, ss := range s.lingerers("") {
		ss.late.abandon(ss.keepLateAudio)
	}
}

// truncateReason keeps a close reason within the 123 bytes a close frame
// allows.
func truncateReason(s string) string {
	if len(s) > 120 {
		return s[:120]
	}
	return s
}
