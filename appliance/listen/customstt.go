package listen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/punctuate"
)

// The appliance as an external custom-STT service: a phone app whose
// custom-STT setting points here streams audio in (binary frames, Opus at
// 16 kHz by default), ends with {"type":"CloseStream"}, and gets
// {"segments":[{text, speaker, start, end}]} back from the appliance's own
// speech routes; the app relays them to /v4/listen as suggested
// transcripts. The audio never leaves the house.

// CustomSTTParams are the query of a custom-STT connection.
type CustomSTTParams struct {
	Codec      string // default opus
	SampleRate int    // default 16000
	Channels   int    // default 1
	Language   string // default en
}

// ParseCustomSTTParams reads and checks the query.
func ParseCustomSTTParams(q url.Values) (CustomSTTParams, error) {
	p := CustomSTTParams{Codec: audio.Opus, SampleRate: 16000, Channels: 1, Language: "en"}
	if v := strings.TrimSpace(q.Get("codec")); v != "" {
		p.Codec = strings.ToLower(v)
	}
	known := false
	for _, c := range audio.Codecs {
		known = known || c == p.Codec
	}
	if !known {
		return p, refuse("Invalid codec %q (one of %s)", p.Codec, strings.Join(audio.Codecs, ", "))
	}
	if v := strings.TrimSpace(q.Get("language")); v != "" {
		p.Language = strings.ToLower(v)
	}
	var err error
	if p.SampleRate, err = intParam(q, "sample_rate", p.SampleRate); err != nil {
		return p, err
	}
	if p.Channels, err = intParam(q, "channels", p.Channels); err != nil {
		return p, err
	}
	if p.SampleRate < 4000 || p.SampleRate > 192000 || p.Channels < 1 || p.Channels > 2 {
		return p, refuse("Invalid sample_rate %d or channels %d", p.SampleRate, p.Channels)
	}
	return p, nil
}

// ServeCustomSTT runs one custom-STT connection for user until the client
// sends CloseStream, goes quiet for 90 s, or the route fails (1011). It
// counts among the live sessions: the owner sees it, and a shutdown
// hears it out and closes it like the others.
func (s *Server) ServeCustomSTT(w http.ResponseWriter, r *http.Request, user string, p CustomSTTParams) {
	// The user's stream cap counts this connection too, for as long as it
	// lasts (its client ends it after each recording).
	sl, err := s.slots.take(r.Context(), user)
	if ce := (*closeErr)(nil); errors.As(err, &ce) {
		s.Refuse(w, r, ce.code, ce.reason)
		return
	}
	defer sl.release()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &customSTT{srv: s, conn: conn, user: user, p: p, slot: sl, opened: s.d.Now(), done: make(chan struct{})}
	s.track(c, func() { c.run(r.Context()) })
}

type customSTT struct {
	srv    *Server
	conn   *websocket.Conn
	user   string
	slot   *slot
	p      CustomSTTParams
	opened time.Time
	audio  *frames
	name   string

	writeMu    sync.Mutex
	deadlineMu sync.Mutex
	stopCode   int // set by stop: the appliance ends the connection
	stopReason string
	stopped    bool
	done       chan struct{}
	once       sync.Once
}

func (c *customSTT) owner() string { return c.user }

func (c *customSTT) describe() Active {
	return Active{StartedAt: c.opened, Route: "custom_stt_service", Codec: c.p.Codec, SampleRate: c.p.SampleRate, Language: c.p.Language}
}

// stop ends reading; run then hears out the route and closes with code.
func (c *customSTT) stop(code int, reason string) {
	c.deadlineMu.Lock()
	defer c.deadlineMu.Unlock()
	if c.stopped {
		return
	}
	c.stopped, c.stopCode, c.stopReason = true, code, reason
	c.conn.SetReadDeadline(time.Now())
}

// abandon closes now with the code stop set (a shutdown's time is up).
// Nothing is kept: the connection files no conversation here, and the Omi
// app streams the same audio to its cloud socket as well.
func (c *customSTT) abandon() {
	c.deadlineMu.Lock()
	code, reason := c.stopCode, c.stopReason
	c.deadlineMu.Unlock()
	if code == 0 {
		code, reason = websocket.CloseGoingAway, "server shutting down"
	}
	c.close(code, reason)
	c.conn.Close()
}

func (c *customSTT) run(ctx context.Context) {
	defer c.conn.Close()
	dec, err := audio.NewDecoder(audio.Format{Codec: c.p.Codec, SampleRate: c.p.SampleRate, Channels: c.p.Channels})
	if err != nil {
		c.close(websocket.ClosePolicyViolation, fmt.Sprintf("codec %s: %v", c.p.Codec, errors.Unwrap(err)))
		return
	}
	defer dec.Close()
	router := c.srv.d.Router.Pin() // the routes in place now, for the check and the open alike
	if router == nil || !router.Serves(c.p.Language, 1) {
		c.close(websocket.ClosePolicyViolation, "The language is not supported, "+c.p.Language)
		return
	}
	stream, sel, err := router.Open(ctx, stt.Config{Language: c.p.Language, Channels: 1, Diarize: true})
	if err != nil {
		e := stt.Classify(err, "")
		c.close(websocket.CloseInternalServerErr, customSTTFailedReason(e))
		return
	}
	if err := c.slot.place(sel.Provider); err != nil {
		discard(stream)
		c.close(err.(*closeErr).code, err.(*closeErr).reason)
		return
	}
	c.audio, c.name = newFrames(dec, stream, nil, c.srv.d.Now), sel.Provider
	go c.audio.pump(punctuate.Punctuate)
	flushes := make(chan struct{})
	go func() { defer close(flushes); c.flushEvery(c.srv.d.Timing.Flush) }()

	// The request's context ending (the server closing) ends it too.
	stop := context.AfterFunc(ctx, func() { c.stop(websocket.CloseGoingAway, "server shutting down") })
	defer stop()
	code, reason := c.read()
	c.deadlineMu.Lock()
	if c.stopped && c.stopCode != 0 {
		code, reason = c.stopCode, c.stopReason
	}
	c.deadlineMu.Unlock()
	// Hear out what the route holds before the reply and the close.
	c.audio.close()
	select {
	case <-c.audio.pumpDone:
	case <-time.After(c.srv.d.Timing.Drain):
	}
	c.once.Do(func() { close(c.done) })
	<-flushes
	c.flush()
	if err := c.audio.stream.Err(); err != nil && code == websocket.CloseNormalClosure {
		e := stt.Classify(err, c.name)
		code, reason = websocket.CloseInternalServerErr, customSTTFailedReason(e)
		c.srv.d.Logger.Warn("custom-STT route failed", "user", c.user, "provider", c.name, "err", err)
	}
	c.close(code, reason)
}

// read takes audio until CloseStream, the client's close, 90 s of silence
// from the client, or a failed route.
func (c *customSTT) read() (int, string) {
	c.conn.SetReadLimit(1 << 20)
	for {
		c.deadlineMu.Lock()
		if !c.stopped {
			c.conn.SetReadDeadline(time.Now().Add(c.srv.d.Timing.Inactivity)) // 90 s, as the protocol says
		}
		c.deadlineMu.Unlock()
		kind, data, err := c.conn.ReadMessage()
		if err != nil {
			var ne interface{ Timeout() bool }
			if errors.As(err, &ne) && ne.Timeout() {
				return websocket.CloseGoingAway, "inactivity"
			}
			return websocket.CloseNormalClosure, ""
		}
		switch kind {
		case websocket.BinaryMessage:
			if len(data) <= heartbeatMax {
				continue
			}
			c.audio.feed(data)
			if c.audio.stream.Err() != nil {
				return websocket.CloseNormalClosure, "" // run reports the route's failure
			}
		case websocket.TextMessage:
			var m struct{ Type string }
			if json.Unmarshal(data, &m) == nil && m.Type == "CloseStream" {
				return websocket.CloseNormalClosure, ""
			}
		}
	}
}

// flushEvery sends what was heard every d, and ends an utterance whose
// audio stopped arriving.
func (c *customSTT) flushEvery(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			if c.audio.stalled(c.srv.d.Timing.AudioGap) {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), c.srv.d.Timing.Drain)
					defer cancel()
					if c.audio.drain(ctx, c.srv.d.Timing.Drain) == nil {
						c.flush()
					}
				}()
			}
			c.flush()
		}
	}
}

// customReply is the external protocol's reply: an object with segments
// and no type.
type customReply struct {
	Segments []customSegment `json:"segments"`
}

// customSegment is one segment of the external protocol's reply.
type customSegment struct {
	Text    string  `json:"text"`
	Speaker string  `json:"speaker"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
}

// flush sends the words heard since the last flush as segments; the reply
// is an object with a segments key and no type, as the protocol requires.
func (c *customSTT) flush() {
	words := c.audio.take()
	if len(words) == 0 {
		return
	}
	segs := wordsToSegments(words, 0, "")
	out := make([]customSegment, len(segs))
	for i, s := range segs {
		out[i] = customSegment{Text: s.Text, Speaker: s.Speaker, Start: s.Start, End: s.End}
	}
	b, _ := json.Marshal(customReply{Segments: out})
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(writeWait))
	c.conn.WriteMessage(websocket.TextMessage, b)
}

func (c *customSTT) close(code int, reason string) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, truncateReason(reason)), time.Now().Add(time.Second))
}
