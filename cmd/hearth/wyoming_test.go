package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// wyClient speaks the Wyoming protocol as its published description gives
// it: a JSON header line, then data_length bytes of JSON data, then
// payload_length bytes of payload.
type wyClient struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

type wyEvent struct {
	Type    string
	Data    map[string]any
	Payload []byte
}

func dialWyoming(t *testing.T, addr string) *wyClient {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &wyClient{t: t, c: c, br: bufio.NewReader(c)}
}

// send writes one event, its data after the header line as data_length
// bytes (as the Python library sends it), its payload after that.
func (w *wyClient) send(typ string, data map[string]any, payload []byte) {
	w.t.Helper()
	h := map[string]any{"type": typ, "version": "1.5.0"}
	var extra []byte
	if data != nil {
		extra, _ = json.Marshal(data)
		h["data_length"] = len(extra)
	}
	if len(payload) > 0 {
		h["payload_length"] = len(payload)
	}
	line, _ := json.Marshal(h)
	w.raw(append(append(append(line, '\n'), extra...), payload...))
}

func (w *wyClient) raw(b []byte) {
	w.t.Helper()
	w.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := w.c.Write(b); err != nil {
		w.t.Fatalf("send: %v", err)
	}
}

// read reads the next event; io.EOF when the server closed.
func (w *wyClient) read() (wyEvent, error) {
	w.c.SetReadDeadline(time.Now().Add(60 * time.Second))
	line, err := w.br.ReadBytes('\n')
	if err != nil {
		return wyEvent{}, err
	}
	var h struct {
		Type          string         `json:"type"`
		Data          map[string]any `json:"data"`
		DataLength    int            `json:"data_length"`
		PayloadLength int            `json:"payload_length"`
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return wyEvent{}, fmt.Errorf("header %q: %w", line, err)
	}
	ev := wyEvent{Type: h.Type, Data: h.Data}
	if h.DataLength > 0 {
		b := make([]byte, h.DataLength)
		if _, err := io.ReadFull(w.br, b); err != nil {
			return ev, err
		}
		if ev.Data == nil {
			ev.Data = map[string]any{}
		}
		if err := json.Unmarshal(b, &ev.Data); err != nil {
			return ev, err
		}
	}
	if h.PayloadLength > 0 {
		ev.Payload = make([]byte, h.PayloadLength)
		if _, err := io.ReadFull(w.br, ev.Payload); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

func (w *wyClient) expect(typ string) wyEvent {
	w.t.Helper()
	ev, err := w.read()
	if err != nil || ev.Type != typ {
		w.t.Fatalf("want %s, got %+v (%v)", typ, ev, err)
	}
	return ev
}

// expectClosed reads an error event with code (when code is set), then
// the end of the stream.
func (w *wyClient) expectClosed(code string) {
	w.t.Helper()
	if code != "" {
		if ev := w.expect("error"); ev.Data["code"] != code || ev.Data["text"] == "" {
			w.t.Fatalf("error event %v, want code %s", ev.Data, code)
		}
	}
	if ev, err := w.read(); !errors.Is(err, io.EOF) {
		w.t.Fatalf("want the connection closed, got %+v (%v)", ev, err)
	}
}

// transcribe sends raw 16-bit PCM as Home Assistant does and returns the
// transcript event.
func (w *wyClient) transcribe(pcm []byte, rate, channels int) wyEvent {
	w.t.Helper()
	format := map[string]any{"rate": rate, "width": 2, "channels": channels}
	w.send("transcribe", map[string]any{"language": "en"}, nil)
	w.send("audio-start", format, nil)
	for chunk := range slices.Chunk(pcm, 2048) {
		w.send("audio-chunk", format, chunk)
	}
	w.send("audio-stop", nil, nil)
	return w.expect("transcript")
}

var wyomingServing = regexp.MustCompile(`"msg":"wyoming serving"[^\n]*"addr":"([^"]+)"`)

// TestWyomingForHomeAssistant: a client written from the protocol's
// description gets the service's description, hears Festival speech word
// for word at 16 kHz mono and at 22050 Hz stereo, and every broken client
// (bad header, oversized data or payload, silence) is answered and closed
// while the server keeps serving.
func TestWyomingForHomeAssistant(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	wav := speechWAV(t, heardPhrase)
	stereo := filepath.Join(t.TempDir(), "stereo.wav")
	mustRun(t, "sox", wav, "-r", "22050", "-c", "2", stereo)
	srv := startServe(t, t.TempDir(), "HEARTH_WYOMING=127.0.0.1:0", "HEARTH_WYOMING_IDLE_TIMEOUT=2s")
	m := wyomingServing.FindStringSubmatch(srv.logs.String())
	if m == nil {
		t.Fatalf("no wyoming address logged:\n%s", srv.logs)
	}
	addr := m[1]

	t.Run("describe", func(t *testing.T) {
		w := dialWyoming(t, addr)
		w.send("describe", nil, nil)
		info := w.expect("info")
		asr, _ := info.Data["asr"].([]any)
		if len(asr) != 1 {
			t.Fatalf("info %v", info.Data)
		}
		prog := asr[0].(map[string]any)
		models, _ := prog["models"].([]any)
		if prog["installed"] != true || len(models) != 1 {
			t.Fatalf("asr %v", prog)
		}
		model := models[0].(map[string]any)
		if langs := fmt.Sprint(model["languages"]); langs != "[en]" || model["installed"] != true || model["attribution"] == nil {
			t.Fatalf("model %v", model)
		}
	})
	t.Run("16 kHz mono", func(t *testing.T) {
		w := dialWyoming(t, addr)
		if got := w.transcribe(rawPCM(t, wav), 16000, 1).Data["text"]; got != heardPhrase {
			t.Fatalf("heard %q", got)
		}
		// The same connection serves the next command.
		if got := w.transcribe(rawPCM(t, wav), 16000, 1).Data["text"]; got != heardPhrase {
			t.Fatalf("second command heard %q", got)
		}
	})
	t.Run("22050 Hz stereo", func(t *testing.T) {
		w := dialWyoming(t, addr)
		if got := w.transcribe(rawPCM(t, stereo), 22050, 2).Data["text"]; got != heardPhrase {
			t.Fatalf("heard %q", got)
		}
	})
	t.Run("8-bit audio", func(t *testing.T) {
		w := dialWyoming(t, addr)
		w.send("audio-start", map[string]any{"rate": 16000, "width": 1, "channels": 1}, nil)
		w.expectClosed("unsupported-audio")
	})
	for _, tc := range []struct{ name, in, code string }{
		{"malformed header", "this is not json\n", "malformed-event"},
		{"header without a type", `{"data":{}}` + "\n", "malformed-event"},
		{"data not an object", `{"type":"transcribe","data_length":3}` + "\n[1]", "malformed-event"},
		{"oversized data", `{"type":"transcribe","data_length":100000000}` + "\n", "too-large"},
		{"oversized payload", `{"type":"audio-chunk","data":{"rate":16000,"width":2,"channels":1},"payload_length":100000000}` + "\n", "too-large"},
		{"oversized header line", `{"type":"` + strings.Repeat("x", 64<<10), "too-large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := dialWyoming(t, addr)
			w.raw([]byte(tc.in))
			w.expectClosed(tc.code)
		})
	}
	t.Run("a client that sends nothing", func(t *testing.T) {
		dialWyoming(t, addr).expectClosed("")
	})
	t.Run("a client that stops mid-event", func(t *testing.T) {
		w := dialWyoming(t, addr)
		w.raw([]byte(`{"type":"audio-chunk","payload_length":100}` + "\n" + "abc"))
		w.expectClosed("")
	})
	t.Run("still serving", func(t *testing.T) {
		w := dialWyoming(t, addr)
		w.send("describe", nil, nil)
		w.expect("info")
	})
	if strings.Contains(srv.logs.String(), "panic") {
		t.Fatalf("the server panicked:\n%s", srv.logs)
	}
}
