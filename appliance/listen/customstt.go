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
// sends CloseStream, goes quiet for 90 s, or the route fails (1011).
func (s *Server) ServeCustomSTT(w http.ResponseWriter, r *http.Request, user string, p CustomSTTParams) {
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	c := &customSTT{srv: s, conn: conn, user: user, p: p, done: make(chan struct{})}
	c.run(r.Context())
}

type customSTT struct {
	srv    *Server
	conn   *websocket.Conn
	user   string
	p      CustomSTTParams
	dec    audio.Decoder
	stream stt.Stream
	name   string

	writeMu    sync.Mutex
	deadlineMu sync.Mutex
	stopped    bool // the appliance is shutting down: no more read time
	mu         sync.Mutex
	words      []stt.Word
	done       chan struct{}
	once       sync.Once
}

func (c *customSTT) run(ctx context.Context) {
	defer c.conn.Close()
	dec, err := audio.NewDecoder(audio.Format{Codec: c.p.Codec, SampleRate: c.p.SampleRate, Channels: c.p.Channels})
	if err != nil {
		c.close(websocket.ClosePolicyViolation, fmt.Sprintf("codec %s: %v", c.p.Codec, errors.Unwrap(err)))
		return
	}
	c.dec = dec
	defer dec.Close()
	if c.srv.d.Router == nil || !c.srv.d.Router.Serves(c.p.Language, 1) {
		c.close(websocket.ClosePolicyViolation, "The language is not supported, "+c.p.Language)
		return
	}
	stream, sel, err := c.srv.d.Router.Open(ctx, stt.Config{Language: c.p.Language, Channels: 1, Diarize: true})
	if err != nil {
		e := stt.Classify(err, "")
		c.close(websocket.CloseInternalServerErr, "stt_failed: "+string(e.Outcome))
		return
	}
	c.stream, c.name = stream, sel.Provider

	pumped := make(chan struct{})
	go func() { defer close(pumped); c.pump() }()
	flushes := make(chan struct{})
	go func() { defer close(flushes); c.flushEvery(c.srv.d.Timing.Flush) }()

	// The appliance shutting down ends the connection: unblock the read.
	stop := context.AfterFunc(ctx, func() {
		c.deadlineMu.Lock()
		c.stopped = true
		c.conn.SetReadDeadline(time.Now())
		c.deadlineMu.Unlock()
	})
	defer stop()
	code, reason := c.read()
	if ctx.Err() != nil {
		code, reason = websocket.CloseGoingAway, "server shutting down"
	}
	c.stream.Close() // flush what the route holds
	select {
	case <-pumped:
	case <-time.After(10 * time.Second):
	}
	c.once.Do(func() { close(c.done) })
	<-flushes
	c.flush()
	if err := c.stream.Err(); err != nil && code == websocket.CloseNormalClosure {
		e := stt.Classify(err, c.name)
		code, reason = websocket.CloseInternalServerErr, "stt_failed: "+string(e.Outcome)
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
			pcm, err := c.dec.Decode(nil, data)
			if err != nil {
				continue // an undecodable frame is skipped
			}
			if c.stream.Send(pcm) != nil {
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

func (c *customSTT) pump() {
	for ws := range c.stream.Words() {
		c.mu.Lock()
		c.words = append(c.words, ws...)
		c.mu.Unlock()
	}
}

func (c *customSTT) flushEvery(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			c.flush()
		}
	}
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
	c.mu.Lock()
	words := c.words
	c.words = nil
	c.mu.Unlock()
	if len(words) == 0 {
		return
	}
	segs := wordsToSegments(words, 0, "")
	out := make([]customSegment, len(segs))
	for i, s := range segs {
		out[i] = customSegment{Text: s.Text, Speaker: s.Speaker, Start: s.Start, End: s.End}
	}
	b, _ := json.Marshal(map[string]any{"segments": out})
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
