package wsstream_test

import (
	"encoding/binary"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/internal/wsstream"
)

// message is what the fake vendor received, in order.
type message struct {
	kind int
	data []byte
}

// echoVendor is a vendor on loopback: it records every message, answers
// each binary one with a text message naming its first sample, and on the
// end message ("END n") answers "bye" and closes the socket normally.
func echoVendor(t *testing.T, got chan<- message) string {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		for {
			kind, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			got <- message{kind, data}
			switch {
			case kind == websocket.BinaryMessage:
				v := int16(binary.LittleEndian.Uint16(data))
				conn.WriteMessage(websocket.TextMessage, []byte(strconv.Itoa(int(v))))
			case strings.HasPrefix(string(data), "END"):
				conn.WriteMessage(websocket.TextMessage, []byte("bye"))
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// read turns each text message into a word until "bye".
func read(conn *websocket.Conn, s *wsstream.Stream) {
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			s.Fail(err)
			return
		}
		if string(data) == "bye" {
			return
		}
		s.Emit([]stt.Word{{Text: string(data)}})
	}
}

func dial(t *testing.T, url string) *websocket.Conn {
	conn, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func endMessage(conn *websocket.Conn, sent int) error {
	return conn.WriteMessage(websocket.TextMessage, []byte("END "+strconv.Itoa(sent)))
}

func TestSendCloseFlushes(t *testing.T) {
	got := make(chan message, 16)
	s := wsstream.Start(dial(t, echoVendor(t, got)), wsstream.Options{Provider: "acme", Read: read, End: endMessage})
	for _, v := range []int16{7, -2, 300} {
		if err := s.Send([]int16{v, 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var words []string
	for ws := range s.Words() {
		for _, w := range ws {
			words = append(words, w.Text)
		}
	}
	if strings.Join(words, " ") != "7 -2 300" {
		t.Errorf("words %q, want every frame's answer before the end", words)
	}
	if err := s.Err(); err != nil {
		t.Errorf("Err = %v after a clean end", err)
	}
	want := []message{
		{websocket.BinaryMessage, []byte{7, 0, 1, 0}},
		{websocket.BinaryMessage, []byte{0xfe, 0xff, 1, 0}},
		{websocket.BinaryMessage, []byte{0x2c, 0x01, 1, 0}},
		{websocket.TextMessage, []byte("END 3")},
	}
	for i, w := range want {
		m := <-got
		if m.kind != w.kind || string(m.data) != string(w.data) {
			t.Errorf("message %d: %d %q, want %d %q", i, m.kind, m.data, w.kind, w.data)
		}
	}
	if err := s.Send([]int16{1}); err == nil || err.Error() != "acme: stream closed" {
		t.Errorf("Send after Close: %v, want acme: stream closed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestFirstFailureWins(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	got := make(chan message, 16)
	s := wsstream.Start(dial(t, echoVendor(t, got)), wsstream.Options{Provider: "acme", End: endMessage,
		Read: func(conn *websocket.Conn, s *wsstream.Stream) {
			s.Fail(first)
			s.Fail(second)
		}})
	for range s.Words() {
	}
	if err := s.Err(); err != first {
		t.Errorf("Err = %v, want the first failure", err)
	}
	if err := s.Send([]int16{1}); err != first {
		t.Errorf("Send after a failure: %v, want the failure", err)
	}
	s.Close()
}

func TestKeepAliveWhileIdle(t *testing.T) {
	got := make(chan message, 16)
	s := wsstream.Start(dial(t, echoVendor(t, got)), wsstream.Options{Provider: "acme", Read: read, End: endMessage,
		KeepAlive: []byte(`{"type":"KeepAlive"}`), KeepAliveEvery: time.Millisecond})
	if m := <-got; m.kind != websocket.TextMessage || string(m.data) != `{"type":"KeepAlive"}` {
		t.Errorf("idle stream sent %d %q, want the keep-alive", m.kind, m.data)
	}
	go func() { // the vendor keeps reading until the end
		for range got {
		}
	}()
	s.Close()
	for range s.Words() {
	}
}
