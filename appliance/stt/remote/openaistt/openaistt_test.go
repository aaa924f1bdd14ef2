package openaistt_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/openaistt"
)

const key = "sk-secret-never-shown"

// fakeServer speaks OpenAI's POST /v1/audio/transcriptions: multipart
// file, model, response_format=verbose_json; a bearer key. It "hears" a
// phrase per request and can misbehave as mode says.
func fakeServer(t *testing.T, mode *atomic.Value) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if r.URL.Path != "/v1/audio/transcriptions" || r.Method != "POST" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
			return
		}
		if err := r.ParseMultipartForm(8 << 20); err != nil {
			http.Error(w, `{"error":{"message":"bad multipart"}}`, http.StatusBadRequest)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil || r.FormValue("model") != "whisper-small" || r.FormValue("response_format") != "verbose_json" {
			http.Error(w, `{"error":{"message":"missing fields"}}`, http.StatusBadRequest)
			return
		}
		b, _ := io.ReadAll(f)
		if len(b) < 44 || string(b[:4]) != "RIFF" || binary.LittleEndian.Uint32(b[24:]) != 16000 || binary.LittleEndian.Uint16(b[22:]) != 1 {
			http.Error(w, `{"error":{"message":"not 16 kHz mono WAV"}}`, http.StatusBadRequest)
			return
		}
		switch m, _ := mode.Load().(string); m {
		case "down":
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
			return
		case "slow":
			time.Sleep(300 * time.Millisecond)
		case "garbage":
			io.WriteString(w, "<html>gateway</html>")
			return
		}
		secs := float64(len(b)-44) / 32000
		json.NewEncoder(w).Encode(map[string]any{"task": "transcribe", "language": "english", "duration": secs,
			"text": "Call the plumber.", "segments": []map[string]any{{"id": n, "start": 0.1, "end": secs - 0.1, "text": " Call the plumber."}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func tone(parts ...float64) []int16 {
	var out []int16
	for i, sec := range parts {
		for j := range int(sec * 16000) {
			v := 0.0
			if i%2 == 1 {
				v = 5000 * math.Sin(2*math.Pi*200*float64(j)/16000)
			}
			out = append(out, int16(v))
		}
	}
	return out
}

func TestBatchAndOutcomes(t *testing.T) {
	mode := &atomic.Value{}
	mode.Store("")
	srv, _ := fakeServer(t, mode)
	r, err := openaistt.New(openaistt.Config{BaseURL: srv.URL + "/v1", Model: "whisper-small", APIKey: key, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := r.Transcribe(context.Background(), tone(0.2, 1.5, 0.3), stt.Config{Language: "en-US"})
	if err != nil || tr.Text != "Call the plumber." || len(tr.Segments) != 1 || tr.Segments[0].Text != "Call the plumber." || tr.DetectedLanguage != "english" {
		t.Fatalf("%+v %v", tr, err)
	}
	for _, tc := range []struct {
		mode string
		key  string
		want stt.Outcome
	}{
		{"down", key, stt.UpstreamError},
		{"slow", key, stt.Timeout},
		{"garbage", key, stt.UpstreamError},
		{"", "sk-wrong", stt.ConfigError},
	} {
		mode.Store(tc.mode)
		r, _ := openaistt.New(openaistt.Config{BaseURL: srv.URL + "/v1", Model: "whisper-small", APIKey: tc.key, Timeout: 200 * time.Millisecond})
		_, err := r.Transcribe(context.Background(), tone(0.2, 1), stt.Config{Language: "en"})
		var e *stt.Error
		if !errors.As(err, &e) || e.Outcome != tc.want {
			t.Errorf("%s: %v, want %s", tc.mode, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "sk-wrong")) {
			t.Errorf("%s: the key is in the error: %v", tc.mode, err)
		}
	}
	if _, err := openaistt.New(openaistt.Config{BaseURL: "gpu-box:8000"}); err == nil {
		t.Fatal("an address without a scheme was accepted")
	}
	limited, _ := openaistt.New(openaistt.Config{BaseURL: srv.URL, Languages: []string{"en", "de"}})
	if !limited.Supports("de", 1) || limited.Supports("fr", 1) || limited.Supports("en", 2) {
		t.Fatal("language table")
	}
}

func TestStreamingPostsEachUtterance(t *testing.T) {
	mode := &atomic.Value{}
	mode.Store("")
	srv, calls := fakeServer(t, mode)
	r, _ := openaistt.New(openaistt.Config{BaseURL: srv.URL + "/v1", Model: "whisper-small", APIKey: key})
	st, err := r.Open(context.Background(), stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var got []stt.Word
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ws := range st.Words() {
			got = append(got, ws...)
		}
	}()
	audio := tone(0.3, 1.2, 1.0, 1.0, 0.2)
	for off := 0; off < len(audio); off += 320 {
		st.Send(audio[off:min(off+320, len(audio))])
	}
	st.Close()
	<-done
	if st.Err() != nil || calls.Load() != 2 || len(got) != 6 {
		t.Fatalf("%d calls, words %+v, err %v", calls.Load(), got, st.Err())
	}
	if got[3].Start < 2.2 || got[3].Start > got[4].Start {
		t.Fatalf("second utterance's words at %+v", got[3:])
	}
	// A server that goes down mid-session fails the stream, classified.
	mode.Store("down")
	st, _ = r.Open(context.Background(), stt.Config{Language: "en"})
	go func() {
		for range st.Words() {
		}
	}()
	for off := 0; off < len(audio); off += 320 {
		st.Send(audio[off:min(off+320, len(audio))])
	}
	st.Close()
	deadline := time.Now().Add(5 * time.Second)
	for st.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	var e *stt.Error
	if !errors.As(st.Err(), &e) || e.Outcome != stt.UpstreamError {
		t.Fatalf("stream failure: %v", st.Err())
	}
}
