// Package wsstream is the queued WebSocket stream the socket vendors
// share: Send queues audio and never waits on the network, one writer
// goroutine sends it (and a keep-alive when idle), the vendor's reader
// turns messages into words, the first failure wins, and Close ends the
// audio with the vendor's last message, lets the vendor flush what it
// holds, and closes the socket.
package wsstream

import (
	"encoding/binary"
	"errors"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// queue bounds the audio waiting to go out (20 ms messages: 10 s).
const queue = 500

// flushWait is how long Close lets the vendor send what it still holds.
const flushWait = 10 * time.Second

// Options is what differs between the vendors.
type Options struct {
	// Provider names the route in errors ("soniox: stream closed").
	Provider string
	// End sends the message that ends the audio; sent is the number of
	// audio messages that went out.
	End func(conn *websocket.Conn, sent int) error
	// Read reads the vendor's messages until the session ends, handing
	// words to s.Emit and failures to s.Fail. The stream's words end
	// when it returns.
	Read func(conn *websocket.Conn, s *Stream)
	// KeepAlive, when set, is a text message sent every KeepAliveEvery.
	KeepAlive      []byte
	KeepAliveEvery time.Duration
}

// Stream is an stt.Stream over an open socket.
type Stream struct {
	conn  *websocket.Conn
	opts  Options
	out   chan []byte
	words chan []stt.Word
	done  chan struct{} // the reader is finished
	wg    sync.WaitGroup

	mu  sync.Mutex
	err error
	// writeErr is a failed send; Err reports it when the reader saw none.
	writeErr error
	closed   bool
}

// Start runs the writer and the vendor's reader on conn, which has
// already been through the vendor's handshake.
func Start(conn *websocket.Conn, opts Options) *Stream {
	s := &Stream{conn: conn, opts: opts, out: make(chan []byte, queue), words: make(chan []stt.Word, 32),
		done: make(chan struct{})}
	s.wg.Add(2)
	go s.write()
	go func() {
		defer s.wg.Done()
		defer close(s.words)
		defer close(s.done)
		opts.Read(conn, s)
	}()
	return s
}

// Fail records err unless an earlier failure is already recorded.
func (s *Stream) Fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// Emit hands words to the stream's reader.
func (s *Stream) Emit(ws []stt.Word) { s.words <- ws }

// Closing reports whether Close has ended the audio, so that the
// vendor's close of the socket is expected.
func (s *Stream) Closing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Send implements stt.Stream: it queues, never waits on the network.
func (s *Stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New(s.opts.Provider + ": stream closed")
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
		s.err = &stt.Error{Outcome: stt.Timeout, Provider: s.opts.Provider, Reason: "overloaded",
			Err: errors.New(s.opts.Provider + ": audio queued faster than it is sent")}
		return s.err
	}
}

// write sends the audio, a keep-alive when idle, and the end message.
func (s *Stream) write() {
	defer s.wg.Done()
	var tick <-chan time.Time
	if s.opts.KeepAlive != nil && s.opts.KeepAliveEvery > 0 {
		t := time.NewTicker(s.opts.KeepAliveEvery)
		defer t.Stop()
		tick = t.C
	}
	sent := 0
	for {
		select {
		case <-s.done:
			return
		case <-tick:
			if err := s.conn.WriteMessage(websocket.TextMessage, s.opts.KeepAlive); err != nil {
				return
			}
		case b, ok := <-s.out:
			if !ok {
				s.opts.End(s.conn, sent)
				return
			}
			if err := s.conn.WriteMessage(websocket.BinaryMessage, b); err != nil {
				// Not s.Fail: a vendor that refuses the audio closes the
				// socket after saying why, and the reader's reason wins.
				s.mu.Lock()
				s.writeErr = &stt.Error{Outcome: stt.UpstreamError, Provider: s.opts.Provider, Reason: "connection_lost", Err: err}
				s.mu.Unlock()
				return
			}
			sent++
		}
	}
}

// Words implements stt.Stream.
func (s *Stream) Words() <-chan []stt.Word { return s.words }

// Err implements stt.Stream: the reader's failure, else a failed send.
func (s *Stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	return s.writeErr
}

// Close implements stt.Stream: it ends the audio and lets the reader
// finish with what the vendor still holds (at most flushWait) before the
// socket is closed.
func (s *Stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.out)
	s.mu.Unlock()
	go func() {
		select {
		case <-s.done:
		case <-time.After(flushWait):
		}
		s.conn.Close()
		s.wg.Wait()
	}()
	return nil
}
