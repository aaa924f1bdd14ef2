package wyoming

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

var testLimits = Limits{Line: 256, Data: 64, Payload: 8}

func TestReadEvents(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		typ      string
		data     string // the decoded data's "rate" and "text", joined
		payload  string
		err      error
	}{
		{name: "bare", in: `{"type":"describe"}` + "\n", typ: "describe"},
		{name: "inline data", in: `{"type":"transcribe","data":{"text":"en"}}` + "\n", typ: "transcribe", data: "0 en"},
		{name: "extra data not JSON", in: `{"type":"x","data":{"rate":1,"text":"a"},"data_length":12}` + "\n" + `{"rate":16000}`[:12] + "",
			err: ErrMalformed},
		{name: "extra data", in: `{"type":"x","data":{"rate":1,"text":"a"},"data_length":14}` + "\n" + `{"rate":16000}`, typ: "x", data: "16000 a"},
		{name: "payload", in: `{"type":"audio-chunk","payload_length":4}` + "\nabcd", typ: "audio-chunk", payload: "abcd"},
		{name: "data and payload", in: `{"type":"c","data_length":10,"payload_length":2}` + "\n" + `{"rate":8}zz`, typ: "c", data: "8 ", payload: "zz"},
		{name: "not JSON", in: "hello\n", err: ErrMalformed},
		{name: "no type", in: `{"data":{}}` + "\n", err: ErrMalformed},
		{name: "data not an object", in: `{"type":"x","data":[1]}` + "\n", err: ErrMalformed},
		{name: "negative payload", in: `{"type":"x","payload_length":-1}` + "\n", err: ErrMalformed},
		{name: "payload over cap", in: `{"type":"x","payload_length":9}` + "\n123456789", err: ErrTooLarge},
		{name: "data over cap", in: `{"type":"x","data_length":65}` + "\n", err: ErrTooLarge},
		{name: "huge payload length", in: `{"type":"x","payload_length":99999999999999999999}` + "\n", err: ErrMalformed},
		{name: "line over cap", in: `{"type":"` + strings.Repeat("a", 300) + `"}` + "\n", err: ErrTooLarge},
		{name: "payload cut short", in: `{"type":"x","payload_length":4}` + "\nab", err: ErrMalformed},
		{name: "header cut short", in: `{"type":"x"`, err: ErrMalformed},
		{name: "nothing", in: "", err: io.EOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := NewReader(strings.NewReader(tc.in), testLimits).Read()
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Rate int    `json:"rate"`
				Text string `json:"text"`
			}
			if err := ev.Decode(&d); err != nil {
				t.Fatal(err)
			}
			got := ""
			if ev.Data != nil {
				got = fmt.Sprintf("%d %s", d.Rate, d.Text)
			}
			if ev.Type != tc.typ || got != tc.data || string(ev.Payload) != tc.payload {
				t.Fatalf("got %q %q %q", ev.Type, got, ev.Payload)
			}
		})
	}
}

// TestWriteReadsBack: what Write sends, Read takes back, one event after
// another on the same stream.
func TestWriteReadsBack(t *testing.T) {
	var buf bytes.Buffer
	Write(&buf, "transcript", map[string]string{"text": "hello there"}, nil)
	Write(&buf, "audio-chunk", map[string]int{"rate": 16000}, []byte{1, 2, 3})
	r := NewReader(&buf, DefaultLimits)
	ev, err := r.Read()
	if err != nil || ev.Type != "transcript" || string(ev.Data["text"]) != `"hello there"` {
		t.Fatalf("%v %+v", err, ev)
	}
	ev, err = r.Read()
	if err != nil || ev.Type != "audio-chunk" || !bytes.Equal(ev.Payload, []byte{1, 2, 3}) || string(ev.Data["rate"]) != "16000" {
		t.Fatalf("%v %+v", err, ev)
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("after the last event: %v", err)
	}
}

// FuzzReadEvent: no input makes the reader panic, hold more than its
// limits, or return an event together with an error.
func FuzzReadEvent(f *testing.F) {
	for _, s := range []string{
		`{"type":"describe"}` + "\n",
		`{"type":"audio-chunk","data":{"rate":16000,"width":2,"channels":1},"payload_length":4}` + "\nabcd",
		`{"type":"x","data":{"a":1},"data_length":8,"payload_length":2}` + "\n" + `{"b":2}` + " zz",
		`{"type":"x","data_length":-3}` + "\n",
		`{"type":"x","data":null,"payload_length":1e3}` + "\n",
		"{\n",
		"\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in), testLimits)
		for range 4 {
			ev, err := r.Read()
			if err != nil {
				if ev.Type != "" || ev.Payload != nil {
					t.Fatalf("an event with an error: %+v %v", ev, err)
				}
				return
			}
			if ev.Type == "" || len(ev.Payload) > testLimits.Payload {
				t.Fatalf("event %+v", ev)
			}
		}
	})
}
