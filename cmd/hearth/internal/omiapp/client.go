package omiapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Options are what the app puts on the socket: the query string's values,
// in the app's order, and its timings. Zero values take the app's
// defaults.
type Options struct {
	Language   string // default "en"
	Codec      string // default "opus_fs320"
	SampleRate int    // default 16000 (8000 for pcm8)
	UID        string
	// Token is the owner's ID token, sent as "Authorization: Bearer".
	Token string
	// NoSpeechProfile sends include_speech_profile=false (the app sends
	// true when the user has a profile).
	NoSpeechProfile bool
	STTService      string // default "soniox"
	// ConversationTimeout is in seconds; default 120.
	ConversationTimeout int
	Source              string
	CustomSTT           bool
	Onboarding          bool
	CreateSpeakers      bool
	// PingEvery is the interval of WebSocket ping frames; default 20 s.
	PingEvery time.Duration
	// DialTimeout bounds the upgrade; default 15 s, as the app.
	DialTimeout time.Duration
	// DeleteSegments removes segments named by a segments_deleted event,
	// as newer app versions do. Off by default: the app this package
	// follows has no handler for that event.
	DeleteSegments bool
}

func (o Options) withDefaults() Options {
	if o.Language == "" {
		o.Language = "en"
	}
	if o.Codec == "" {
		o.Codec = "opus_fs320"
	}
	if o.SampleRate == 0 {
		o.SampleRate = 16000
		if o.Codec == "pcm8" {
			o.SampleRate = 8000
		}
	}
	if o.STTService == "" {
		o.STTService = "soniox"
	}
	if o.ConversationTimeout == 0 {
		o.ConversationTimeout = 120
	}
	if o.PingEvery == 0 {
		o.PingEvery = 20 * time.Second
	}
	if o.DialTimeout == 0 {
		o.DialTimeout = 15 * time.Second
	}
	return o
}

// Query is the app's query string, in its order.
func (o Options) Query() string {
	o = o.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "language=%s&sample_rate=%d&codec=%s&uid=%s&include_speech_profile=%t&stt_service=%s&conversation_timeout=%d",
		o.Language, o.SampleRate, o.Codec, o.UID, !o.NoSpeechProfile, o.STTService, o.ConversationTimeout)
	if o.Source != "" {
		b.WriteString("&source=" + url.QueryEscape(o.Source))
	}
	if o.CustomSTT {
		b.WriteString("&custom_stt=enabled")
	}
	if o.Onboarding {
		b.WriteString("&onboarding=enabled")
	}
	b.WriteString("&speaker_auto_assign=enabled&create_speakers=" + strconv.FormatBool(o.CreateSpeakers))
	return b.String()
}

// KeepAlive is what the app sends in answer to the server's text "ping":
// two bytes as a binary data message, not a pong frame.
var KeepAlive = []byte{0x8A, 0x00}

// Client is one app socket on /v4/listen.
type Client struct {
	opts Options
	conn *websocket.Conn
	wmu  sync.Mutex // one writer of data messages at a time

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced on every change
	messages   []Message
	recordings []Transcript // the last one is the recording on screen
	closed     bool
	closeCode  int
	closeText  string
	readErr    error
	sent       Sent

	done chan struct{} // closed when the reader has ended
	stop chan struct{} // ends the pinger
}

// Sent counts what the client sent.
type Sent struct {
	AudioFrames int
	AudioBytes  int
	KeepAlives  int
	Pings       int
	JSON        []string
}

// Dial opens the socket as the app does: base is the appliance's http://
// or https:// address.
func Dial(ctx context.Context, base string, opts Options) (*Client, error) {
	opts = opts.withDefaults()
	u := base
	switch {
	case strings.HasPrefix(u, "http://"):
		u = "ws://" + strings.TrimPrefix(u, "http://")
	case strings.HasPrefix(u, "https://"):
		u = "wss://" + strings.TrimPrefix(u, "https://")
	}
	u = strings.TrimSuffix(u, "/") + "/v4/listen?" + opts.Query()
	h := http.Header{}
	if opts.Token != "" {
		h.Set("Authorization", "Bearer "+opts.Token)
	}
	d := websocket.Dialer{HandshakeTimeout: opts.DialTimeout}
	conn, resp, err := d.DialContext(ctx, u, h)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("dial %s: %w (HTTP %d)", u, err, resp.StatusCode)
		}
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	c := &Client{opts: opts, conn: conn, changed: make(chan struct{}), recordings: []Transcript{{}},
		done: make(chan struct{}), stop: make(chan struct{})}
	go c.read()
	go c.ping()
	return c, nil
}

func (c *Client) read() {
	defer close(c.done)
	for {
		kind, data, err := c.conn.ReadMessage()
		now := time.Now()
		if err != nil {
			c.mu.Lock()
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				c.closeCode, c.closeText = ce.Code, ce.Text
			} else {
				c.closeCode = websocket.CloseAbnormalClosure
				c.readErr = err
			}
			c.closed = true
			c.notifyLocked()
			c.mu.Unlock()
			return
		}
		var m Message
		if kind == websocket.BinaryMessage {
			m = Message{Kind: KindBinary, Raw: data, At: now}
		} else {
			m = parseMessage(data, now)
		}
		if m.Kind == KindPing {
			c.writeData(websocket.BinaryMessage, KeepAlive, func(s *Sent) { s.KeepAlives++ })
		}
		c.mu.Lock()
		c.apply(m)
		c.messages = append(c.messages, m)
		c.notifyLocked()
		c.mu.Unlock()
	}
}

// apply does what the app does with a message. Called with c.mu held.
func (c *Client) apply(m Message) {
	cur := &c.recordings[len(c.recordings)-1]
	switch m.Kind {
	case KindSegments:
		if m.Err == nil {
			cur.Receive(m.Segments)
		}
	case "translating":
		cur.Translate(m.Segments)
	case "memory_processing_started":
		// The app starts over: the next segments are a new recording.
		c.recordings = append(c.recordings, Transcript{})
	case "segments_deleted":
		if c.opts.DeleteSegments {
			cur.Delete(m.segmentIDs())
		}
	}
}

func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// ping sends a WebSocket ping frame every PingEvery, as the app's socket
// does.
func (c *Client) ping() {
	t := time.NewTicker(c.opts.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.done:
			return
		case <-t.C:
			if c.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(5*time.Second)) == nil {
				c.mu.Lock()
				c.sent.Pings++
				c.mu.Unlock()
			}
		}
	}
}

func (c *Client) writeData(kind int, data []byte, count func(*Sent)) error {
	c.wmu.Lock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	err := c.conn.WriteMessage(kind, data)
	c.wmu.Unlock()
	if err == nil && count != nil {
		c.mu.Lock()
		count(&c.sent)
		c.mu.Unlock()
	}
	return err
}

// SendAudio sends one codec frame as one binary message.
func (c *Client) SendAudio(frame []byte) error {
	return c.writeData(websocket.BinaryMessage, frame, func(s *Sent) { s.AudioFrames++; s.AudioBytes += len(frame) })
}

// SendJSON sends v as one text message (suggested_transcript,
// speaker_assigned, image_chunk ...).
func (c *Client) SendJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.writeData(websocket.TextMessage, b, func(s *Sent) { s.JSON = append(s.JSON, string(b)) })
}

// Stream sends frames of frameDur each at speed× real time, as a wearable
// relayed by the app does. It stops early when ctx ends or a write fails.
func (c *Client) Stream(ctx context.Context, frames [][]byte, frameDur time.Duration, speed float64) error {
	if speed <= 0 {
		speed = 1
	}
	step := time.Duration(float64(frameDur) / speed)
	next := time.Now()
	for _, f := range frames {
		if err := c.SendAudio(f); err != nil {
			return err
		}
		next = next.Add(step)
		if d := time.Until(next); d > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
		}
	}
	return nil
}

// Close ends the session as the app does when recording stops: a close
// frame with 1000, then it waits up to wait for the server's close.
func (c *Client) Close(wait time.Duration) error {
	err := c.conn.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(5*time.Second))
	select {
	case <-c.done:
	case <-time.After(wait):
	}
	c.Abort()
	return err
}

// Abort drops the connection without a close frame.
func (c *Client) Abort() {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	c.conn.Close()
}

// Done is closed when the socket has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// State is what the client has seen so far.
type State struct {
	Messages []Message
	// Recordings are the app's transcripts, one per recording: a
	// memory_processing_started event starts the next one. The last is on
	// screen.
	Recordings [][]Segment
	Closed     bool
	CloseCode  int
	CloseText  string
	ReadErr    error
	Sent       Sent
}

// View is the transcript on screen.
func (s State) View() []Segment { return s.Recordings[len(s.Recordings)-1] }

// Events are the messages of a kind, in order.
func (s State) Events(kind string) []Message {
	var out []Message
	for _, m := range s.Messages {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// Unknown are the events the app has no handler for.
func (s State) Unknown() []Message {
	var out []Message
	for _, m := range s.Messages {
		if m.Unknown {
			out = append(out, m)
		}
	}
	return out
}

// ReceivedSegments are every segment the server sent, in order, as sent.
func (s State) ReceivedSegments() []Segment {
	var out []Segment
	for _, m := range s.Messages {
		if m.Kind == KindSegments {
			out = append(out, m.Segments...)
		}
	}
	return out
}

// State is a copy of what the client has seen.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stateLocked()
}

func (c *Client) stateLocked() State {
	st := State{Messages: append([]Message(nil), c.messages...), Closed: c.closed, CloseCode: c.closeCode,
		CloseText: c.closeText, ReadErr: c.readErr, Sent: c.sent}
	st.Sent.JSON = append([]string(nil), c.sent.JSON...)
	for _, r := range c.recordings {
		st.Recordings = append(st.Recordings, r.Clone())
	}
	return st
}

// Wait blocks until ok holds for the client's state, ctx ends (an error
// that says what was awaited), or the socket closes without ok holding.
func (c *Client) Wait(ctx context.Context, what string, ok func(State) bool) (State, error) {
	for {
		c.mu.Lock()
		st := c.stateLocked()
		ch := c.changed
		c.mu.Unlock()
		if ok(st) {
			return st, nil
		}
		if st.Closed {
			return st, fmt.Errorf("socket closed (%d %q) before %s", st.CloseCode, st.CloseText, what)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return st, fmt.Errorf("no %s: %w", what, ctx.Err())
		}
	}
}

// WaitClosed blocks until the socket has ended or ctx ends.
func (c *Client) WaitClosed(ctx context.Context) (State, error) {
	select {
	case <-c.done:
		return c.State(), nil
	case <-ctx.Done():
		return c.State(), fmt.Errorf("socket still open: %w", ctx.Err())
	}
}
