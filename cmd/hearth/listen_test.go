package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// speechWAV synthesises sentences with Festival's HTS voice at 16 kHz, with
// a second and a half of silence after each, and returns the WAV file.
func speechWAV(t *testing.T, sentences ...string) string {
	t.Helper()
	dir := t.TempDir()
	var parts []string
	for i, s := range sentences {
		txt, wav, padded := filepath.Join(dir, "s.txt"), filepath.Join(dir, "s.wav"), filepath.Join(dir, "p"+strconv.Itoa(i)+".wav")
		os.WriteFile(txt, []byte(s), 0o600)
		mustRun(t, "text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", wav, txt)
		mustRun(t, "sox", wav, padded, "pad", "0", "1.5")
		parts = append(parts, padded)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	all := filepath.Join(dir, "all.wav")
	mustRun(t, "sox", append(parts, all)...)
	return all
}

// speechOpusFS320 is speech encoded as current Omi firmware sends it: Opus,
// CELT only, 20 ms frames, 32 kbps, one packet per message.
func speechOpusFS320(t *testing.T, sentences ...string) [][]byte {
	t.Helper()
	return encodeFrames(t, "opus_fs320", speechWAV(t, sentences...))
}

// encodeFrames encodes a 16 kHz WAV as a wearable sends codec: one message
// per frame.
func encodeFrames(t *testing.T, codec, wav string) [][]byte {
	t.Helper()
	dir := t.TempDir()
	ff := func(args ...string) {
		mustRun(t, "ffmpeg", append([]string{"-hide_banner", "-loglevel", "error", "-y", "-i", wav}, args...)...)
	}
	switch codec {
	case "opus_fs320":
		out := filepath.Join(dir, "s.ogg")
		ff("-c:a", "libopus", "-application", "lowdelay", "-frame_duration", "20", "-b:a", "32k", out)
		return oggOpusPackets(t, out)
	case "opus": // the DevKit: SILK, 10 ms frames
		out := filepath.Join(dir, "s.ogg")
		ff("-c:a", "libopus", "-application", "voip", "-frame_duration", "10", "-b:a", "20k", "-cutoff", "8000", out)
		return oggOpusPackets(t, out)
	case "pcm16", "pcm8":
		rate := map[string]string{"pcm16": "16000", "pcm8": "8000"}[codec]
		out := filepath.Join(dir, "s.raw")
		ff("-f", "s16le", "-ar", rate, "-ac", "1", out)
		b, _ := os.ReadFile(out)
		n := 640 * 16000 / map[string]int{"pcm16": 16000, "pcm8": 32000}[codec] // 20 ms
		var frames [][]byte
		for off := 0; off < len(b); off += n {
			frames = append(frames, b[off:min(off+n, len(b))])
		}
		return frames
	case "lc3_fs1030":
		out := filepath.Join(dir, "s.lc3")
		mustRun(t, "elc3", "-b", "24000", "-m", "10", wav, out)
		b, _ := os.ReadFile(out)
		var frames [][]byte
		for off := int(b[2]) | int(b[3])<<8; off+2 <= len(b); {
			n := int(b[off]) | int(b[off+1])<<8
			frames = append(frames, b[off+2:off+2+n])
			off += 2 + n
		}
		return frames
	case "aac":
		out := filepath.Join(dir, "s.aac")
		ff("-c:a", "aac", "-b:a", "32k", "-f", "adts", out)
		b, _ := os.ReadFile(out)
		var frames [][]byte
		for off := 0; off+7 <= len(b); {
			n := int(b[off+3]&0x03)<<11 | int(b[off+4])<<3 | int(b[off+5])>>5
			frames = append(frames, b[off:off+n])
			off += n
		}
		return frames
	}
	t.Fatalf("no encoder for %s", codec)
	return nil
}

func mustRun(t *testing.T, name string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("%s is not installed (scripts/deps.sh test installs it)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// oggOpusPackets returns an Ogg Opus file's audio packets.
func oggOpusPackets(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var packets [][]byte
	var cur []byte
	for off := 0; off+27 <= len(b); {
		nseg := int(b[off+26])
		data := off + 27 + nseg
		for _, l := range b[off+27 : off+27+nseg] {
			cur = append(cur, b[data:data+int(l)]...)
			data += int(l)
			if l < 255 {
				packets = append(packets, cur)
				cur = nil
			}
		}
		off = data
	}
	return packets[2:]
}

// writeScript writes a scripted speech route's script and returns the
// environment that turns it on.
func writeScript(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	return "HEARTH_STT_SCRIPT=" + path
}

// appQuery is the query string the Omi app sends, in its order.
func appQuery(uid, codec string, timeout int, extra string) string {
	q := "language=en&sample_rate=16000&codec=" + codec + "&uid=" + uid +
		"&include_speech_profile=true&stt_service=soniox&conversation_timeout=" + strconv.Itoa(timeout)
	if extra != "" {
		q += "&" + extra
	}
	return q + "&speaker_auto_assign=enabled&create_speakers=false"
}

type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
	// messages: text frames as they came
	msgs chan wsMsg
}

type wsMsg struct {
	text      string
	closeCode int
	closeText string
}

// dialListen opens /v4/listen with query and, unless token is empty, the
// token as a Bearer credential (the socket refuses a connection without
// one).
func dialListen(t *testing.T, base, query, token string) *wsClient {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return dialListenWith(t, base, query, h)
}

// ownerToken is an ID token for uid, minted by the CLI as the owner would.
func ownerToken(t *testing.T, data, uid string) string {
	t.Helper()
	return mustCLI(t, "token", "--data", data, "--user", uid)
}

// dialListenWith opens /v4/listen with query and the headers h.
func dialListenWith(t *testing.T, base, query string, h http.Header) *wsClient {
	t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial(strings.Replace(base, "http://", "ws://", 1)+"/v4/listen?"+query, h)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	c := &wsClient{t: t, conn: conn, msgs: make(chan wsMsg, 1024)}
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				var ce *websocket.CloseError
				if errors.As(err, &ce) {
					c.msgs <- wsMsg{closeCode: ce.Code, closeText: ce.Text}
				}
				return
			}
			c.msgs <- wsMsg{text: string(data)}
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return c
}

// until reads messages until one satisfies ok, failing after d.
func (c *wsClient) until(d time.Duration, what string, ok func(wsMsg) bool) wsMsg {
	c.t.Helper()
	deadline := time.After(d)
	var closed wsMsg // the close frame, when one came, for the failure's message
	for {
		select {
		case m, open := <-c.msgs:
			if !open {
				c.t.Fatalf("socket closed (%d %q) while waiting for %s", closed.closeCode, closed.closeText, what)
			}
			if m.closeCode != 0 {
				closed = m
			}
			if ok(m) {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no %s within %v", what, d)
		}
	}
}

func event(m wsMsg, typ string) map[string]any {
	var v map[string]any
	if json.Unmarshal([]byte(m.text), &v) != nil || v["type"] != typ {
		return nil
	}
	return v
}

func segmentsOf(m wsMsg) []map[string]any {
	var v []map[string]any
	if !strings.HasPrefix(m.text, "[") || json.Unmarshal([]byte(m.text), &v) != nil {
		return nil
	}
	return v
}

// stream sends packets at speed× real time (20 ms frames). It runs in its
// own goroutine and stops when the server has closed the socket.
func (c *wsClient) stream(packets [][]byte, speed float64) {
	for i, p := range packets {
		if err := c.conn.WriteMessage(websocket.BinaryMessage, p); err != nil {
			return
		}
		if i%25 == 0 { // the app's keep-alive answer, mixed in as it would be
			c.conn.WriteMessage(websocket.BinaryMessage, []byte{0x8A, 0x00})
		}
		time.Sleep(time.Duration(float64(20*time.Millisecond) / speed))
	}
}

// streamThenKeepAlive streams packets, then answers keep-alives as the
// app does while it stays connected (a socket silent for 90 s is closed
// for inactivity), until stop is closed.
func (c *wsClient) streamThenKeepAlive(packets [][]byte, speed float64, stop <-chan struct{}) {
	c.stream(packets, speed)
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if c.conn.WriteMessage(websocket.BinaryMessage, []byte{0x8A, 0x00}) != nil {
				return
			}
		}
	}
}

// TestListenEndToEnd streams real Opus speech as current firmware does,
// with the app's exact query string and token, and follows one recording
// from the first segment to the processed conversation.
func TestListenEndToEnd(t *testing.T) {
	t.Parallel()
	packets := speechOpusFS320(t,
		"We need to finish the quarterly budget before the board meeting on Friday.",
		"I will send the revised numbers to the finance team tomorrow morning.")
	data := t.TempDir()
	script := writeScript(t, `{"name":"scripted","utterances":[
		{"text":"We need to finish the quarterly budget before the board meeting on Friday.","speaker":0},
		{"text":"I will send the revised numbers to the finance team tomorrow morning.","speaker":1}]}`)
	srv := startServe(t, data, script)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")

	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 2, ""), token)
	ready := event(c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil }), "service_status")
	if ready["status"] != "ready" || ready["provider"] != "scripted" {
		t.Fatalf("ready event %v", ready)
	}
	go c.stream(packets, 4)
	var texts []string
	var ids []string
	for len(texts) < 2 {
		m := c.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil })
		for _, s := range segmentsOf(m) {
			texts = append(texts, s["text"].(string))
			ids = append(ids, s["id"].(string))
			if s["stt_provider"] != "scripted" || s["speaker"] == nil || s["end"].(float64) <= s["start"].(float64) {
				t.Fatalf("segment %v", s)
			}
		}
	}
	if !strings.Contains(texts[0], "quarterly budget") || !strings.Contains(texts[len(texts)-1], "finance team") {
		t.Fatalf("segments %q", texts)
	}
	// Two seconds of silence (conversation_timeout=2) end the recording.
	started := event(c.until(20*time.Second, "memory_processing_started", func(m wsMsg) bool { return event(m, "memory_processing_started") != nil }), "memory_processing_started")
	created := event(c.until(20*time.Second, "memory_created", func(m wsMsg) bool { return event(m, "memory_created") != nil }), "memory_created")
	mem := created["memory"].(map[string]any)
	if started["memory"].(map[string]any)["id"] != mem["id"] || mem["status"] != "completed" {
		t.Fatalf("processing events: %v / %v", started, created)
	}
	if title := mem["structured"].(map[string]any)["title"].(string); title == "" {
		t.Fatalf("processed without a title: %v", mem)
	}
	status, body := srv.call(t, "GET", "/v1/dev/user/conversations/"+mem["id"].(string)+"?include_transcript=true", key, "")
	if status != 200 || !strings.Contains(body, "quarterly budget") || !strings.Contains(body, ids[0]) && !strings.Contains(body, "finance team") {
		t.Fatalf("stored conversation: %d %s", status, body)
	}
}

// TestListenRefusals: a uid alone, a credential that is missing, malformed,
// someone else's or expired, and bad parameters each close the socket
// with the reason the app logs.
func TestListenRefusals(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"hello"}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	other := mustCLI(t, "users", "add", "--data", data, "--name", "Grace")
	mine := ownerToken(t, data, uid)
	theirs := ownerToken(t, data, other)
	expired := mustCLI(t, "token", "--data", data, "--user", uid, "--ttl", "1s")
	time.Sleep(1100 * time.Millisecond)
	const invalid = "Invalid token"
	for _, tc := range []struct {
		name, query, auth string // auth: the whole Authorization header, "" for none
		code              int
		reason            string
	}{
		{"a uid alone", appQuery(uid, "opus_fs320", 120, ""), "", 1008, "Auth error: an ID token (hearth token) or a device key (hearth keys create --kind stt) is required"},
		{"Bearer and nothing", appQuery(uid, "opus_fs320", 120, ""), "Bearer ", 1008, invalid},
		{"Basic", appQuery(uid, "opus_fs320", 120, ""), "Basic eDp5", 1008, invalid},
		{"garbage token", appQuery(uid, "opus_fs320", 120, ""), "Bearer not-a-token", 1008, invalid},
		{"another user's token", appQuery(uid, "pcm16", 120, ""), "Bearer " + theirs, 1008, invalid},
		{"own token, another user's uid", appQuery(other, "pcm16", 120, ""), "Bearer " + mine, 1008, invalid},
		{"own token, unknown uid", appQuery("nobody", "pcm16", 120, ""), "Bearer " + mine, 1008, invalid},
		{"expired token", appQuery(uid, "pcm16", 120, ""), "Bearer " + expired, 4001, "Token expired"},
		{"missing uid", "codec=pcm16", "Bearer " + mine, 1008, "Bad uid"},
		{"bad timeout", appQuery(uid, "pcm16", 1, ""), "Bearer " + mine, 1008, "conversation_timeout"},
		{"unknown codec", strings.Replace(appQuery(uid, "pcm16", 120, ""), "pcm16", "mp3", 1), "Bearer " + mine, 1008, "Invalid codec"},
		{"unsupported language", strings.Replace(appQuery(uid, "pcm16", 120, ""), "language=en", "language=xx", 1), "Bearer " + mine, 1008, "language is not supported"},
	} {
		h := http.Header{}
		if tc.auth != "" {
			h.Set("Authorization", tc.auth)
		}
		c := dialListenWith(t, srv.base, tc.query, h)
		m := c.until(10*time.Second, "close", func(m wsMsg) bool { return m.closeCode != 0 })
		if m.closeCode != tc.code || !strings.Contains(m.closeText, tc.reason) {
			t.Errorf("%s: close %d %q, want %d %q", tc.name, m.closeCode, m.closeText, tc.code, tc.reason)
		}
	}
}

// TestListenCustomSTT: with custom_stt=enabled the app transcribes; its
// segments are taken even before any audio, carry its provider's name, and
// are stored.
func TestListenCustomSTT(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 120, "custom_stt=enabled"), ownerToken(t, data, uid))
	ready := event(c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil }), "service_status")
	if ready["status"] != "ready" || ready["provider"] != nil {
		t.Fatalf("ready %v", ready)
	}
	c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"suggested_transcript","stt_provider":"on-device","segments":[
		{"text":"Remind me to water the tomatoes tonight","speaker":"SPEAKER_00","speaker_id":0,"is_user":true,"start":0.5,"end":2.5,"person_id":null}]}`))
	c.conn.WriteMessage(websocket.TextMessage, []byte(`{not json`))
	segs := segmentsOf(c.until(10*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	if len(segs) != 1 || segs[0]["stt_provider"] != "on-device" || segs[0]["is_user"] != true || segs[0]["text"] != "Remind me to water the tomatoes tonight" {
		t.Fatalf("segments %v", segs)
	}
	// A second batch within 3 s from the same speaker, unfinished sentence:
	// merged into the first under the first's id (the app replaces it by
	// id); the client is never told to delete anything.
	c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"suggested_transcript","stt_provider":"on-device","segments":[
		{"text":"and the basil too.","speaker":"SPEAKER_00","is_user":true,"start":2.8,"end":4.0}]}`))
	merged := segmentsOf(c.until(10*time.Second, "merged segment", func(m wsMsg) bool {
		if event(m, "segments_deleted") != nil {
			t.Fatalf("told to delete: %s", m.text)
		}
		return segmentsOf(m) != nil
	}))
	if len(merged) != 1 || merged[0]["text"] != "Remind me to water the tomatoes tonight and the basil too." || merged[0]["id"] != segs[0]["id"] {
		t.Fatalf("merge: %v after %v", merged, segs)
	}
}

// TestListenSTTFailure: a route lost mid-session is reported (stt_failed,
// then 1011), never replaced silently, and the audio it did not transcribe
// is kept on disk.
func TestListenSTTFailure(t *testing.T) {
	t.Parallel()
	packets := speechOpusFS320(t, "Please call the plumber about the leak.", "The ceiling downstairs is getting a stain.")
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Please call the plumber about the leak."}],"fail_after_utterances":1}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 120, ""), ownerToken(t, data, uid))
	go c.stream(packets, 4)
	failed := event(c.until(20*time.Second, "stt_failed", func(m wsMsg) bool { return event(m, "service_status") != nil && strings.Contains(m.text, "stt_failed") }), "service_status")
	if failed["outcome"] != "upstream_error" || failed["retryable"] != true || failed["provider"] != "scripted" || failed["reason"] != "connection_lost" {
		t.Fatalf("stt_failed %v", failed)
	}
	if m := c.until(10*time.Second, "close", func(m wsMsg) bool { return m.closeCode != 0 }); m.closeCode != 1011 {
		t.Fatalf("close %d %q", m.closeCode, m.closeText)
	}
	kept, _ := filepath.Glob(filepath.Join(data, "audio", "*.wav"))
	if len(kept) == 0 {
		t.Fatal("no audio kept for a retry")
	}
}

// TestListenSegmentsSurviveKill9: a segment the client received is on
// disk: kill -9 the appliance right after, and it is there on restart.
func TestListenSegmentsSurviveKill9(t *testing.T) {
	t.Parallel()
	packets := speechOpusFS320(t, "Book the dentist for Thursday afternoon.")
	data := t.TempDir()
	script := writeScript(t, `{"utterances":[{"text":"Book the dentist for Thursday afternoon."}]}`)
	srv := startServe(t, data, script)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")
	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 120, ""), ownerToken(t, data, uid))
	go c.stream(packets, 4)
	segs := segmentsOf(c.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.done
	srv = startServe(t, data)
	// Still in progress: end the recording from outside and read it back.
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	req, _ := http.NewRequest("POST", srv.base+"/v1/conversations", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("end recording after the crash: %v %v", err, resp)
	}
	resp.Body.Close()
	_, body := srv.call(t, "GET", "/v1/dev/user/conversations?include_transcript=true", key, "")
	if !strings.Contains(body, segs[0]["text"].(string)) {
		t.Fatalf("segment %q lost in the crash: %s", segs[0]["text"], body)
	}
}

// TestListenEveryCodec streams the same speech in every codec the app
// sends, each as its device does, and gets the segments back.
func TestListenEveryCodec(t *testing.T) {
	t.Parallel()
	wav := speechWAV(t, "Remind me to water the tomatoes tonight.")
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Remind me to water the tomatoes tonight."}]}`))
	for _, codec := range []string{"pcm8", "pcm16", "opus", "opus_fs320", "lc3_fs1030", "aac"} {
		t.Run(codec, func(t *testing.T) {
			// A user per codec: each starts its own recording.
			uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada "+codec)
			frames := encodeFrames(t, codec, wav)
			rate := 16000
			if codec == "pcm8" {
				rate = 8000
			}
			q := strings.Replace(appQuery(uid, codec, 120, ""), "sample_rate=16000", "sample_rate="+strconv.Itoa(rate), 1)
			c := dialListen(t, srv.base, q, ownerToken(t, data, uid))
			if m := c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 }); m.closeCode != 0 {
				if strings.Contains(m.closeText, "not available in this build") && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") == "" {
					t.Skipf("%s: %s (make test builds with every codec)", codec, m.closeText)
				}
				t.Fatalf("%s: closed %d %q", codec, m.closeCode, m.closeText)
			}
			speed := 4.0 * 20 / map[string]float64{"opus": 10, "lc3_fs1030": 10, "aac": 64}[codec]
			if codec == "pcm8" || codec == "pcm16" || codec == "opus_fs320" {
				speed = 4
			}
			go c.stream(frames, speed)
			segs := segmentsOf(c.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
			if len(segs) == 0 || !strings.Contains(segs[0]["text"].(string), "tomatoes") {
				t.Fatalf("%s: segments %v", codec, segs)
			}
			// The segment is timed to the speech: it starts near the audio's start.
			if start := segs[0]["start"].(float64); start > 1.5 {
				t.Fatalf("%s: segment starts at %.2f s", codec, start)
			}
		})
	}
}

// TestListenResumeAndEndFromOutside: a reconnect within the timeout goes
// on with the same recording; POST /v1/conversations ends it, and the
// session hears of it on the event stream.
func TestListenResumeAndEndFromOutside(t *testing.T) {
	t.Parallel()
	frames := encodeFrames(t, "pcm16", speechWAV(t, "Call the landlord about the heating."))
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Call the landlord about the heating."}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")

	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 600, ""), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(frames, 4)
	c.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil })
	time.Sleep(time.Second) // let the stream finish before hanging up
	c.conn.Close()

	c2 := dialListen(t, srv.base, appQuery(uid, "pcm16", 600, ""), token)
	c2.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c2.stream(frames, 4)
	c2.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil })
	time.Sleep(time.Second)

	req, _ := http.NewRequest("POST", srv.base+"/v1/conversations", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("end recording: %v %v", err, resp)
	}
	resp.Body.Close()
	created := event(c2.until(20*time.Second, "memory_created", func(m wsMsg) bool { return event(m, "memory_created") != nil }), "memory_created")
	id := created["memory"].(map[string]any)["id"].(string)
	_, body := srv.call(t, "GET", "/v1/dev/user/conversations/"+id+"?include_transcript=true", key, "")
	if n := strings.Count(body, "landlord"); n < 2 {
		t.Fatalf("the resumed recording holds %d of the two sessions' segments: %s", n, body)
	}
}
