package deepgram

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// sendQueue bounds the audio waiting to go out (20 ms messages: 10 s).
const sendQueue = 500

// Open implements stt.StreamingProvider: a live /v1/listen socket.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	u := strings.Replace(strings.Replace(r.cfg.BaseURL, "https://", "wss://", 1), "http://", "ws://", 1) +
		"/v1/listen?" + query(cfg.Language, cfg.Diarize, true).Encode()
	dialer := websocket.Dialer{HandshakeTimeout: 15 * time.Second}
	conn, resp, err := dialer.DialContext(ctx, u, http.Header{"Authorization": {"Token " + r.cfg.APIKey}})
	if err != nil {
		if resp != nil {
			return nil, statusError(resp.StatusCode)
		}
		return nil, transportError(ctx, err)
	}
	s := &stream{conn: conn, out: make(chan []byte, sendQueue), words: make(chan []stt.Word, 32),
		done: make(chan struct{}), keepAlive: r.cfg.KeepAlive}
	s.wg.Add(2)
	go s.write()
	go s.read()
	return s, nil
}

type stream struct {
	conn      *websocket.Conn
	out       chan []byte // binary audio; nil marks CloseStream
	words     chan []stt.Word
	done      chan struct{} // the socket is finished
	keepAlive time.Duration
	wg        sync.WaitGroup

	mu  sync.Mutex
	err error
	// writeErr is a failed send; Err reports it when the reader saw none.
	writeErr  error
	closing   bool // CloseStream was sent: the server's close is expected
	closed    bool
	closeOnce sync.Once
}

func (s *stream) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// Send implements stt.Stream: it queues, never waits on the network.
func (s *stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("deepgram: stream closed")
	}
	if s.err != nil {
		return s.err
	}
	if s.writeErr != nil {
		return s.writeErr
	}
	b := make([]byte, 2*len(pcm))
	for i, v := range pcm {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	select {
	case s.out <- b:
		return nil
	default:
		s.err = &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "overloaded", Err: errors.New("deepgram: audio queued faster than it is sent")}
		return s.err
	}
}

// write sends audio, a KeepAlive when idle, and CloseStream at the end.
func (s *stream) write() {
	defer s.wg.Done()
	tick := time.NewTicker(s.keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
			if err := s.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"KeepAlive"}`)); err != nil {
				return
			}
		case b, ok := <-s.out:
			if !ok {
				s.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"CloseStream"}`))
				return
			}
			if err := s.conn.WriteMessage(websocket.BinaryMessage, b); err != nil {
				// Not s.fail: a vendor that refuses the audio closes the
				// socket after saying why, and the reader's reason wins.
				s.mu.Lock()
				s.writeErr = &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err}
				s.mu.Unlock()
				return
			}
		}
	}
}

// result is the part of Deepgram's messages the route reads.
type result struct {
	Type    string `json:"type"`
	IsFinal bool   `json:"is_final"`
	Channel struct {
		Alternatives []struct {
			Words []dgWord `json:"words"`
		} `json:"alternatives"`
	} `json:"channel"`
	Description string `json:"description"`
}

// read delivers final results until the socket ends; an end the route did
// not ask for is a failure.
func (s *stream) read() {
	defer s.wg.Done()
	defer close(s.words)
	defer s.closeOnce.Do(func() { close(s.done) })
	for {
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			s.mu.Lock()
			expected := s.closing
			s.mu.Unlock()
			var ce *websocket.CloseError
			if errors.As(err, &ce) && ce.Code == websocket.CloseNormalClosure && expected {
				return
			}
			switch {
			case errors.As(err, &ce) && ce.Code == websocket.ClosePolicyViolation:
				// Deepgram closes 1008 (DATA-0000) when it cannot decode the audio.
				s.fail(&stt.Error{Outcome: stt.InvalidInput, Provider: Name, Reason: "audio_rejected", Err: err})
			case !expected:
				s.fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err})
			}
			return
		}
		var m result
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Type {
		case "Results":
			if !m.IsFinal || len(m.Channel.Alternatives) == 0 {
				continue
			}
			var ws []stt.Word
			for _, w := range m.Channel.Alternatives[0].Words {
				ws = append(ws, w.word())
			}
			if len(ws) > 0 {
				s.words <- ws
			}
		case "Error":
			s.fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "upstream_error", Err: errors.New("deepgram: " + m.Description)})
		}
	}
}

func (s *stream) Words() <-chan []stt.Word { return s.words }

func (s *stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	return s.writeErr
}

// Close sends CloseStream, so that Deepgram finalises what it holds, and
// lets the reader finish with the server's close (at most 10 s).
func (s *stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed, s.closing = true, true
	close(s.out)
	s.mu.Unlock()
	go func() {
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.conn.Close()
		}
		s.wg.Wait()
		s.conn.Close()
	}()
	return nil
}
