package listen

import (
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/gorilla/websocket"
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
	kind int // websocket.TextMessage
	data []byte
}

// socket is a client's WebSocket as a session uses it: one reader (the
// session's run), one writer goroutine, and a close in two steps. stop
// ends reading (the first stop's code and reason are the ones the client
// gets); finish, called once the session has said everything, lets the
// writer send what is queued and then the close frame.
type socket struct {
	conn *websocket.Conn
	log  *slog.Logger
	out  chan outMsg

	stopped  chan struct{}
	stopOnce sync.Once
	code     int // set once, before stopped closes
	reason   string

	done     chan struct{}
	doneOnce sync.Once
}

func newSocket(conn *websocket.Conn, log *slog.Logger) *socket {
	return &socket{conn: conn, log: log, out: make(chan outMsg, outBuffer), stopped: make(chan struct{}),
		done: make(chan struct{}), code: websocket.CloseNormalClosure}
}

// stop ends reading with code and reason; later stops change nothing.
func (k *socket) stop(code int, reason string) {
	k.stopOnce.Do(func() {
		k.code, k.reason = code, reason
		close(k.stopped)
		// Unblock the reader; the writer goes on until finish.
		k.conn.SetReadDeadline(time.Now())
	})
}

// isStopped reports whether reading has ended.
func (k *socket) isStopped() bool {
	select {
	case <-k.stopped:
		return true
	default:
		return false
	}
}

// finish lets the writer send what is queued, then the close frame.
func (k *socket) finish() { k.doneOnce.Do(func() { close(k.done) }) }

// abort sends the close frame now, whatever is still queued, and closes
// the connection. gorilla/websocket allows WriteControl and Close beside
// the writer's writes.
func (k *socket) abort(code int, reason string) {
	k.stop(code, reason)
	code, reason = k.closeCode()
	msg := websocket.FormatCloseMessage(code, truncateReason(reason))
	k.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	k.conn.Close()
}

// closeCode is the code and reason the session closes with. Read it only
// after stopped has closed.
func (k *socket) closeCode() (int, string) { return k.code, k.reason }

// send queues v as JSON.
func (k *socket) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		k.log.Error("encode a listen message", "err", err)
		return
	}
	k.sendRaw(websocket.TextMessage, b)
}

// sendRaw queues a message; a client too slow to take outBuffer messages
// is dropped rather than allowed to hold memory.
func (k *socket) sendRaw(kind int, data []byte) {
	select {
	case <-k.done:
	case k.out <- outMsg{kind: kind, data: data}:
	default:
		k.stop(websocket.CloseGoingAway, "client too slow")
	}
}

// read hands each client message to handle until the client closes or
// stop is called.
func (k *socket) read(handle func(kind int, data []byte)) {
	k.conn.SetReadLimit(1 << 20)
	for {
		kind, data, err := k.conn.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) || !k.isStopped() {
				k.stop(websocket.CloseNormalClosure, "")
			}
			return
		}
		handle(kind, data)
		if k.isStopped() {
			return
		}
	}
}

// writer is the one goroutine that writes to the socket.
func (k *socket) writer() {
	for {
		select {
		case m := <-k.out:
			k.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := k.conn.WriteMessage(m.kind, m.data); err != nil {
				k.stop(websocket.CloseGoingAway, "")
				return
			}
		case <-k.done:
			// Everything said before the end goes first (the last
			// segments, stt_failed before 1011), then the goodbye.
			for {
				select {
				case m := <-k.out:
					k.conn.SetWriteDeadline(time.Now().Add(writeWait))
					if k.conn.WriteMessage(m.kind, m.data) != nil {
						return
					}
					continue
				default:
				}
				break
			}
			code, reason := k.closeCode()
			msg := websocket.FormatCloseMessage(code, truncateReason(reason))
			k.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			return
		}
	}
}
