package soniox_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt/remote/soniox"
	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
)

// conformant is a fake Soniox that behaves as the suite asks: final tokens
// for sound, nothing for silence, error messages with Soniox's codes, or
// no answer at all.
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
		var cfg map[string]any
		if conn.ReadJSON(&cfg) != nil {
			return
		}
		heard := false
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			switch {
			case b == stttest.Stalls:
				continue
			case b == stttest.RejectsAudio:
				conn.WriteJSON(map[string]any{"error_code": 400, "error_message": "Audio data decode error."})
				return
			case b == stttest.Fails:
				conn.WriteJSON(map[string]any{"error_code": 503, "error_message": "Service unavailable."})
				return
			case len(data) == 0:
				if heard {
					var tokens []any
					for i, w := range strings.Fields(" water the tomatoes tonight") {
						tokens = append(tokens, map[string]any{"text": " " + w, "start_ms": 300 * i, "end_ms": 300*i + 250, "is_final": true})
					}
					conn.WriteJSON(map[string]any{"tokens": tokens})
				}
				conn.WriteJSON(map[string]any{"tokens": []any{}, "finished": true})
				return
			default:
				heard = heard || stttest.Loud(data)
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestLanguages(t *testing.T) {
	r, _ := soniox.New(soniox.Config{APIKey: key})
	for lang, want := range map[string]bool{"en": true, "pt-BR": true, "multi": true, "tlh": false, "": false} {
		if got := r.Supports(lang, 1); got != want {
			t.Errorf("Supports(%q) = %v", lang, got)
		}
	}
}

func TestConformance(t *testing.T) {
	stttest.Run(t, stttest.Harness{
		New: func(t *testing.T, b stttest.Behaviour) any {
			srv := conformant(t, b)
			if b == stttest.Unreachable {
				srv.Close()
			}
			r, err := soniox.New(soniox.Config{APIKey: key, URL: wsURL(srv)})
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
