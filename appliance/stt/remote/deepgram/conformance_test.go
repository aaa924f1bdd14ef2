package deepgram_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt/remote/deepgram"
	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
)

// conformant is a fake Deepgram that behaves as the suite asks, on the
// live socket and on pre-recorded POSTs: words for sound, none for
// silence, its refusals (401; close 1008 DATA-0000 or 400 for audio it
// cannot decode; close 1011 or 500 for its own faults), or no answer.
func conformant(t *testing.T, b stttest.Behaviour) *httptest.Server {
	up := websocket.Upgrader{}
	phrase := strings.Fields("water the tomatoes tonight")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Token "+key || b == stttest.RefusesKey {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials."}`)
			return
		}
		if r.Method == "POST" {
			body, _ := io.ReadAll(r.Body)
			switch b {
			case stttest.Stalls:
				<-r.Context().Done()
				return
			case stttest.RejectsAudio:
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"err_code":"Bad Request","err_msg":"Bad Request: failed to process audio: corrupt or unsupported data"}`)
				return
			case stttest.Fails:
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			alt := map[string]any{"transcript": "", "words": []any{}}
			if stttest.Loud(body[44:]) {
				alt = map[string]any{"transcript": strings.Join(phrase, " "), "words": words(0.1, 0.3, phrase...)}
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"results": map[string]any{"channels": []any{map[string]any{"alternatives": []any{alt}}}}})
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		heard := false
		for {
			kind, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			switch {
			case b == stttest.RejectsAudio && kind == websocket.BinaryMessage:
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "DATA-0000"))
				return
			case b == stttest.Fails && kind == websocket.BinaryMessage:
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseInternalServerErr, "NET-0000"))
				return
			case kind == websocket.BinaryMessage:
				heard = heard || stttest.Loud(data)
			case strings.Contains(string(data), `"CloseStream"`):
				if heard {
					conn.WriteJSON(map[string]any{"type": "Results", "is_final": true, "channel": map[string]any{"alternatives": []any{
						map[string]any{"transcript": strings.Join(phrase, " "), "words": words(0.1, 0.3, phrase...)}}}})
				}
				conn.WriteJSON(map[string]any{"type": "Metadata"})
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestConformance(t *testing.T) {
	stttest.Run(t, stttest.Harness{
		New: func(t *testing.T, b stttest.Behaviour) any {
			srv := conformant(t, b)
			if b == stttest.Unreachable {
				srv.Close()
			}
			r, err := deepgram.New(deepgram.Config{APIKey: key, BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			return r
		},
		Behaviours: []stttest.Behaviour{stttest.RefusesKey, stttest.Unreachable, stttest.RejectsAudio, stttest.Fails, stttest.Stalls},
		Speech:     stttest.Tone(2),
		Words:      "water the tomatoes tonight",
		Secret:     key,
	})
}
