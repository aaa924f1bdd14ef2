package listen

import (
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

// writeWait bounds one write to a client; one that cannot take a message in
// this long is gone.
const writeWait = 10 * time.Second

// heartbeatMax is the largest binary message that is a keep-alive, never
// audio (the app answers the server's "ping" with the bytes 0x8A 0x00).
const heartbeatMax = 2

// outBuffer bounds the messages waiting for a slow client.
const outBuffer = 256

type outMsg struct {
	kind int // websocket.TextMessage or CloseMessage
	data []byte
}

// session is one socket. Its state is guarded by mu; the socket is read by
// one goroutine (run's reader) and written by one (writer).
type session struct {
	srv  *Server
	conn *websocket.Conn
	user string
	p    Params
	// opened is when the socket was accepted.
	opened time.Time

	out       chan outMsg
	done      chan struct{}
	endOnce   sync.Once
	closeCode int
	closeText string

	lastClient   atomic.Int64 // unix nanoseconds of the last client message
	badFrames    atomic.Int64
	badJSON      atomic.Int64
	untranslated atomic.Int64

	mu          sync.Mutex
	conv        *appliance.Conversation // the recording segments go to; nil until speech
	convEnded   bool                    // processing started: the next speech starts a new recording
	tail        *appliance.TranscriptSegment
	words       []stt.Word                    // from the route, not yet sent
	suggested   []appliance.TranscriptSegment // from a custom STT, not yet sent
	streamStart time.Time                     // wall time of stream second 0
	lastSpeech  time.Time
	finishing   bool
	people      map[int]string            // speaker id → person id the owner assigned
	photos      map[string]*photoAssembly // photos being reassembled, by the client's id

	dec      audio.Decoder
	stream   stt.Stream
	provider string
	spool    *spool
	trq      chan translateJob // nil when the session is not translated

	// Voices the session recognises (voices.go).
	household Household
	ring      *voiceRing
	voices    map[int]*speakerVoice // by speaker id; guarded by mu
	lastSeg   map[int]string        // each speaker's last segment id sent; guarded by mu
	// diarizing: the route names no speakers, so the session tells voices
	// apart (voices.go); clusters and lastSpeaker are guarded by mu.
	diarizing   bool
	clusters    []*voiceCluster
	lastSpeaker int
	introduced  map[int]string // the name each speaker gave; guarded by mu
}

func newSession(srv *Server, conn *websocket.Conn, user string, p Params) *session {
	s := &session{srv: srv, conn: conn, user: user, p: p, out: make(chan outMsg, outBuffer), done: make(chan struct{}),
		closeCode: websocket.CloseNormalClosure, spool: newSpool()}
	s.opened = srv.d.Now()
	s.lastClient.Store(s.opened.UnixNano())
	return s
}

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

// run drives the session until it ends, then cleans up.
func (s *session) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.writer() }()

	if err := s.open(ctx); err != nil {
		s.fail(err)
	} else {
		sub := s.srv.d.Events.Subscribe(s.user)
		wg.Add(3)
		go func() { defer wg.Done(); s.follow(ctx, sub) }()
		go func() { defer wg.Done(); s.tick(ctx) }()
		go func() { defer wg.Done(); s.pump() }()
		if s.translates() {
			s.trq = make(chan translateJob, translateQueue)
			wg.Add(1)
			go func() { defer wg.Done(); s.translate(ctx) }()
		}
		s.read(ctx)
		sub.Close()
	}
	cancel()
	s.end(s.closeCode, s.closeText)
	s.closeStream()
	s.flush(context.WithoutCancel(ctx)) // what the route still held
	wg.Wait()
	s.conn.Close()
	if s.dec != nil {
		s.dec.Close()
	}
	if n, j, t := s.badFrames.Load(), s.badJSON.Load(), s.untranslated.Load(); n > 0 || j > 0 || t > 0 {
		s.srv.d.Logger.Info("listen session ended", "user", s.user, "bad_frames", n, "bad_json", j, "untranslated", t)
	}
}

// open resumes or starts the recording, opens the decoder and the speech
// route, and greets the client.
func (s *session) open(ctx context.Context) error {
	if !s.p.CustomSTT {
		dec, err := audio.NewDecoder(audio.Format{Codec: s.p.Codec, SampleRate: s.p.SampleRate, Channels: s.p.Channels})
		if err != nil {
			return &closeErr{code: websocket.ClosePolicyViolation, reason: fmt.Sprintf("codec %s: %v", s.p.Codec, errors.Unwrap(err))}
		}
		s.dec = dec
		if s.srv.d.Router == nil || !s.srv.d.Router.Serves(s.p.Language, s.p.Channels) {
			return &closeErr{code: websocket.ClosePolicyViolation, reason: "The language is not supported, " + s.p.Language}
		}
	}
	conv, _, err := s.srv.d.Conversations.Resume(ctx, s.recording(time.Time{}))
	if err != nil {
		return err
	}
	s.conv = conv
	if n := len(conv.TranscriptSegments); n > 0 {
		t := conv.TranscriptSegments[n-1]
		s.tail = &t
	}
	s.streamStart = s.now()
	s.lastSpeech = s.now()
	s.sendLastMemory(ctx)
	if s.p.CustomSTT {
		s.send(map[string]any{"type": "service_status", "status": "ready"})
		return nil
	}
	if s.p.IncludeSpeechProfile && s.srv.d.Voices != nil {
		h, err := s.srv.d.Voices.Household(ctx, s.user)
		if err != nil {
			s.srv.d.Logger.Warn("known voices not loaded; speakers are not identified", "user", s.user, "err", err)
		} else if h != nil {
			s.household, s.ring = h, &voiceRing{}
		}
	}
	stream, sel, err := s.srv.d.Router.Open(ctx, stt.Config{Language: s.p.Language, Channels: s.p.Channels, Diarize: true})
	if err != nil {
		return err
	}
	s.mu.Lock() // the live view reads provider (describe)
	s.stream, s.provider = stream, sel.Provider
	s.mu.Unlock()
	s.diarizing = sel.Undiarized && s.household != nil
	ready := map[string]any{"type": "service_status", "status": "ready", "provider": sel.Provider}
	if r := sel.Reason(); r != "" {
		ready["reason"] = r
	}
	s.send(ready)
	return nil
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
		s.send(map[string]any{"type": "last_memory", "memory_id": cs[0].ID})
	}
}

// read handles client messages until the socket ends.
func (s *session) read(ctx context.Context) {
	s.conn.SetReadLimit(1 << 20)
	for {
		kind, data, err := s.conn.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				s.setClose(websocket.CloseNormalClosure, "")
			}
			return
		}
		s.lastClient.Store(s.now().UnixNano())
		switch kind {
		case websocket.BinaryMessage:
			if len(data) <= heartbeatMax {
				continue // a keep-alive
			}
			s.audio(data)
		case websocket.TextMessage:
			s.message(ctx, data)
		}
		select {
		case <-s.done:
			return
		default:
		}
	}
}

// audio decodes one frame and feeds the route. An undecodable frame is
// skipped and counted.
func (s *session) audio(frame []byte) {
	if s.dec == nil {
		return // custom STT: the app transcribes; audio only proves liveness
	}
	pcm, err := s.dec.Decode(nil, frame)
	if err != nil {
		s.badFrames.Add(1)
		return
	}
	s.spool.add(pcm)
	if s.ring != nil {
		s.ring.add(pcm)
	}
	if err := s.stream.Send(pcm); err != nil {
		// The pump reports the route's failure when its words channel closes.
		return
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

func (s *session) message(ctx context.Context, data []byte) {
	var m clientMessage
	if err := json.Unmarshal(data, &m); err != nil {
		s.badJSON.Add(1) // malformed JSON is ignored, as the reference does
		return
	}
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

// suggest queues a custom STT's segments, with its provider name on each.
// Unlike the reference, they are taken even before the first audio frame.
func (s *session) suggest(m clientMessage) {
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
	if s.stream == nil {
		return
	}
	for ws := range s.stream.Words() {
		s.mu.Lock()
		s.words = append(s.words, ws...)
		s.mu.Unlock()
		if n := len(ws); n > 0 {
			s.spool.confirm(ws[n-1].End)
		}
	}
	select {
	case <-s.done:
		return // the session ended first: a clean close
	default:
	}
	if err := s.stream.Err(); err != nil {
		s.routeFailed(err)
	}
}

// routeFailed tells the client the route is gone, keeps the audio it did
// not transcribe, and closes with 1011. The session never switches routes
// silently once audio has flowed.
func (s *session) routeFailed(err error) {
	e := stt.Classify(err, s.provider)
	s.srv.d.Logger.Warn("speech route failed mid-session", "user", s.user, "provider", s.provider, "err", err)
	s.mu.Lock()
	convID := ""
	if s.conv != nil {
		convID = s.conv.ID
	}
	s.mu.Unlock()
	if path, n := s.spool.save(s.srv.d.SpoolDir, convID, s.now()); n > 0 {
		s.srv.d.Logger.Info("kept audio the route did not transcribe", "conversation_id", convID, "path", path, "seconds", float64(n)/stt.SampleRate)
	}
	reason := e.Reason
	if reason == "" {
		reason = string(e.Outcome)
	}
	s.send(map[string]any{"type": "service_status", "status": "stt_failed", "outcome": string(e.Outcome),
		"provider": e.Provider, "retryable": e.Outcome.Retryable(), "reason": reason})
	s.end(websocket.CloseInternalServerErr, "stt_failed")
}

// tick flushes results, sends the heartbeat, and watches for inactivity
// and silence.
func (s *session) tick(ctx context.Context) {
	t := s.srv.d.Timing
	flush := time.NewTicker(t.Flush)
	beat := time.NewTicker(t.Heartbeat)
	defer flush.Stop()
	defer beat.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-ctx.Done():
			return
		case <-beat.C:
			s.sendRaw(websocket.TextMessage, []byte("ping"))
		case <-flush.C:
			if s.now().Sub(time.Unix(0, s.lastClient.Load())) >= t.Inactivity {
				s.end(websocket.CloseGoingAway, "inactivity")
				return
			}
			s.flush(ctx)
			s.checkSilence(ctx)
		}
	}
}

// flush turns pending words and suggestions into segments, appends them
// durably to the recording, and only then sends them.
func (s *session) flush(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.words) == 0 && len(s.suggested) == 0 {
		return
	}
	fresh := wordsToSegments(s.words, 0, s.provider)
	fresh = append(fresh, s.suggested...)
	s.words, s.suggested = nil, nil
	s.diarize(ctx, fresh)
	s.applyPeople(fresh)
	s.identify(ctx, fresh)
	if err := s.recordingLocked(ctx, s.streamStart.Add(time.Duration(fresh[0].Start*float64(time.Second)))); err != nil {
		s.srv.d.Logger.Error("start a recording", "user", s.user, "err", err)
		return
	}
	// Stream seconds become conversation seconds.
	shift := s.streamStart.Sub(*s.conv.StartedAt).Seconds()
	for i := range fresh {
		fresh[i].Start = max(fresh[i].Start+shift, 0)
		fresh[i].End = max(fresh[i].End+shift, fresh[i].Start)
	}
	out, absorbed := merge(s.tail, fresh)
	for i := range out {
		out[i].ID = appliance.NewID()
	}
	var replaces []string
	if absorbed != "" {
		replaces = []string{absorbed}
	}
	err := s.srv.d.Conversations.Append(ctx, s.user, s.conv.ID, out, replaces...)
	if appliance.ErrorCode(err) == appliance.ECONFLICT || appliance.ErrorCode(err) == appliance.ENOTFOUND {
		// The recording ended under us (POST /v1/conversations): these
		// segments begin the next one.
		conv, serr := s.srv.d.Conversations.Start(ctx, s.recording(s.now()))
		if serr != nil {
			s.srv.d.Logger.Error("start a recording", "user", s.user, "err", serr)
			return
		}
		s.conv, s.convEnded, s.tail = conv, false, nil
		out, _ = merge(nil, fresh)
		for i := range out {
			out[i].ID = appliance.NewID()
		}
		absorbed = ""
		err = s.srv.d.Conversations.Append(ctx, s.user, s.conv.ID, out)
	}
	if err != nil {
		s.srv.d.Logger.Error("append segments", "user", s.user, "conversation_id", s.conv.ID, "err", err)
		return
	}
	if len(out) == 0 {
		return
	}
	last := out[len(out)-1]
	s.tail = &last
	if s.lastSeg == nil {
		s.lastSeg = map[int]string{}
	}
	for _, seg := range out {
		s.lastSeg[seg.SpeakerID] = seg.ID
	}
	s.lastSpeech = s.now()
	s.send(out)
	s.introductions(ctx, out)
	if absorbed != "" {
		s.send(map[string]any{"type": "segments_deleted", "segment_ids": []string{absorbed}})
	}
	s.queueTranslation(s.conv.ID, out)
}

// recordingLocked makes sure there is an open recording, starting one at
// started when there is none or the last one has ended. Called with s.mu
// held.
func (s *session) recordingLocked(ctx context.Context, started time.Time) error {
	if s.conv != nil && !s.convEnded {
		return nil
	}
	conv, err := s.srv.d.Conversations.Start(ctx, s.recording(started))
	if err != nil {
		return err
	}
	s.conv, s.convEnded, s.tail = conv, false, nil
	return nil
}

// checkSilence finishes the recording once the session's own
// conversation_timeout has passed without speech.
func (s *session) checkSilence(ctx context.Context) {
	s.mu.Lock()
	if s.conv == nil || s.convEnded || s.finishing || s.tail == nil || s.now().Sub(s.lastSpeech) < s.p.ConversationTimeout {
		s.mu.Unlock()
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
func (s *session) follow(ctx context.Context, sub appliance.Subscription) {
	for {
		select {
		case <-s.done:
			return
		case <-ctx.Done():
			return
		case e, ok := <-sub.C():
			if !ok {
				return
			}
			s.mu.Lock()
			mine := s.conv != nil && e.ConversationID == s.conv.ID
			var snapshot *appliance.Conversation
			if mine {
				c := *s.conv
				snapshot = &c
				if e.Type == appliance.EventProcessingStarted {
					s.convEnded = true
				}
			}
			s.mu.Unlock()
			if !mine {
				continue
			}
			switch e.Type {
			case appliance.EventProcessingStarted:
				snapshot.Status = appliance.StatusProcessing
				s.send(map[string]any{"type": "memory_processing_started", "memory": snapshot, "messages": []any{}})
			case appliance.EventConversationProcessed:
				s.send(map[string]any{"type": "memory_created", "memory": e.Conversation, "messages": []any{}})
			}
		}
	}
}

// send queues v as JSON; a client too slow to take outBuffer messages is
// dropped rather than allowed to hold memory.
func (s *session) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.srv.d.Logger.Error("encode a listen message", "err", err)
		return
	}
	s.sendRaw(websocket.TextMessage, b)
}

func (s *session) sendRaw(kind int, data []byte) {
	select {
	case <-s.done:
	case s.out <- outMsg{kind: kind, data: data}:
	default:
		s.end(websocket.CloseGoingAway, "client too slow")
	}
}

// writer is the one goroutine that writes to the socket.
func (s *session) writer() {
	for {
		select {
		case m := <-s.out:
			s.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := s.conn.WriteMessage(m.kind, m.data); err != nil {
				s.end(websocket.CloseGoingAway, "")
				return
			}
		case <-s.done:
			// Drain what was queued before the end (stt_failed precedes
			// 1011), then say goodbye.
			for {
				select {
				case m := <-s.out:
					s.conn.SetWriteDeadline(time.Now().Add(writeWait))
					if s.conn.WriteMessage(m.kind, m.data) != nil {
						return
					}
					continue
				default:
				}
				break
			}
			msg := websocket.FormatCloseMessage(s.closeCode, truncateReason(s.closeText))
			s.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			// Unblock the reader waiting for the client's close.
			s.conn.SetReadDeadline(time.Now().Add(time.Second))
			return
		}
	}
}

// end ends the session once with a close code and reason.
func (s *session) end(code int, reason string) {
	s.endOnce.Do(func() {
		s.closeCode, s.closeText = code, reason
		close(s.done)
	})
}

func (s *session) setClose(code int, reason string) { s.end(code, reason) }

// fail ends a session that could not open.
func (s *session) fail(err error) {
	var ce *closeErr
	if errors.As(err, &ce) {
		s.end(ce.code, ce.reason)
		return
	}
	var se *stt.Error
	if errors.As(err, &se) {
		if errors.Is(err, stt.ErrNoRoute) {
			s.end(websocket.ClosePolicyViolation, "The language is not supported, "+s.p.Language)
			return
		}
		s.send(map[string]any{"type": "service_status", "status": "stt_failed", "outcome": string(se.Outcome),
			"provider": se.Provider, "retryable": se.Outcome.Retryable(), "reason": orDefault(se.Reason, string(se.Outcome))})
		s.end(websocket.CloseInternalServerErr, "stt_failed")
		return
	}
	s.srv.d.Logger.Error("open a listen session", "user", s.user, "err", err)
	s.end(websocket.CloseInternalServerErr, "internal error")
}

func (s *session) closeStream() {
	if s.stream != nil {
		s.stream.Close()
	}
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
