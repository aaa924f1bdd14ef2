package main

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestCustomSTTServiceKeepsTheLastWords: the appliance as a phone app's
// custom-STT service, on PocketSphinx. A sentence followed by no pause is
// answered while the socket stays open once the audio stops (a released
// button), and one that ends the stream right before CloseStream is in
// the last reply before the close.
func TestCustomSTTServiceKeepsTheLastWords(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	first, last := "the car needs new tires before winter", "i left my keys in the kitchen"
	sp1 := compose(t, 0.5, said{text: first})
	sp2 := compose(t, 0.3, said{text: last})
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_STT_ROUTES=pocketsphinx")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	ws := strings.Replace(srv.base, "http://", "ws://", 1)
	conn, _, err := websocket.DefaultDialer.Dial(ws+"/v1/custom-stt?codec=pcm16&sample_rate=16000&token="+url.QueryEscape(token), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	replies := make(chan string, 16)
	closed := make(chan int, 1)
	go func() {
		defer close(replies)
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				var ce *websocket.CloseError
				if asCloseError(err, &ce) {
					closed <- ce.Code
				} else {
					closed <- -1
				}
				return
			}
			var m struct {
				Segments []struct{ Text string } `json:"segments"`
			}
			json.Unmarshal(b, &m)
			var text []string
			for _, s := range m.Segments {
				text = append(text, s.Text)
			}
			replies <- strings.Join(text, " ")
		}
	}()
	send := func(frames [][]byte) {
		for _, f := range frames {
			if err := conn.WriteMessage(websocket.BinaryMessage, f); err != nil {
				t.Fatal(err)
			}
			time.Sleep(7 * time.Millisecond) // about 3× real time
		}
	}
	send(wearableFrames(t, "pcm16", sp1.pcm))
	// The audio stops; the socket stays open.
	select {
	case got := <-replies:
		if !hasWords(got, first) {
			t.Fatalf("during the pause the service answered %q, want %q", got, first)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no answer for %q while the audio had stopped", first)
	}
	send(wearableFrames(t, "pcm16", sp2.pcm))
	conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"CloseStream"}`))
	var after []string
	for r := range replies {
		after = append(after, r)
	}
	if got := strings.Join(after, " "); !hasWords(got, last) {
		t.Fatalf("after CloseStream the service answered %q, want %q", got, last)
	}
	if code := <-closed; code != websocket.CloseNormalClosure {
		t.Fatalf("close %d", code)
	}
}
