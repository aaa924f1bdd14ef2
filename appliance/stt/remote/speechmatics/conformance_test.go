package speechmatics_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt/remote/speechmatics"
	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
)

// conformant is a fake Speechmatics that behaves as the suite asks: a
// final transcript for sound, none for silence, its Error messages, or no
// answer at all.
func conformant(t *testing.T, b stttest.Behaviour) *httptest.Server {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key || b == stttest.RefusesKey {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		var start map[string]any
		if conn.ReadJSON(&start) != nil {
			return
		}
		conn.WriteJSON(map[string]any{"message": "RecognitionStarted", "id": "1"})
		heard, seq := false, 0
		for {
			kind, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if b == stttest.Stalls {
				continue // accepts everything, answers nothing
			}
			if kind == websocket.BinaryMessage {
				switch b {
				case stttest.RejectsAudio:
					conn.WriteJSON(map[string]any{"message": "Error", "type": "invalid_audio_type", "reason": "audio could not be decoded"})
					return
				case stttest.Fails:
					conn.WriteJSON(map[string]any{"message": "Error", "type": "internal_error", "reason": "internal error"})
					return
				}
				seq++
				conn.WriteJSON(map[string]any{"message": "AudioAdded", "seq_no": seq})
				heard = heard || stttest.Loud(data)
				continue
			}
			var m map[string]any
			if json.Unmarshal(data, &m) != nil || m["message"] != "EndOfStream" {
				continue
			}
			if heard {
				var results []any
				for i, wd := range strings.Fields("water the tomatoes tonight") {
					results = append(results, word(wd, "S1", 0.3*float64(i), 0.3*float64(i)+0.25))
				}
				conn.WriteJSON(map[string]any{"message": "AddTranscript", "results": results})
			}
			conn.WriteJSON(map[string]any{"message": "EndOfTranscript"})
			return
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
			r, err := speechmatics.New(speechmatics.Config{APIKey: key, URL: wsURL(srv)})
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
