package main

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestOmiAppCustomSTTSetting plays the Omi app from the stores with the
// custom real-time STT setting the README gives it: the URL with
// codec=pcm16 and sample_rate=16000 as parameters, a device key in an
// Authorization header, and 16-bit PCM (the app decodes the device's audio
// before it sends it). The segments come back in the shape the app's
// default response schema reads (segments[].text, start, end), heard by
// PocketSphinx; the box keeps no conversation of that audio.
func TestOmiAppCustomSTTSetting(t *testing.T) {
	t.Parallel()
	needTool(t, "text2wave", "sox")
	needPocketSphinx(t)
	pcm, err := festival("Please send a report to my manager tomorrow morning.")
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	sttKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt")
	devKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")

	u := strings.Replace(srv.base, "http://", "ws://", 1) + "/v1/custom-stt?codec=pcm16&sample_rate=16000"
	conn, _, err := websocket.DefaultDialer.Dial(u, http.Header{"Authorization": {"Bearer " + sttKey}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	heard := make(chan string, 1)
	go func() {
		var text []string
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				heard <- strings.Join(text, " ")
				return
			}
			// The app's default schema: segments_path "segments", text_field
			// "text", start_field "start", end_field "end".
			var reply struct {
				Segments []struct {
					Text       string
					Start, End *float64
				}
			}
			if err := json.Unmarshal(b, &reply); err != nil || reply.Segments == nil {
				t.Errorf("a reply the app's schema does not read: %s", b)
				continue
			}
			for _, s := range reply.Segments {
				if s.Text == "" || s.Start == nil || s.End == nil || *s.End <= *s.Start {
					t.Errorf("a segment without text or times: %s", b)
				}
				text = append(text, s.Text)
			}
			if hasWords(strings.Join(text, " "), heardPhrase) {
				heard <- strings.Join(text, " ")
				return
			}
		}
	}()
	// Speech, then the quiet after it, in 100 ms frames at four times real
	// time, as little-endian 16-bit samples.
	pcm = append(pcm, make([]int16, 16000*2)...)
	for i := 0; i < len(pcm); i += 1600 {
		frame := make([]byte, 0, 3200)
		for _, s := range pcm[i:min(i+1600, len(pcm))] {
			frame = binary.LittleEndian.AppendUint16(frame, uint16(s))
		}
		if err := conn.WriteMessage(websocket.BinaryMessage, frame); err != nil {
			t.Fatal(err)
		}
		time.Sleep(25 * time.Millisecond)
	}
	select {
	case text := <-heard:
		if !hasWords(text, heardPhrase) {
			t.Fatalf("heard %q, want %q", text, heardPhrase)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no segments within a minute of the speech")
	}
	conn.Close()

	if st, body := srv.call(t, "GET", "/v1/dev/user/conversations", devKey, ""); st != 200 || strings.TrimSpace(body) != "[]" {
		t.Fatalf("the box kept a conversation of custom-STT audio: %d %s", st, body)
	}
}
