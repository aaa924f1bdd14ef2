package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

const sttScript = `{"utterances":[{"text":"Call the plumber about the kitchen sink."},{"text":"Then buy bread and coffee."}]%s}`

// upload posts files as multipart (field name per file) plus form fields.
func upload(t *testing.T, url, token string, files map[string]string, fields map[string]string) (int, string, http.Header) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, kv := range sortedPairs(files) {
		field, path, _ := strings.Cut(kv, "=")
		name := filepath.Base(path)
		if strings.HasPrefix(field, "nofilename:") {
			field, name = strings.TrimPrefix(field, "nofilename:"), ""
		}
		field, _, _ = strings.Cut(field, "#")
		w, _ := mw.CreatePart(map[string][]string{"Content-Disposition": {fmt.Sprintf(`form-data; name=%q; filename=%q`, field, name)},
			"Content-Type": {"audio/wav"}})
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", url, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// sortedPairs keeps the order of files stable: "field#n=path" keys.
func sortedPairs(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func rawPCM(t *testing.T, wav string) []byte {
	t.Helper()
	b, err := os.ReadFile(wav)
	if err != nil || len(b) < 44 {
		t.Fatalf("read %s: %v", wav, err)
	}
	return b[44:] // text2wave and sox write a plain 44-byte header
}

func postRaw(t *testing.T, url, token string, body []byte) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func silenceWAV(t *testing.T, seconds string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "silence.wav")
	mustRun(t, "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path, "trim", "0", seconds)
	return path
}

func TestSTTTranscribeEndToEnd(t *testing.T) {
	t.Parallel()
	speech := speechWAV(t, "Call the plumber about the kitchen sink.", "Then buy bread and coffee.")
	// The same speech at 44.1 kHz stereo, as a phone records it.
	stereo := filepath.Join(t.TempDir(), "stereo.wav")
	mustRun(t, "sox", speech, "-r", "44100", "-c", "2", stereo)
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, fmt.Sprintf(sttScript, "")))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	url := srv.base + "/v1/stt/transcribe"

	code, body, _ := upload(t, url, token, map[string]string{"file": stereo}, nil)
	var res struct {
		Text     string
		Segments []struct {
			Start, End float64
			Text       string
			Speaker    *string
		}
		DetectedLanguage string `json:"detected_language"`
	}
	json.Unmarshal([]byte(body), &res)
	if code != 200 || res.Text != "Call the plumber about the kitchen sink. Then buy bread and coffee." || len(res.Segments) != 2 ||
		res.DetectedLanguage != "en" || res.Segments[0].Speaker == nil || *res.Segments[0].Speaker != "SPEAKER_00" {
		t.Fatalf("transcribe: %d %s", code, body)
	}
	if s := res.Segments[1]; s.Start <= res.Segments[0].End || s.End <= s.Start {
		t.Fatalf("segment times %+v", res.Segments)
	}
	code, body, _ = upload(t, url, token, map[string]string{"file": speech}, map[string]string{"diarize": "false"})
	if code != 200 || strings.Contains(body, `"speaker"`) {
		t.Fatalf("diarize=false: %d %s", code, body)
	}
	// A phone's voice memo (AAC in M4A) reads through libavformat.
	m4a := filepath.Join(t.TempDir(), "memo.m4a")
	mustRun(t, "ffmpeg", "-hide_banner", "-loglevel", "error", "-i", speech, "-c:a", "aac", m4a)
	code, body, _ = upload(t, url, token, map[string]string{"file": m4a}, nil)
	if audio.ReadsContainers() && (code != 200 || !strings.Contains(body, `"text":"Call the plumber`)) ||
		!audio.ReadsContainers() && (code != 400 || !strings.Contains(body, "libavformat")) {
		t.Fatalf("m4a (containers read: %v): %d %s", audio.ReadsContainers(), code, body)
	}
	// Uploads leave nothing behind.
	if left, _ := filepath.Glob(filepath.Join(data, "tmp", "*")); len(left) != 0 {
		t.Fatalf("uploads left behind: %v", left)
	}

	notAudio := filepath.Join(t.TempDir(), "notes.wav")
	os.WriteFile(notAudio, []byte("these are my notes, not a recording"), 0o600)
	empty := filepath.Join(t.TempDir(), "empty.wav")
	os.WriteFile(empty, nil, 0o600)
	for _, tc := range []struct {
		name   string
		token  string
		files  map[string]string
		fields map[string]string
		code   int
		want   string
	}{
		{"no token", "", map[string]string{"file": speech}, nil, 401, ""},
		{"empty file", token, map[string]string{"file": empty}, nil, 400, "No audio data provided"},
		{"not audio", token, map[string]string{"file": notAudio}, nil, 400, "Invalid audio file"},
		{"no file field", token, map[string]string{"recording": speech}, nil, 422, `"loc":["body","file"]`},
		{"bad diarize", token, map[string]string{"file": speech}, map[string]string{"diarize": "perhaps"}, 422, "diarize"},
	} {
		code, body, _ := upload(t, url, tc.token, tc.files, tc.fields)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want %d %q", tc.name, code, body, tc.code, tc.want)
		}
	}

	// Over 200 MB is refused from Content-Length, before any of it is read.
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/stt/transcribe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 200000001\r\n\r\n", token)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	reply, _ := io.ReadAll(io.LimitReader(conn, 512))
	if !strings.HasPrefix(string(reply), "HTTP/1.1 413") || !strings.Contains(string(reply), "Body too large (max 200000000 bytes)") {
		t.Fatalf("over 200 MB: %q", reply)
	}
}

func TestSTTTranscribeFailures(t *testing.T) {
	t.Parallel()
	speech := speechWAV(t, "Call the plumber about the kitchen sink.")
	for _, tc := range []struct {
		name  string
		env   []string
		code  int
		want  string
		retry bool
	}{
		{"no route", []string{"HEARTH_STT_ROUTES=none"}, 503, "Transcription service not configured", false},
		{"busy", []string{writeScript(t, fmt.Sprintf(sttScript, `,"batch_failure":"busy"`))}, 503, "busy", true},
		{"upstream", []string{writeScript(t, fmt.Sprintf(sttScript, `,"batch_failure":"upstream_error"`))}, 502, "Transcription failed upstream", false},
		{"too long", []string{writeScript(t, fmt.Sprintf(sttScript, "")), "HEARTH_STT_MAX_DURATION=2s"}, 413, "Audio too long", false},
		{"rate limit", []string{writeScript(t, fmt.Sprintf(sttScript, "")), "HEARTH_RATE_LIMIT_BOOST=0.02"}, 429, "Rate limit exceeded", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := t.TempDir()
			// Only the scripted route: no local route to fall back to.
			srv := startServe(t, data, append(tc.env, "HEARTH_STT_ROUTES=none")...)
			uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
			token := mustCLI(t, "token", "--data", data, "--user", uid)
			var code int
			var body string
			var h http.Header
			for range 3 { // the rate limit case: 60/h × 0.02 allows one
				code, body, h = upload(t, srv.base+"/v1/stt/transcribe", token, map[string]string{"file": speech}, nil)
			}
			if code != tc.code || !strings.Contains(body, tc.want) || (h.Get("Retry-After") != "") != tc.retry {
				t.Fatalf("%d %s (Retry-After %q), want %d %q", code, body, h.Get("Retry-After"), tc.code, tc.want)
			}
			if strings.Contains(body, "scripted") {
				t.Fatalf("the route's own error reached the client: %s", body)
			}
		})
	}
}

func TestVoiceMessagesEndToEnd(t *testing.T) {
	t.Parallel()
	speech := speechWAV(t, "Call the plumber about the kitchen sink.")
	data := t.TempDir()
	// A budget of 2 s: the first message (about 3.5 s) starts within it, the next does not.
	srv := startServe(t, data, writeScript(t, fmt.Sprintf(sttScript, "")), "HEARTH_VOICE_BUDGET=2s")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	// Each check below gets a user of its own, with the whole budget.
	fresh := func() string {
		return mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Bo"))
	}

	// Raw PCM as the desktop app sends it.
	code, body := postRaw(t, srv.base+"/v2/voice-message/transcribe?language=en&sample_rate=16000&channels=1&encoding=linear16", token, rawPCM(t, speech))
	var res map[string]any
	json.Unmarshal([]byte(body), &res)
	if code != 200 || res["transcript"] != "Call the plumber about the kitchen sink." || res["outcome"] != "success" ||
		res["stt_provider"] != "scripted" || res["stt_model"] != "" {
		t.Fatalf("raw voice message: %d %s", code, body)
	}
	code, body = postRaw(t, srv.base+"/v2/voice-message/transcribe", token, rawPCM(t, speech))
	if code != 429 || !strings.Contains(body, "Daily transcription budget exhausted") {
		t.Fatalf("over budget: %d %s", code, body)
	}

	// Silence is a 200 with nothing said; bad queries and bodies are refused.
	code, body = postRaw(t, srv.base+"/v2/voice-message/transcribe", fresh(), rawPCM(t, silenceWAV(t, "2")))
	if code != 200 || !strings.Contains(body, `"outcome":"expected_silence"`) || !strings.Contains(body, `"transcript":""`) {
		t.Fatalf("silence: %d %s", code, body)
	}
	other := fresh()
	for _, tc := range []struct {
		query string
		body  []byte
		code  int
		want  string
	}{
		{"sample_rate=4000", []byte{1, 2, 3, 4}, 422, "sample_rate"},
		{"channels=3", []byte{1, 2, 3, 4}, 422, "channels"},
		{"encoding=mulaw", []byte{1, 2, 3, 4}, 422, "encoding"},
		{"keywords=a,ok", []byte{1, 2, 3, 4}, 422, "keywords"},
		{"", nil, 400, "No audio data provided"},
	} {
		code, body := postRaw(t, srv.base+"/v2/voice-message/transcribe?"+tc.query, other, tc.body)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s", tc.query, code, body)
		}
	}

	// Multipart files, in order; every file needs a name.
	short := speechWAV(t, "Then buy bread and coffee.")
	code, body, _ = upload(t, srv.base+"/v2/voice-message/transcribe", fresh(), map[string]string{"files#1": speech, "files#2": short}, nil)
	if code != 200 || !strings.Contains(body, `"transcript":"Then buy bread and coffee. Call the plumber about the kitchen sink."`) &&
		!strings.Contains(body, `"transcript":"Call the plumber about the kitchen sink. Then buy bread and coffee."`) {
		t.Fatalf("files: %d %s", code, body)
	}
	code, body, _ = upload(t, srv.base+"/v2/voice-message/transcribe", other, map[string]string{"nofilename:files": speech}, nil)
	if code != 400 || !strings.Contains(body, "Each uploaded file must have a filename") {
		t.Fatalf("nameless file: %d %s", code, body)
	}
	code, body, _ = upload(t, srv.base+"/v2/voice-message/transcribe", other, map[string]string{"other": speech}, nil)
	if code != 400 || !strings.Contains(body, "No files provided") {
		t.Fatalf("no files: %d %s", code, body)
	}

	// The SSE variant: a message frame, and an empty stream for silence.
	code, body, _ = upload(t, srv.base+"/v2/voice-messages", fresh(), map[string]string{"files": speech}, nil)
	frame, ok := strings.CutPrefix(body, "message: ")
	if code != 200 || !ok || !strings.HasSuffix(frame, "\n\n") {
		t.Fatalf("voice-messages: %d %q", code, body)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(frame))
	var msg map[string]any
	if err != nil || json.Unmarshal(raw, &msg) != nil || msg["text"] == "" || !strings.Contains(fmt.Sprintf(sttScript, ""), fmt.Sprint(msg["text"])) ||
		msg["sender"] != "human" || msg["type"] != "text" || msg["id"] == "" {
		t.Fatalf("message frame %s (%v)", raw, err)
	}
	code, body, _ = upload(t, srv.base+"/v2/voice-messages", fresh(), map[string]string{"files": silenceWAV(t, "1")}, nil)
	if code != 200 || body != "" {
		t.Fatalf("silence stream: %d %q", code, body)
	}
}

func TestVoiceMessageSafeFailures(t *testing.T) {
	t.Parallel()
	speech := speechWAV(t, "Call the plumber about the kitchen sink.")
	for _, tc := range []struct {
		failure, errName string
		code             int
		retryable        bool
	}{
		{"empty", "stt_empty_unexpected", 502, true},
		{"upstream_error", "stt_upstream_error", 502, true},
		{"config_error", "stt_provider_configuration_error", 503, false},
	} {
		t.Run(tc.failure, func(t *testing.T) {
			t.Parallel()
			data := t.TempDir()
			srv := startServe(t, data, writeScript(t, fmt.Sprintf(sttScript, `,"batch_failure":"`+tc.failure+`"`)), "HEARTH_STT_ROUTES=none")
			token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
			code, body := postRaw(t, srv.base+"/v2/voice-message/transcribe", token, rawPCM(t, speech))
			var got struct{ Detail map[string]any }
			json.Unmarshal([]byte(body), &got)
			d := got.Detail
			if code != tc.code || d["error"] != tc.errName || d["outcome"] == "" || d["provider"] != "unknown" ||
				d["retryable"] != tc.retryable || d["message"] == "" || len(d) != 5 {
				t.Fatalf("%d %s", code, body)
			}
			// The stream variant ends with an error frame carrying the same object.
			code, body, _ = upload(t, srv.base+"/v2/voice-messages", token, map[string]string{"files": speech}, nil)
			frame, ok := strings.CutPrefix(body, "error: ")
			var f map[string]any
			if code != 200 || !ok || json.Unmarshal([]byte(strings.TrimSpace(frame)), &f) != nil || f["error"] != tc.errName {
				t.Fatalf("stream failure: %d %q", code, body)
			}
		})
	}
	// Bytes that are no audio are the client's fault: invalid_input.
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, fmt.Sprintf(sttScript, "")))
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	notAudio := filepath.Join(t.TempDir(), "memo.m4a")
	os.WriteFile(notAudio, []byte("definitely not audio"), 0o600)
	code, body, _ := upload(t, srv.base+"/v2/voice-message/transcribe", token, map[string]string{"files": notAudio}, nil)
	if code != 400 || !strings.Contains(body, `"error":"stt_invalid_input"`) || !strings.Contains(body, `"retryable":false`) {
		t.Fatalf("invalid input: %d %s", code, body)
	}
}

func TestSTTRoutesOrderIsChecked(t *testing.T) {
	t.Parallel()
	_, errOut, code := cli(t, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--stt-routes", "telepathy")
	if code != 2 || !strings.Contains(errOut, `unknown route "telepathy"`) {
		t.Fatalf("exit %d %s", code, errOut)
	}
}
