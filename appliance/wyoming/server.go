package wyoming

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// Transcriber turns a whole recording into a transcript (appliance/transcribe).
type Transcriber interface {
	Transcribe(ctx context.Context, src audio.Source, opt transcribe.Options) (transcribe.Result, error)
}

// Server answers Wyoming clients over a listener.
type Server struct {
	Transcriber Transcriber
	// Languages lists the languages the speech routes serve now (they
	// can change while the server runs), for the info event.
	Languages func() []string
	// Version is the appliance's, shown in the info event.
	Version string
	// MaxAudio caps one transcription's audio; over it the client gets an
	// error event. The audio is held in memory (16 kHz mono, 32 kB a
	// second) until audio-stop.
	MaxAudio time.Duration
	// MaxConns caps connections at once; past it a client gets an error
	// event and is closed.
	MaxConns int
	// IdleTimeout is how long a client may take to send one whole event.
	IdleTimeout time.Duration
	Limits      Limits
	Logger      *slog.Logger

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Error codes of the error events the server sends.
const (
	CodeMalformed = "malformed-event"
	CodeTooLarge  = "too-large"
	CodeBusy      = "busy"
	CodeAudio     = "unsupported-audio"
	CodeFailed    = "transcription-failed"
	CodeNoRoute   = "not-configured"
)

// Serve accepts connections until ctx ends or ln is closed, then closes
// the connections it holds and waits for them.
func (s *Server) Serve(ctx context.Context, ln net.Listener) {
	if s.Logger == nil {
		s.Logger = slog.New(slog.DiscardHandler)
	}
	if s.Limits == (Limits{}) {
		s.Limits = DefaultLimits
	}
	s.conns = map[net.Conn]struct{}{}
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer s.closeAll()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors or the like: wait and go on, as
			// net/http does, rather than stop serving for good.
			s.Logger.Warn("wyoming accept failed", "err", err)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if !s.track(c) {
			c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			Write(c, "error", errorData("Too many Wyoming connections; try again shortly", CodeBusy), nil)
			c.Close()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.untrack(c)
			s.serveConn(ctx, c)
		}()
	}
}

func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.MaxConns > 0 && len(s.conns) >= s.MaxConns {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

func (s *Server) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.Close()
	}
}

func errorData(text, code string) map[string]string {
	return map[string]string{"text": text, "code": code}
}

// serveConn runs one client's events in order until it leaves, breaks the
// protocol or idles past IdleTimeout.
func (s *Server) serveConn(ctx context.Context, c net.Conn) {
	r := NewReader(c, s.Limits)
	sess := &session{s: s, ctx: ctx, w: c}
	defer sess.reset()
	for {
		if s.IdleTimeout > 0 {
			c.SetReadDeadline(time.Now().Add(s.IdleTimeout))
		}
		ev, err := r.Read()
		if err != nil {
			switch {
			case errors.Is(err, ErrTooLarge):
				sess.fail(err.Error(), CodeTooLarge)
			case errors.Is(err, ErrMalformed):
				sess.fail(err.Error(), CodeMalformed)
			}
			if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrMalformed) {
				linger(c)
			}
			if !errors.Is(err, io.EOF) {
				s.Logger.Debug("wyoming client dropped", "remote", c.RemoteAddr().String(), "err", err)
			}
			return
		}
		if !sess.handle(ev) {
			linger(c)
			return
		}
	}
}

// linger lets a client that is being closed for a broken event read the
// error event: closing a socket with unread input resets it, and a reset
// can discard what was sent just before. It stops sending, then reads and
// drops what is still coming, a bounded amount for a bounded time.
func linger(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	io.Copy(io.Discard, io.LimitReader(c, 1<<20))
}
