package listen

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// session is one /v4/listen socket: the socket (socket.go), the audio path
// (frames.go) and the recorder (recorder.go), run by run.
type session struct {
	srv  *Server
	sock *socket
	user string
	p    Params
	// router is the speech routes in place when the session opened: a
	// settings change reaches the next session, and this one reopens
	// (after a pause, to hand over) on the routes it started with.
	router *stt.Router
	// opened is when the socket was accepted.
	opened time.Time

	lastClient   atomic.Int64 // unix nanoseconds of the last client message
	badJSON      atomic.Int64
	untranslated atomic.Int64

	// mu guards what the reader, the ticker, the event follower and the
	// recorder share; it is never held across a database call.
	mu          sync.Mutex
	conv        *appliance.Conversation       // the recording segments go to; nil until speech
	convEnded   bool                          // processing started: the next speech starts a new recording
	suggested   []appliance.TranscriptSegment // from a custom STT, not yet flushed
	streamStart time.Time                     // wall time of stream second 0
	lastSpeech  time.Time
	finishing   bool
	heard       bool                      // the open recording has segments
	announced   map[string]bool           // recordings whose processing the client was told of
	people      map[int]string            // speaker id → person id the owner assigned
	photos      map[string]*photoAssembly // photos being reassembled, by the client's id
	provider    string
	readyReason string         // the ready event's reason (a fallback's)
	introduced  map[int]string // the name each speaker gave
	lagging     bool           // the route is skipping audio (stt_behind was sent)
	// lastEnd is the last recording asked to end and the stream second
	// it was asked at: words the route gives afterwards but said before
	// it belong to it, not to the next recording.
	lastEnd *endMark

	// The recorder's own state: flushMu serialises flushes and guards it.
	flushMu sync.Mutex
	rec     recorder

	audio *frames // nil for a custom-STT session: the app transcribes
	trq   chan translateJob
	// batch is the route's batch side, for the stretches the stream
	// skipped while behind; late transcribes them (late.go).
	batch stt.BatchProvider
	late  *lateQueue

	household Household // nil unless the session recognises voices
	// diarizing: the route names no speakers, so the session tells voices
	// apart (voices.go).
	diarizing bool
}

func newSession(srv *Server, conn *websocket.Conn, user string, p Params) *session {
	s := &session{srv: srv, sock: newSocket(conn, srv.d.Logger), user: user, p: p, router: srv.d.Router.Pin()}
	s.opened = srv.d.Now()
	s.lastClient.Store(s.opened.UnixNano())
	return s
}

func (s *session) owner() string { return s.user }

// stop ends the session: reading stops, what the route holds is heard out
// and sent, then the socket closes with code.
func (s *session) stop(code int, reason string) { s.sock.stop(code, reason) }

func (s *session) send(v any) { s.sock.send(v) }

// describe is the session as the owner's live view shows it.
func (s *session) describe() Active {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := Active{StartedAt: s.opened, Route: s.provider, Codec: s.p.Codec, SampleRate: s.p.SampleRate, Language: s.p.Language}
	if s.p.CustomSTT {
		a.Route = "custom_stt"
	}
	if s.conv != nil && !s.convEnded {
		a.ConversationID = s.conv.ID
	}
	return a
}

func (s *session) now() time.Time { return s.srv.d.Now() }

// run drives the session until it ends. The end is always in this order:
// stop reading, close the route, take all of its words, a last flush (sent
// while the client may still listen), then the close frame.
func (s *session) run(ctx context.Context) {
	opened := s.now()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.sock.writer() }()
	defer func() {
		s.sock.finish()
		wg.Wait()
		s.sock.conn.Close()
		if s.audio != nil {
			s.audio.dec.Close()
		}
		n := int64(0)
		if s.audio != nil {
			n = s.audio.bad.Load()
		}
		// Every session's end is logged (the console's System log shows
		// the sessions), with what went wrong in it, if anything.
		ended := []any{"user", s.user, "seconds", int(s.now().Sub(opened).Seconds())}
		if j, t := s.badJSON.Load(), s.untranslated.Load(); n > 0 || j > 0 || t > 0 {
			ended = append(ended, "bad_frames", n, "bad_json", j, "untranslated", t)
		}
		s.srv.d.Logger.Info("listen session ended", ended...)
	}()
	if err := s.open(ctx); err != nil {
		s.fail(err)
		return
	}
	s.srv.d.Logger.Info("listen session started", "user", s.user, "codec", s.p.Codec, "sample_rate", s.p.SampleRate,
		"language", s.p.Language, "route", s.provider)
	sub := s.srv.d.Events.Subscribe(s.user)
	defer sub.Close()
	wg.Add(2)
	go func() { defer wg.Done(); s.follow(sub) }()
	go func() { defer wg.Done(); s.tick(ctx) }()
	pumped := make(chan struct{})
	if s.audio != nil {
		go func() { defer close(pumped); s.pump() }()
	}
	if s.translates() {
		s.trq = make(chan translateJob, translateQueue)
		wg.Add(1)
		go func() { defer wg.Done(); s.translate(ctx) }()
	}
	s.sock.read(s.handle)

	// Hear out what was said before the end.
	quiet := context.WithoutCancel(ctx)
	if s.audio != nil {
		s.audio.close()
		if s.audio.awaitPump(s.srv.d.Timing.Drain, lastWordsMost) {
			// A route that failed has its unconfirmed audio saved from
			// the tape, which the late queue's end may remove.
			<-pumped
		} else {
			s.srv.d.Logger.Warn("the speech route stopped getting through the session's last words; they are lost",
				"user", s.user, "provider", s.provider, "idle_s", s.srv.d.Timing.Drain.Seconds())
		}
	}
	s.flush(quiet, true)
	if s.audio != nil && s.audio.keep != nil {
		s.audio.keep.close()
	}
	if s.late != nil {
		// Stretches skipped while behind are sent while the client may
		// still listen, as long as a drain may take; the rest are
		// transcribed and stored after the session.
		if !s.late.wait(s.srv.d.Timing.Drain) {
			s.srv.d.Logger.Info("skipped audio is still being transcribed; it is stored after the session", "user", s.user)
			s.srv.linger(s)
		}
		s.late.end()
	}
}

// handle is one client message.
func (s *session) handle(kind int, data []byte) {
	s.lastClient.Store(s.now().UnixNano())
	switch kind {
	case websocket.BinaryMessage:
		if len(data) <= heartbeatMax || s.audio == nil {
			return // a keep-alive; or custom STT, where audio only proves liveness
		}
		s.audio.feed(data)
	case websocket.TextMessage:
		s.message(data)
	}
}

// open resumes or starts the recording, opens the decoder and the speech
// route, and greets the client.
func (s *session) open(ctx context.Context) error {
	var dec audio.Decoder
	if !s.p.CustomSTT {
		var err error
		dec, err = audio.NewDecoder(audio.Format{Codec: s.p.Codec, SampleRate: s.p.SampleRate, Channels: s.p.Channels})
		if err != nil {
			return &closeErr{code: websocket.ClosePolicyViolation, reason: fmt.Sprintf("codec %s: %v", s.p.Codec, errors.Unwrap(err))}
		}
		if s.router == nil || !s.router.Serves(s.p.Language, s.p.Channels) {
			dec.Close()
			return &closeErr{code: websocket.ClosePolicyViolation, reason: s.unserved()}
		}
	}
	conv, _, err := s.srv.d.Conversations.Resume(ctx, s.recording(time.Time{}))
	if err != nil {
		if dec != nil {
			dec.Close()
		}
		return err
	}
	s.mu.Lock()
	s.conv = conv
	s.heard = len(conv.TranscriptSegments) > 0
	s.streamStart = s.now()
	s.lastSpeech = s.now()
	s.mu.Unlock()
	s.rec.resume(conv)
	s.sendLastMemory(ctx)
	if s.p.CustomSTT {
		s.send(ready("", ""))
		return nil
	}
	var ring *voiceRing
	if s.p.IncludeSpeechProfile && s.srv.d.Voices != nil {
		h, err := s.srv.d.Voices.Household(ctx, s.user)
		if err != nil {
			s.srv.d.Logger.Warn("known voices not loaded; speakers are not identified", "user", s.user, "err", err)
		} else if h != nil {
			s.household, ring = h, &voiceRing{}
		}
	}
	cfg := stt.Config{Language: s.p.Language, Channels: s.p.Channels, Diarize: true}
	// A route that falls behind may skip audio only while the session
	// keeps every frame to transcribe the stretch later.
	tp, err := openTape(s.srv.d.SpoolDir)
	if err != nil {
		s.srv.d.Logger.Warn("no audio tape: a route that falls behind ends the session", "user", s.user, "err", err)
	} else {
		cfg.Skipped = s.skipped
	}
	stream, sel, err := s.openRoute(ctx, cfg)
	if err != nil {
		dec.Close()
		if tp != nil {
			tp.remove()
		}
		return err
	}
	s.batch = sel.Batch
	s.audio = newFrames(dec, stream, ring, s.srv.d.Now)
	// A session that never sends audio gives its slot back too.
	s.audio.lastAudio.Store(s.now().UnixNano())
	if s.srv.d.Keep != nil {
		s.audio.keep = s.keeper()
	}
	if tp != nil {
		s.audio.tape, s.audio.behind, s.audio.spool.tape = tp, s.behind, tp
		s.late = newLateQueue(s.transcribeLate, s.restructure, func() { tp.remove(); s.srv.unlinger(s) })
	}
	s.mu.Lock() // the live view reads provider (describe)
	s.provider, s.readyReason = sel.Provider, sel.Reason()
	s.mu.Unlock()
	s.diarizing = sel.Undiarized && s.household != nil
	s.send(ready(sel.Provider, sel.Reason()))
	return nil
}

// withAudio is c with its kept recordings listed (a copy: the event's
// conversation is shared with other subscribers).
func (s *session) withAudio(c *appliance.Conversation) *appliance.Conversation {
	if s.srv.d.AudioFiles == nil || c == nil {
		return c
	}
	out := *c
	out.AudioFiles = s.srv.d.AudioFiles(s.user, c.ID)
	return &out
}

// keeper keeps the session's audio in its open conversation's recording.
func (s *session) keeper() *keeper {
	s.mu.Lock()
	start := s.streamStart
	s.mu.Unlock()
	channels := 0
	if (s.p.Codec == audio.Opus || s.p.Codec == audio.OpusFS320) && s.p.SampleRate == audio.Rate {
		channels = s.p.Channels // the packets may be kept as they came
	}
	return &keeper{
		open: func(conv string, started time.Time, packets *audio.OpusPackets) (AudioSink, error) {
			return s.srv.d.Keep(s.user, conv, started, packets)
		},
		channels: channels,
		current: func() (string, bool) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.conv == nil || s.convEnded {
				return "", false
			}
			return s.conv.ID, true
		},
		start: start,
		log: func(msg string, args ...any) {
			s.srv.d.Logger.Warn(msg, append([]any{"user", s.user}, args...)...)
		},
	}
}

func (s *session) recording(started time.Time) conversation.Recording {
	return conversation.Recording{UserID: s.user, Source: s.p.Source, Language: s.p.Language,
		SilenceTimeout: s.p.ConversationTimeout, StartedAt: started}
}

func (s *session) sendLastMemory(ctx context.Context) {
	if s.srv.d.History == nil {
		return
	}
	cs, err := s.srv.d.History.Conversations(ctx, s.user, appliance.ConversationFilter{Limit: 1,
		Statuses: []appliance.ConversationStatus{appliance.StatusCompleted}})
	if err == nil && len(cs) == 1 {
		s.send(lastMemory{Type: "last_memory", MemoryID: cs[0].ID})
	}
}

// clientMessage is every JSON message a client sends.
type clientMessage struct {
	Type        string             `json:"type"`
	Segments    []suggestedSegment `json:"segments"`
	STTProvider string             `json:"stt_provider"`
	SpeakerID   *int               `json:"speaker_id"`
	PersonID    string             `json:"person_id"`
	PersonName  string             `json:"person_name"`
	SegmentIDs  []string           `json:"segment_ids"`
	ID          string             `json:"id"`
	Index       int                `json:"index"`
	Total       int                `json:"total"`
	Data        string             `json:"data"`
}

type suggestedSegment struct {
	Text      string   `json:"text"`
	Speaker   string   `json:"speaker"`
	SpeakerID *int     `json:"speaker_id"`
	Start     *float64 `json:"start"`
	End       *float64 `json:"end"`
	IsUser    bool     `json:"is_user"`
	PersonID  *string  `json:"person_id"`
}

func (s *session) message(data []byte) {
	var m clientMessage
	if err := json.Unmarshal(data, &m); err != nil {
		s.badJSON.Add(1) // malformed JSON is ignored, as the reference does
		return
	}
	ctx := context.Background()
	switch m.Type {
	case "suggested_transcript":
		if !s.p.CustomSTT {
			return
		}
		s.suggest(m)
	case "speaker_assigned":
		s.assignSpeaker(ctx, m)
	case "image_chunk":
		s.imageChunk(ctx, m)
	case "skip_question", "start_onboarding":
		// Onboarding is the app's own flow; the appliance has no questions.
	default:
		s.badJSON.Add(1)
	}
}

// maxSuggestedSegments bounds one suggested_transcript. A custom STT sends
// a few segments per message, as it hears them; the reference sets no
// bound, but one 1 MB message of tiny segments is a lot of work for
// nothing a real recognizer would send.
const maxSuggestedSegments = 1000

// suggest queues a custom STT's segments, with its provider name on each.
// Unlike the reference, they are taken even before the first audio frame.
// A message over the bound is ignored whole (the socket stays open, as
// for malformed JSON) and logged.
func (s *session) suggest(m clientMessage) {
	if len(m.Segments) > maxSuggestedSegments {
		s.badJSON.Add(1)
		s.srv.d.Logger.Warn("ignored a suggested_transcript with too many segments", "user", s.user,
			"segments", len(m.Segments), "max", maxSuggestedSegments)
		return
	}
	segs := suggestedSegments(m)
	s.mu.Lock()
	s.suggested = append(s.suggested, segs...)
	s.mu.Unlock()
}

// suggestedSegments reads a suggested_transcript's segments: text required,
// speaker from speaker_id or the label, times made non-negative and ordered.
func suggestedSegments(m clientMessage) []appliance.TranscriptSegment {
	var segs []appliance.TranscriptSegment
	for _, in := range m.Segments {
		text := strings.TrimSpace(in.Text)
		if text == "" {
			continue
		}
		speaker := appliance.SpeakerIDFromLabel(in.Speaker)
		if in.SpeakerID != nil {
			speaker = *in.SpeakerID
		}
		start, end := 0.0, 0.0
		if in.Start != nil {
			start = max(*in.Start, 0)
		}
		if in.End != nil {
			end = *in.End
		}
		end = max(end, start)
		if speaker < 0 {
			speaker = 0
		}
		seg := segment(text, speaker, start, end, m.STTProvider)
		seg.IsUser, seg.PersonID = in.IsUser, in.PersonID
		segs = append(segs, seg)
	}
	return segs
}

// pump collects the route's words until it ends; a route that fails while
// the session is live ends the session with stt_failed and 1011.
func (s *session) pump() {
	s.audio.pump(s.shapeWords)
	if err := s.audio.stream.Err(); err != nil {
		s.routeFailed(err)
	}
}

// routeFailed stores and sends what the route heard before it failed,
// keeps the audio it did not transcribe, tells the client the route is
// gone and closes with 1011. The session never switches routes silently
// once audio has flowed.
func (s *session) routeFailed(err error) {
	var ce *closeErr
	if errors.As(err, &ce) { // refused a stream slot when audio resumed
		s.srv.d.Logger.Info("live session refused a speech stream", "user", s.user, "reason", ce.reason)
		s.flush(context.Background(), true)
		s.stop(ce.code, ce.reason)
		return
	}
	e := stt.Classify(err, s.provider)
	s.srv.d.Logger.Warn("speech route failed mid-session", "user", s.user, "provider", s.provider, "err", err)
	s.flush(context.Background(), true)
	s.keepUnheard("the speech route failed")
	s.endSTTFailed(e)
}

// abandon keeps the audio the route has not transcribed yet, as a failed
// route's, and closes the socket now (a shutdown's time is up).
func (s *session) abandon() {
	if s.audio != nil {
		s.keepUnheard("the session was ended before its route had heard it out")
	}
	s.sock.abort(websocket.CloseGoingAway, "server shutting down")
}

// keepUnheard saves the audio after the last word the route confirmed to
// the spool folder, and logs where.
func (s *session) keepUnheard(why string) {
	convID := s.convID()
	if path, n := s.audio.spool.save(s.srv.d.SpoolDir, convID, s.now()); n > 0 {
		s.srv.d.Logger.Info("kept audio the route did not transcribe", "why", why, "conversation_id", convID, "path", path, "seconds", float64(n)/stt.SampleRate)
	}
}

// endSTTFailed tells the client its route failed (service_status
// stt_failed) and closes with 1011: a failure at open and one mid-session
// end the same way.
func (s *session) endSTTFailed(e *stt.Error) {
	s.send(sttFailedStatus(e))
	s.stop(websocket.CloseInternalServerErr, sttFailedReason(e))
}

// tick flushes results every Flush, sends the heartbeat, ends an
// utterance whose audio stopped arriving, and watches for inactivity and
// silence.
func (s *session) tick(ctx context.Context) {
	t := s.srv.d.Timing
	flush := time.NewTicker(t.Flush)
	beat := time.NewTicker(t.Heartbeat)
	defer flush.Stop()
	defer beat.Stop()
	for {
		select {
		case <-s.sock.stopped:
			return
		case <-beat.C:
			s.sock.sendRaw(websocket.TextMessage, []byte("ping"))
		case <-flush.C:
			if s.now().Sub(time.Unix(0, s.lastClient.Load())) >= t.Inactivity {
				s.stop(websocket.CloseGoingAway, "inactivity")
				return
			}
			if s.audio != nil && s.audio.stalled(t.AudioGap) {
				// Audio stopped mid-utterance: hear it out now, and give
				// the route's slot back until the next frame.
				go s.idle(ctx)
			}
			s.flush(ctx, false)
			s.checkSilence(ctx)
			if s.audio != nil && s.audio.keep != nil {
				s.audio.keep.flushIdle()
			}
		}
	}
}

// hearOut ends the utterance in progress, waits for its words and flushes
// them: what was said is in the recording and sent when it returns. final
// also releases segments held back for their speaker's identity.
func (s *session) hearOut(ctx context.Context, final bool) {
	if s.audio != nil {
		if final {
			s.audio.settle(settleQuiet, settleMax)
			s.markEnd()
		}
		// A recording that ends waits for its words while the route
		// gets on with them; an idle drain (audio stopped) waits Drain.
		most := s.srv.d.Timing.Drain
		if final {
			most = cmp.Or(s.srv.d.Timing.HearOut, hearOutMost)
		}
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), most)
		err := s.audio.drain(dctx, s.srv.d.Timing.Drain)
		cancel()
		if err != nil && !errors.Is(err, stt.ErrDrainBusy) {
			s.srv.d.Logger.Debug("drain the speech route", "user", s.user, "err", err)
		}
	}
	s.flush(context.WithoutCancel(ctx), final)
	if final && s.late != nil {
		s.late.wait(s.srv.d.Timing.Drain) // the recording ends: its skipped stretches first
	}
}

// endMark is a recording asked to end, and where in the stream.
type endMark struct {
	conv appliance.Conversation // its id and start
	at   float64                // stream seconds
}

// markEnd notes where in the stream the open recording was asked to end.
func (s *session) markEnd() {
	at := float64(s.audio.fed.Load()) / stt.SampleRate
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conv == nil || s.conv.StartedAt == nil {
		return
	}
	s.lastEnd = &endMark{conv: appliance.Conversation{ID: s.conv.ID, StartedAt: s.conv.StartedAt}, at: at}
}

// Once its connection has ended, a session waits for its route's last
// words while they keep coming (see frames.awaitPump), at most
// lastWordsMost; a recording ended from outside then waits for them at
// most hearOutMost, leaving the rest of processing's two minutes to
// processing.
const (
	lastWordsMost = 10 * time.Minute
	hearOutMost   = time.Minute
)

// A recording ended from outside first takes the frames still arriving:
// settleQuiet without one, settleMax at most.
const (
	settleQuiet = 200 * time.Millisecond
	settleMax   = time.Second
)

// checkSilence finishes the recording once the session's own
// conversation_timeout has passed without speech. It is the recording's
// silence timeout (conversation.Recording.SilenceTimeout, which the
// session starts the recording with) applied while the session is live,
// with the one thing only the session knows: words said before the
// timeout and still being transcribed hold it open. Once the session is
// gone, conversation.FinishIdle applies the same timeout from the store.
func (s *session) checkSilence(ctx context.Context) {
	s.mu.Lock()
	if s.conv == nil || s.convEnded || s.finishing || !s.heard || s.now().Sub(s.lastSpeech) < s.p.ConversationTimeout {
		s.mu.Unlock()
		return
	}
	if s.late != nil && s.late.pending() {
		s.mu.Unlock() // words said in it are still being transcribed
		return
	}
	s.finishing = true
	id := s.conv.ID
	s.mu.Unlock()
	go func() {
		_, err := s.srv.d.Conversations.Finish(context.WithoutCancel(ctx), s.user, id, conversation.FinishSilence)
		if err != nil && appliance.ErrorCode(err) != appliance.ECONFLICT {
			s.srv.d.Logger.Warn("finish a silent recording", "conversation_id", id, "err", err)
		}
		s.mu.Lock()
		s.finishing = false
		s.mu.Unlock()
	}()
}

// follow relays the lifecycle of the session's recording: processing
// started (memory_processing_started) and processed (memory_created),
// whoever finished it (the silence timeout or POST /v1/conversations).
func (s *session) follow(sub appliance.Subscription) {
	for {
		select {
		case <-s.sock.done:
			return
		case e, ok := <-sub.C():
			if !ok {
				return
			}
			s.mu.Lock()
			var conv *appliance.Conversation
			if s.conv != nil && e.ConversationID == s.conv.ID {
				conv = s.conv
				if e.Type == appliance.EventProcessingStarted {
					s.convEnded = true
				}
			}
			mine := conv != nil || s.announced[e.ConversationID]
			s.mu.Unlock()
			if !mine {
				continue
			}
			switch e.Type {
			case appliance.EventProcessingStarted:
				if conv != nil {
					s.announceProcessing(conv)
				}
			case appliance.EventConversationProcessed:
				s.send(memoryMessage("memory_created", s.withAudio(e.Conversation)))
			}
		}
	}
}

// unserved is the close reason when no route takes the session: the
// reference's for a language, or, when the language would be served in
// mono, what is really wrong.
func (s *session) unserved() string {
	if r := s.router; r != nil && s.p.Channels != 1 && r.Serves(s.p.Language, 1) {
		return fmt.Sprintf("Only mono audio is supported: channels=%d", s.p.Channels)
	}
	return "The language is not supported, " + s.p.Language
}

// fail ends a session that could not open.
func (s *session) fail(err error) {
	var ce *closeErr
	if errors.As(err, &ce) {
		s.stop(ce.code, ce.reason)
		return
	}
	var se *stt.Error
	if errors.As(err, &se) {
		if errors.Is(err, stt.ErrNoRoute) {
			s.stop(websocket.ClosePolicyViolation, s.unserved())
			return
		}
		s.endSTTFailed(se)
		return
	}
	s.srv.d.Logger.Error("open a listen session", "user", s.user, "err", err)
	s.stop(websocket.CloseInternalServerErr, "internal error")
}

type closeErr struct {
	code   int
	reason string
}

func (e *closeErr) Error() string { return e.reason }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sameHost reports whether a browser Origin names the host addressed.
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, host)
}
