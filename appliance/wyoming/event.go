// Package wyoming serves the appliance's batch transcription over the
// Wyoming protocol, which Home Assistant's voice assistant (Assist) uses for
// local speech to text. A Wyoming event is one JSON header line, then
// data_length bytes of extra JSON data merged over the header's data, then
// payload_length bytes of payload (PCM audio for audio-chunk).
//
// Wyoming has no authentication: the server is off unless configured, is
// meant for the LAN, transcribes for whoever connects and stores nothing.
package wyoming

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Event is one protocol message.
type Event struct {
	Type string
	// Data is the header's data with the extra data merged over it.
	Data    map[string]json.RawMessage
	Payload []byte
}

// Decode unmarshals the event's data into v.
func (e Event) Decode(v any) error {
	if len(e.Data) == 0 {
		return nil
	}
	b, err := json.Marshal(e.Data)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s data: %v", ErrMalformed, e.Type, err)
	}
	return nil
}

// Limits bound what one event may make the reader hold.
type Limits struct {
	Line    int // header line, newline included
	Data    int // extra data bytes
	Payload int // payload bytes
}

// DefaultLimits fit every event Home Assistant sends: its audio chunks are
// a few kilobytes, its headers a few hundred bytes.
var DefaultLimits = Limits{Line: 16 << 10, Data: 64 << 10, Payload: 1 << 20}

var (
	// ErrMalformed is an event that does not follow the protocol.
	ErrMalformed = errors.New("malformed event")
	// ErrTooLarge is an event over a Limits bound.
	ErrTooLarge = errors.New("event too large")
)

// Reader reads events from one connection.
type Reader struct {
	br  *bufio.Reader
	lim Limits
}

// NewReader reads events from r within lim.
func NewReader(r io.Reader, lim Limits) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, max(lim.Line, 16)), lim: lim}
}

// header is the first line of an event.
type header struct {
	Type          string          `json:"type"`
	Data          json.RawMessage `json:"data"`
	DataLength    *int64          `json:"data_length"`
	PayloadLength *int64          `json:"payload_length"`
}

// Read reads the next event. io.EOF is a peer that closed between events;
// an error wrapping ErrMalformed or ErrTooLarge leaves the stream where
// nothing more can be trusted, so the caller should close it.
func (r *Reader) Read() (Event, error) {
	line, err := r.br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return Event{}, fmt.Errorf("%w: header line over %d bytes", ErrTooLarge, r.lim.Line)
	case err == io.EOF && len(line) == 0:
		return Event{}, io.EOF
	case err == io.EOF:
		return Event{}, fmt.Errorf("%w: header line cut short", ErrMalformed)
	case err != nil:
		return Event{}, err
	}
	h, err := parseHeader(line, r.lim)
	if err != nil {
		return Event{}, err
	}
	ev := Event{Type: h.Type}
	if ev.Data, err = object(h.Data); err != nil {
		return Event{}, fmt.Errorf("%w: data: %v", ErrMalformed, err)
	}
	if n := length(h.DataLength); n > 0 {
		b := make([]byte, n)
		if _, err := io.ReadFull(r.br, b); err != nil {
			return Event{}, cut(err)
		}
		extra, err := object(b)
		if err != nil {
			return Event{}, fmt.Errorf("%w: extra data: %v", ErrMalformed, err)
		}
		if ev.Data == nil {
			ev.Data = extra
		}
		for k, v := range extra {
			ev.Data[k] = v
		}
	}
	if n := length(h.PayloadLength); n > 0 {
		ev.Payload = make([]byte, n)
		if _, err := io.ReadFull(r.br, ev.Payload); err != nil {
			return Event{}, cut(err)
		}
	}
	return ev, nil
}

// parseHeader checks one header line against the protocol and lim.
func parseHeader(line []byte, lim Limits) (header, error) {
	var h header
	if err := json.Unmarshal(bytes.TrimSpace(line), &h); err != nil {
		return h, fmt.Errorf("%w: header is not a JSON object: %v", ErrMalformed, err)
	}
	if h.Type == "" {
		return h, fmt.Errorf("%w: header has no type", ErrMalformed)
	}
	for _, c := range []struct {
		name string
		n    *int64
		max  int
	}{{"data_length", h.DataLength, lim.Data}, {"payload_length", h.PayloadLength, lim.Payload}} {
		switch {
		case c.n == nil:
		case *c.n < 0:
			return h, fmt.Errorf("%w: negative %s", ErrMalformed, c.name)
		case *c.n > int64(c.max):
			return h, fmt.Errorf("%w: %s %d over %d", ErrTooLarge, c.name, *c.n, c.max)
		}
	}
	return h, nil
}

func length(n *int64) int {
	if n == nil {
		return 0
	}
	return int(*n)
}

// object decodes a JSON object; null or nothing is no data.
func object(b []byte) (map[string]json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func cut(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: event cut short", ErrMalformed)
	}
	return err
}

// Write sends one event: data inline in the header, payload after it.
func Write(w io.Writer, typ string, data any, payload []byte) error {
	h := map[string]any{"type": typ}
	if data != nil {
		h["data"] = data
	}
	if len(payload) > 0 {
		h["payload_length"] = len(payload)
	}
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if len(payload) > 0 {
		b = append(b, payload...)
	}
	_, err = w.Write(b)
	return err
}
