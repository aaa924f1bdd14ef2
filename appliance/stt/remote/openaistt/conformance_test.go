package openaistt_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/remote/openaistt"
	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
)

// conformant is a fake OpenAI-compatible server that behaves as the suite
// asks: the phrase for a WAV with sound, empty text for silence, OpenAI's
// error bodies with their statuses, or no answer.
func conformant(t *testing.T, b stttest.Behaviour) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key || b == stttest.RefusesKey {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, `{"error":{"message":"no file"}}`, http.StatusBadRequest)
			return
		}
		wav, _ := io.ReadAll(f)
		switch b {
		case stttest.Stalls:
			<-r.Context().Done()
			return
		case stttest.RejectsAudio:
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"Invalid file format.","type":"invalid_request_error"}}`)
			return
		case stttest.Fails:
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)
			return
		}
		text, segs := "", []any{}
		if len(wav) > 44 && stttest.Loud(wav[44:]) {
			text = "Water the tomatoes tonight."
			segs = []any{map[string]any{"id": 0, "start": 0.1, "end": 1.5, "text": " " + text}}
		}
		json.NewEncoder(w).Encode(map[string]any{"task": "transcribe", "language": "english", "text": text, "segments": segs})
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
			r, err := openaistt.New(openaistt.Config{BaseURL: srv.URL + "/v1", Model: "whisper-small", APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			return r
		},
		Behaviours: []stttest.Behaviour{stttest.RefusesKey, stttest.Unreachable, stttest.RejectsAudio, stttest.Fails, stttest.Stalls},
		// A phrase of sound between pauses, as the VAD cuts utterances.
		Speech: append(append(make([]int16, 8000), stttest.Tone(1.5)...), make([]int16, 16000)...),
		Words:  "water the tomatoes tonight",
		Secret: key,
	})
}
