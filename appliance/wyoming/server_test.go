package wyoming

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// serve runs srv on a loopback port until the test ends.
func serve(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

type conn struct {
	t *testing.T
	c net.Conn
	r *Reader
}

func dial(t *testing.T, addr string) *conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(30 * time.Second))
	return &conn{t: t, c: c, r: NewReader(bufio.NewReader(c), DefaultLimits)}
}

func (c *conn) send(typ string, data any, payload []byte) {
	c.t.Helper()
	if err := Write(c.c, typ, data, payload); err != nil {
		c.t.Fatal(err)
	}
}

// expect reads the next event: its type, and for an error its code.
func (c *conn) expect(typ, code string) {
	c.t.Helper()
	ev, err := c.r.Read()
	if err != nil || ev.Type != typ {
		c.t.Fatalf("want %s, got %+v (%v)", typ, ev, err)
	}
	var d struct {
		Code string `json:"code"`
	}
	ev.Decode(&d)
	if d.Code != code {
		c.t.Fatalf("%s code %q, want %q (%s)", typ, d.Code, code, ev.Data)
	}
}

func (c *conn) expectEOF() {
	c.t.Helper()
	if ev, err := c.r.Read(); !errors.Is(err, io.EOF) {
		c.t.Fatalf("want the end, got %+v (%v)", ev, err)
	}
}

// TestConnectionCap: past MaxConns a client is told and closed; a freed
// place serves the next.
func TestConnectionCap(t *testing.T) {
	addr := serve(t, &Server{Transcriber: transcribe.New(nil), MaxConns: 1})
	first := dial(t, addr)
	first.send("describe", nil, nil)
	first.expect("info", "")
	second := dial(t, addr)
	second.expect("error", CodeBusy)
	second.expectEOF()
	first.c.Close()
	// The first connection's place is given back once the server sees it
	// closed; until then a client is turned away.
	for {
		third := dial(t, addr)
		third.send("describe", nil, nil)
		ev, err := third.r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == "info" {
			break
		}
	}
}

// TestFailedTranscriptionIsToldAndClosed: a job the service refuses
// (here: no route) is an error event, then the end of the connection, which
// is what makes Home Assistant stop waiting for a transcript.
func TestFailedTranscriptionIsToldAndClosed(t *testing.T) {
	addr := serve(t, &Server{Transcriber: transcribe.New(nil)})
	c := dial(t, addr)
	c.send("ping", map[string]string{"text": "x"}, nil)
	c.expect("pong", "")
	c.send("ping", nil, nil)
	if ev, err := c.r.Read(); err != nil || ev.Type != "pong" || ev.Data == nil {
		t.Fatalf("pong to a bare ping: %+v %v", ev, err)
	}
	format := map[string]int{"rate": 16000, "width": 2, "channels": 1}
	c.send("transcribe", map[string]string{"language": "en"}, nil)
	c.send("audio-start", format, nil)
	c.send("audio-chunk", format, make([]byte, 3200))
	c.send("audio-stop", nil, nil)
	c.expect("error", CodeNoRoute)
	c.expectEOF()
}

// TestAudioCap: audio past MaxAudio ends the connection with an error,
// whether it comes after audio-start or in chunks alone.
func TestAudioCap(t *testing.T) {
	addr := serve(t, &Server{Transcriber: transcribe.New(nil), MaxAudio: time.Second})
	format := map[string]int{"rate": 48000, "width": 2, "channels": 2}
	for _, start := range []bool{true, false} {
		c := dial(t, addr)
		if start {
			c.send("audio-start", format, nil)
		}
		for range 3 { // 1.5 s at 48 kHz stereo
			c.send("audio-chunk", format, make([]byte, 48000*2))
		}
		c.expect("error", CodeTooLarge)
		c.expectEOF()
	}
}

// TestInfoJSON: the info event is what Home Assistant reads: asr programs
// with installed models and their languages.
func TestInfoJSON(t *testing.T) {
	s := &Server{Version: "1.2", Languages: func() []string { return []string{"en", "de"} }}
	b, _ := json.Marshal(s.info())
	want := `{"asr":[{"name":"hearth","attribution":{"name":"Hearth","url":"https://github.com/hearth-appliance/hearth"},"installed":true,"description":"Hearth's speech routes","version":"1.2","models":[{"name":"hearth","languages":["en","de"],"attribution":{"name":"Hearth","url":"https://github.com/hearth-appliance/hearth"},"installed":true,"description":"The appliance's speech routes, in the order the owner set","version":"1.2"}]}]}`
	if string(b) != want {
		t.Fatalf("%s", b)
	}
}

// TestErrorCodes: a failed job is told as /v1/stt/transcribe tells it.
func TestErrorCodes(t *testing.T) {
	s := &Server{MaxAudio: time.Minute, Logger: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct {
		err        error
		text, code string
	}{
		{fmt.Errorf("job: %w", stt.ErrBusy), "Transcription is busy; try again shortly", CodeBusy},
		{fmt.Errorf("%w: 2m of audio", transcribe.ErrTooLong), "Audio too long (max 1m0s)", CodeTooLarge},
		{&stt.Error{Outcome: stt.ConfigError, Reason: "unsupported_language", Err: stt.ErrNoRoute}, "Transcription service not configured", CodeNoRoute},
		{&stt.Error{Outcome: stt.ConfigError, Provider: "whisper", Reason: "no model pulled"}, "Transcription service not configured: no model pulled", CodeNoRoute},
		{&stt.Error{Outcome: stt.UpstreamError, Provider: "deepgram", Reason: "secret detail"}, "Transcription failed", CodeFailed},
	} {
		if text, code := s.describeErr(tc.err); text != tc.text || code != tc.code {
			t.Errorf("%v: %q %q", tc.err, text, code)
		}
	}
}
