package deepgram_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/deepgram"
)

const key = "dg-secret-key"

// fakeDeepgram speaks Deepgram's /v1/listen: a live socket that answers a
// final Results message per second of audio (words from a phrase, with a
// speaker), ignores KeepAlive, and on CloseStream sends Metadata and
// closes 1000; POST /v1/listen answers pre-recorded results. Shapes as in
// Deepgram's API reference.
type fakeDeepgram struct {
	mode      atomic.Value // "", "drop"
	keepAlive atomic.Int32
	query     atomic.Value
}

func (f *fakeDeepgram) serve(t *testing.T) *httptest.Server {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Token "+key {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials."}`)
			return
		}
		f.query.Store(r.URL.RawQuery)
		if r.Method == "POST" {
			b, _ := io.ReadAll(r.Body)
			secs := float64(len(b)-44) / 32000
			json.NewEncoder(w).Encode(map[string]any{"metadata": map[string]any{"duration": secs},
				"results": map[string]any{"channels": []any{map[string]any{"alternatives": []any{map[string]any{
					"transcript": "call the plumber", "words": words(0.1, 1, "call", "the", "plumber")}}}}}})
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		audio, sent := 0, 0.0
		for {
			kind, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if kind == websocket.TextMessage {
				switch {
				case strings.Contains(string(data), `"KeepAlive"`):
					f.keepAlive.Add(1)
				case strings.Contains(string(data), `"CloseStream"`):
					conn.WriteJSON(map[string]any{"type": "Metadata", "duration": float64(audio) / 32000})
					conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
					return
				}
				continue
			}
			audio += len(data)
			if float64(audio)/32000-sent >= 1 {
				conn.WriteJSON(map[string]any{"type": "Results", "is_final": true, "speech_final": true, "start": sent, "duration": 1.0,
					"channel": map[string]any{"alternatives": []any{map[string]any{"transcript": "hello there",
						"words": words(sent+0.1, 0.4, "hello", "there")}}}})
				sent += 1
				if m, _ := f.mode.Load().(string); m == "drop" {
					return // the connection drops without a close
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func words(start, each float64, ws ...string) []map[string]any {
	var out []map[string]any
	for i, w := range ws {
		out = append(out, map[string]any{"word": w, "punctuated_word": w, "start": start + float64(i)*each,
			"end": start + float64(i+1)*each, "confidence": 0.99, "speaker": i % 2})
	}
	return out
}

func TestLiveStreamFollowsTheProtocol(t *testing.T) {
	f := &fakeDeepgram{}
	srv := f.serve(t)
	r, err := deepgram.New(deepgram.Config{APIKey: key, BaseURL: srv.URL, KeepAlive: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1, Diarize: true})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := f.query.Load().(string)
	for _, want := range []string{"model=nova-3", "encoding=linear16", "sample_rate=16000", "endpointing=300", "interim_results=false",
		"no_delay=true", "punctuate=true", "smart_format=true", "diarize=true", "filler_words=false", "language=en"} {
		if !strings.Contains(q, want) {
			t.Errorf("query %q lacks %s", q, want)
		}
	}
	var got []stt.Word
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ws := range st.Words() {
			got = append(got, ws...)
		}
	}()
	time.Sleep(150 * time.Millisecond) // idle: KeepAlive goes out
	frame := make([]int16, 320)
	for range 100 { // 2 s
		if err := st.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond)
	st.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end after CloseStream")
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0].Text != "hello" || got[1].Speaker != 1 || got[2].Start < 1 {
		t.Fatalf("words %+v", got)
	}
	if f.keepAlive.Load() == 0 {
		t.Fatal("no KeepAlive while idle")
	}
}

func TestFailuresAreClassified(t *testing.T) {
	f := &fakeDeepgram{}
	srv := f.serve(t)
	bad, _ := deepgram.New(deepgram.Config{APIKey: "dg-wrong", BaseURL: srv.URL})
	_, err := bad.Open(context.Background(), stt.Config{Language: "en"})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.ConfigError || strings.Contains(err.Error(), "dg-wrong") {
		t.Fatalf("a wrong key: %v", err)
	}
	// A connection lost mid-stream is reported, never silently healed.
	f.mode.Store("drop")
	r, _ := deepgram.New(deepgram.Config{APIKey: key, BaseURL: srv.URL})
	st, err := r.Open(context.Background(), stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range 200 {
			if st.Send(make([]int16, 320)) != nil {
				return
			}
		}
	}()
	for range st.Words() {
	}
	if !errors.As(st.Err(), &e) || e.Outcome != stt.UpstreamError || e.Reason != "connection_lost" {
		t.Fatalf("a dropped connection: %v", st.Err())
	}
	if r.Supports("xx", 1) || !r.Supports("multi", 1) || !r.Supports("pt-BR", 1) {
		t.Fatal("language table")
	}
	if _, err := deepgram.New(deepgram.Config{}); err == nil {
		t.Fatal("no key accepted")
	}
}

func TestPreRecorded(t *testing.T) {
	f := &fakeDeepgram{}
	srv := f.serve(t)
	r, _ := deepgram.New(deepgram.Config{APIKey: key, BaseURL: srv.URL})
	tr, err := r.Transcribe(context.Background(), make([]int16, 32000), stt.Config{Language: "zh", Diarize: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Text != "call the plumber" || len(tr.Segments) != 3 || tr.Segments[1].Speaker != "SPEAKER_01" {
		t.Fatalf("%+v", tr)
	}
	if q, _ := f.query.Load().(string); !strings.Contains(q, "model=nova-2-general") || strings.Contains(q, "encoding=") {
		t.Fatalf("pre-recorded query %q", q)
	}
}
