package speechmatics_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/speechmatics"
)

const key = "speechmatics-secret"

// session is what the fake saw of one session.
type session struct {
	start       map[string]any
	frames      int
	lastSeqNo   float64
	endOfStream bool
}

// fakeSpeechmatics speaks the real-time API (/v2): the key on the
// handshake, StartRecognition answered by RecognitionStarted (or an Error
// for a configuration it refuses), AudioAdded for every binary frame with
// its sequence number, an AddPartialTranscript and an AddTranscript (two
// speakers, punctuation attached to the word before it) per second of
// audio, and EndOfTranscript after EndOfStream. failAfter > 0 makes it
// send an Error of that type after so many frames.
func fakeSpeechmatics(t *testing.T, seen chan *session, failAfter int, failType string) *httptest.Server {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v2" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		s := &session{}
		defer func() {
			select {
			case seen <- s:
			default:
			}
		}()
		if err := conn.ReadJSON(&s.start); err != nil || s.start["message"] != "StartRecognition" {
			conn.WriteJSON(map[string]any{"message": "Error", "type": "protocol_error", "reason": "StartRecognition expected"})
			return
		}
		af, _ := s.start["audio_format"].(map[string]any)
		if af["type"] != "raw" || af["encoding"] != "pcm_s16le" || af["sample_rate"] != 16000.0 {
			conn.WriteJSON(map[string]any{"message": "Error", "type": "invalid_audio_type", "reason": "unsupported audio"})
			return
		}
		conn.WriteJSON(map[string]any{"message": "RecognitionStarted", "id": "job-1"})
		audio, sent := 0, 0
		for {
			typ, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if typ == websocket.TextMessage {
				var m map[string]any
				if err := json.Unmarshal(data, &m); err != nil || m["message"] != "EndOfStream" {
					conn.WriteJSON(map[string]any{"message": "Error", "type": "invalid_message", "reason": "unexpected"})
					return
				}
				s.endOfStream, s.lastSeqNo = true, m["last_seq_no"].(float64)
				conn.WriteJSON(map[string]any{"message": "EndOfTranscript"})
				return
			}
			s.frames++
			conn.WriteJSON(map[string]any{"message": "AudioAdded", "seq_no": s.frames})
			if failAfter > 0 && s.frames >= failAfter {
				conn.WriteJSON(map[string]any{"message": "Error", "type": failType, "reason": "failing as told: " + key})
				return
			}
			audio += len(data)
			for audio/32000 > sent {
				at := float64(sent)
				conn.WriteJSON(map[string]any{"message": "AddPartialTranscript", "metadata": map[string]any{"transcript": "hel"},
					"results": []any{word("hel", "S1", at+0.1, at+0.2)}})
				conn.WriteJSON(map[string]any{"message": "AddTranscript", "format": "2.9",
					"metadata": map[string]any{"start_time": at, "end_time": at + 1, "transcript": "Hello, world."},
					"results": []any{
						word("Hello", "S1", at+0.1, at+0.3),
						map[string]any{"type": "punctuation", "start_time": at + 0.3, "end_time": at + 0.3, "attaches_to": "previous",
							"alternatives": []any{map[string]any{"content": ",", "confidence": 1, "speaker": "S1"}}},
						word("world", "S2", at+0.4, at+0.8),
						map[string]any{"type": "punctuation", "start_time": at + 0.8, "end_time": at + 0.8, "attaches_to": "previous", "is_eos": true,
							"alternatives": []any{map[string]any{"content": ".", "confidence": 1, "speaker": "S2"}}},
					}})
				sent++
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func word(text, speaker string, start, end float64) map[string]any {
	return map[string]any{"type": "word", "start_time": start, "end_time": end,
		"alternatives": []any{map[string]any{"content": text, "confidence": 0.98, "language": "en", "speaker": speaker}}}
}

func wsURL(s *httptest.Server) string { return strings.Replace(s.URL, "http://", "ws://", 1) + "/v2" }

func TestSpeechmaticsLiveAndBatch(t *testing.T) {
	seen := make(chan *session, 4)
	srv := fakeSpeechmatics(t, seen, 0, "")
	r, err := speechmatics.New(speechmatics.Config{APIKey: key, URL: wsURL(srv)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Open(context.Background(), stt.Config{Language: "en-US", Diarize: true})
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
	for range 100 { // 2 s in 20 ms frames
		if err := st.Send(make([]int16, 320)); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no EndOfTranscript")
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, w := range got {
		texts = append(texts, w.Text)
	}
	if strings.Join(texts, " ") != "Hello, world. Hello, world." || got[0].Speaker != 1 || got[1].Speaker != 2 || got[2].Start < 1 {
		t.Fatalf("words %+v (partials must not be taken; punctuation joins its word)", got)
	}
	s := <-seen
	tc, _ := s.start["transcription_config"].(map[string]any)
	if tc["language"] != "en" || tc["diarization"] != "speaker" || tc["operating_point"] != "enhanced" {
		t.Fatalf("StartRecognition %v", s.start)
	}
	if !s.endOfStream || s.lastSeqNo != float64(s.frames) || s.frames != 100 {
		t.Fatalf("EndOfStream last_seq_no %v after %d frames", s.lastSeqNo, s.frames)
	}

	tr, err := r.Transcribe(context.Background(), make([]int16, 16000), stt.Config{Language: "multi", Diarize: true})
	if err != nil || tr.Text != "Hello, world." || len(tr.Segments) != 2 || tr.Segments[1].Speaker != "SPEAKER_02" {
		t.Fatalf("batch %+v %v", tr, err)
	}
	if tc, _ := (<-seen).start["transcription_config"].(map[string]any); tc["language"] != "auto" {
		t.Fatalf("multi asked for %v, want auto (language identification)", tc["language"])
	}
}

// TestSpeechmaticsFailures: every failure is classified, and neither the
// key nor the vendor's reason text reaches an error.
func TestSpeechmaticsFailures(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failType string
		want     stt.Outcome
	}{
		{"quota", "quota_exceeded", stt.ConfigError},
		{"bad audio", "invalid_audio_type", stt.InvalidInput},
		{"time limit", "timelimit_exceeded", stt.Timeout},
		{"vendor fault", "internal_error", stt.UpstreamError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeSpeechmatics(t, make(chan *session, 4), 3, tc.failType)
			r, _ := speechmatics.New(speechmatics.Config{APIKey: key, URL: wsURL(srv)})
			st, err := r.Open(context.Background(), stt.Config{Language: "en"})
			if err != nil {
				t.Fatal(err)
			}
			for range 10 {
				st.Send(make([]int16, 320))
				time.Sleep(5 * time.Millisecond)
			}
			st.Close()
			for range st.Words() {
			}
			var e *stt.Error
			if err := st.Err(); !errors.As(err, &e) || e.Outcome != tc.want || strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "failing as told") {
				t.Fatalf("error %v, want outcome %s without the key or the vendor's text", err, tc.want)
			}
		})
	}

	srv := fakeSpeechmatics(t, make(chan *session, 4), 0, "")
	bad, _ := speechmatics.New(speechmatics.Config{APIKey: "speechmatics-wrong", URL: wsURL(srv)})
	_, err := bad.Open(context.Background(), stt.Config{Language: "en"})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.ConfigError || strings.Contains(err.Error(), "speechmatics-wrong") {
		t.Fatalf("wrong key: %v", err)
	}
	good, _ := speechmatics.New(speechmatics.Config{APIKey: key, URL: wsURL(srv)})
	if _, err := good.Open(context.Background(), stt.Config{Language: "tlh"}); !errors.As(err, &e) || e.Outcome != stt.ConfigError {
		t.Fatalf("an unserved language: %v", err)
	}
	if good.Supports("tlh", 1) || !good.Supports("de-AT", 1) || !good.Supports("multi", 1) || good.Supports("en", 2) {
		t.Fatal("language table")
	}
	for _, cfg := range []speechmatics.Config{{APIKey: key, URL: "https://example.org"}, {APIKey: key, OperatingPoint: "turbo"}, {}} {
		if _, err := speechmatics.New(cfg); err == nil {
			t.Fatalf("%+v was accepted", cfg)
		}
	}
	srv.Close() // the server goes away
	if _, err := good.Open(context.Background(), stt.Config{Language: "en"}); !errors.As(err, &e) || e.Outcome != stt.UpstreamError {
		t.Fatalf("unreachable: %v", err)
	}
}
