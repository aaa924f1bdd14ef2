package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestSpeechProfileEndToEnd: the owner records a profile through
// /v3/upload-audio (Festival speech, 16 kHz WAV), reads it back, and
// deletes it; recordings that are not a 5–180 s 16 kHz WAV with speech are
// refused with the reference's messages.
func TestSpeechProfileEndToEnd(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	get := func(path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/v3/speech-profile"); code != 200 || body != "{\"has_profile\":false}\n" {
		t.Fatalf("before: %d %s", code, body)
	}
	speech := speechWAV(t, "Good morning, this is my voice.", "I am recording my speech profile today.", "The weather is lovely and the garden is green.")
	narrow := filepath.Join(t.TempDir(), "8k.wav")
	mustRun(t, "sox", speech, "-r", "8000", narrow)
	short := filepath.Join(t.TempDir(), "short.wav")
	mustRun(t, "sox", speech, short, "trim", "0", "3")
	for _, tc := range []struct {
		name, path string
		code       int
		detail     string
	}{
		{"8 kHz", narrow, 400, "Invalid audio file: must be a valid 16kHz WAV."},
		{"too short", short, 400, "Audio duration is invalid (must be 5-180 seconds)"},
		{"silence", silenceWAV(t, "8"), 400, "Audio is empty"},
	} {
		code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": tc.path}, nil)
		if code != tc.code || !strings.Contains(body, tc.detail) {
			t.Errorf("%s: %d %s", tc.name, code, body)
		}
	}
	code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": speech}, nil)
	var made struct {
		URL string `json:"url"`
	}
	if code != 200 || json.Unmarshal([]byte(body), &made) != nil || !strings.HasSuffix(made.URL, "/v3/speech-profile/audio") {
		t.Fatalf("upload: %d %s", code, body)
	}
	if code, body := get("/v3/speech-profile"); code != 200 || !strings.Contains(body, `"has_profile":true`) {
		t.Fatalf("after: %d %s", code, body)
	}
	var status struct {
		Has       bool    `json:"has_profile"`
		Seconds   float64 `json:"duration_seconds"`
		Extractor string  `json:"extractor"`
	}
	if code, body := get("/v3/speech-profile/status"); code != 200 || json.Unmarshal([]byte(body), &status) != nil ||
		!status.Has || status.Seconds < 3 || status.Seconds > 12 || status.Extractor == "" {
		t.Fatalf("status: %d %s", code, body)
	}
	if code, body := get("/v3/speech-profile/audio"); code != 200 || !strings.HasPrefix(body, "RIFF") {
		t.Fatalf("audio: %d %.40q", code, body)
	}
	if code, body := get("/v4/speech-profile"); code != 200 || !strings.Contains(body, "/v3/speech-profile/audio") {
		t.Fatalf("v4: %d %s", code, body)
	}
	req, _ := http.NewRequest("DELETE", srv.base+"/v3/speech-profile", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 {
		t.Fatalf("delete: %v %v", resp, err)
	}
	if code, body := get("/v3/speech-profile"); code != 200 || !strings.Contains(body, `"has_profile":false`) {
		t.Fatalf("after delete: %d %s", code, body)
	}
	if code, _ := get("/v3/speech-profile/audio"); code != 404 {
		t.Fatalf("audio after delete: %d", code)
	}
	// Without the owner's ID token: 401.
	code, _, _ = upload(t, srv.base+"/v3/upload-audio", "", map[string]string{"file": speech}, nil)
	if code != 401 {
		t.Fatalf("anonymous upload: %d", code)
	}
}

// voiceWAV is sentences spoken by a Festival voice (kal_diphone,
// cmu_us_slt_arctic_hts, …), 16 kHz, each followed by 1.5 s of silence.
func voiceWAV(t *testing.T, voice string, sentences ...string) string {
	t.Helper()
	dir := t.TempDir()
	var parts []string
	for i, s := range sentences {
		txt, wav, padded := filepath.Join(dir, "s.txt"), filepath.Join(dir, "s.wav"), filepath.Join(dir, "p"+strconv.Itoa(i)+".wav")
		os.WriteFile(txt, []byte(s), 0o600)
		mustRun(t, "text2wave", "-F", "16000", "-eval", "(voice_"+voice+")", "-o", wav, txt)
		mustRun(t, "sox", wav, "-r", "16000", "-c", "1", "-b", "16", padded, "pad", "0", "1.5")
		parts = append(parts, padded)
	}
	all := filepath.Join(dir, "all.wav")
	mustRun(t, "sox", append(parts, all)...)
	return all
}

// TestLiveOwnerIdentification: with a speech profile, a live session tells
// the owner's voice from another: a speaker is identified as soon as they
// have 2 s of speech, before their segment is sent, so every segment,
// each speaker's first included, carries speech_profile_processed, and
// is_user for the owner only. (The scripted route hears the words; the voices are real
// Festival speech: the owner slt, a guest kal.)
func TestLiveOwnerIdentification(t *testing.T) {
	t.Parallel()
	owner := "cmu_us_slt_arctic_hts"
	lines := []struct {
		voice   string
		speaker int
		text    string
	}{
		{owner, 0, "Good morning, I wanted to talk about the garden this weekend."},
		{"kal_diphone", 1, "Sure, I can help you plant the tomatoes on Saturday."},
		{owner, 0, "Great, we also need new soil and a few more pots."},
		{"kal_diphone", 1, "I will pick those up from the hardware store tomorrow."},
		{owner, 0, "Thank you, that helps a lot with the whole plan."},
		{"kal_diphone", 1, "No problem, see you on Saturday morning then."},
	}
	var script []string
	var wavs []string
	for _, l := range lines {
		script = append(script, fmt.Sprintf(`{"text":%q,"speaker":%d}`, l.text, l.speaker))
		wavs = append(wavs, voiceWAV(t, l.voice, l.text))
	}
	all := filepath.Join(t.TempDir(), "all.wav")
	mustRun(t, "sox", append(wavs, all)...)
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[`+strings.Join(script, ",")+`]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	profile := voiceWAV(t, owner, "This is my voice for the profile.", "I speak clearly and at an easy pace.", "The kitchen window faces the garden.")
	if code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": profile}, nil); code != 200 {
		t.Fatalf("profile: %d %s", code, body)
	}

	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(encodeFrames(t, "pcm16", all), 4)
	byText := map[string]map[string]any{}
	c.until(60*time.Second, "every line", func(m wsMsg) bool {
		for _, s := range segmentsOf(m) {
			byText[s["text"].(string)] = s
		}
		return len(byText) >= len(lines)
	})
	for _, l := range lines {
		s := byText[l.text]
		if s == nil {
			t.Fatalf("line %q never came (got %v)", l.text, byText)
		}
		processed, _ := s["speech_profile_processed"].(bool)
		isUser, _ := s["is_user"].(bool)
		if !processed || isUser != (l.voice == owner) {
			t.Errorf("%s %q: speech_profile_processed %v, is_user %v", l.voice, l.text, processed, isUser)
		}
	}
}

// TestBatchDiarization: /v1/stt/transcribe with diarize=true labels the
// speakers by voice when the route does not (the scripted route hears the
// words and names no speaker; the voices are Festival's slt and kal).
func TestBatchDiarization(t *testing.T) {
	t.Parallel()
	lines := []struct{ voice, text string }{
		{"cmu_us_slt_arctic_hts", "Did you remember to call the plumber this morning?"},
		{"kal_diphone", "Yes, he is coming on Tuesday to fix the kitchen sink."},
		{"cmu_us_slt_arctic_hts", "Good, then I will stay home and wait for him."},
		{"kal_diphone", "I will leave the spare key under the flower pot."},
	}
	var script, wavs []string
	for _, l := range lines {
		script = append(script, fmt.Sprintf(`{"text":%q}`, l.text))
		wavs = append(wavs, voiceWAV(t, l.voice, l.text))
	}
	all := filepath.Join(t.TempDir(), "all.wav")
	mustRun(t, "sox", append(wavs, all)...)
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[`+strings.Join(script, ",")+`]}`))
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	code, body, _ := upload(t, srv.base+"/v1/stt/transcribe", token, map[string]string{"file": all}, map[string]string{"diarize": "true"})
	var res struct {
		Segments []struct{ Text, Speaker string } `json:"segments"`
	}
	if code != 200 || json.Unmarshal([]byte(body), &res) != nil || len(res.Segments) != len(lines) {
		t.Fatalf("%d %s", code, body)
	}
	want := []string{"SPEAKER_00", "SPEAKER_01", "SPEAKER_00", "SPEAKER_01"}
	for i, s := range res.Segments {
		if s.Speaker != want[i] {
			t.Errorf("segment %d %q: %s, want %s", i, s.Text, s.Speaker, want[i])
		}
	}
	code, body, _ = upload(t, srv.base+"/v1/stt/transcribe", token, map[string]string{"file": all}, map[string]string{"diarize": "false"})
	if code != 200 || strings.Contains(body, "SPEAKER_") {
		t.Fatalf("diarize=false: %d %s", code, body)
	}
}

// TestLearntVoiceSuggestsThePerson: the owner names a guest's voice in one
// session (speaker_assigned, a new person); in the next session the same
// voice, under another speaker id, is recognised: speaker_label_suggestion
// names the person and, with speaker_auto_assign=enabled, their later
// segments carry the person.
func TestLearntVoiceSuggestsThePerson(t *testing.T) {
	t.Parallel()
	owner, guest := "cmu_us_slt_arctic_hts", "kal_diphone"
	first := []struct {
		voice   string
		speaker int
		text    string
	}{
		{owner, 0, "Welcome in, please take a seat by the window."},
		{guest, 1, "Thank you, I brought the documents for the insurance."},
		{owner, 0, "Wonderful, let us go through them one by one."},
		{guest, 1, "The first page lists the car and the second the house."},
	}
	second := []string{"Good afternoon, I am back with the signed contract.", "I also added the new address on page three.",
		"Let me know if anything else is missing today."}
	var script, wavs []string
	for _, l := range first {
		script = append(script, fmt.Sprintf(`{"text":%q,"speaker":%d}`, l.text, l.speaker))
		wavs = append(wavs, voiceWAV(t, l.voice, l.text))
	}
	for _, text := range second {
		script = append(script, fmt.Sprintf(`{"text":%q,"speaker":2}`, text))
	}
	one := filepath.Join(t.TempDir(), "one.wav")
	mustRun(t, "sox", append(wavs, one)...)
	two := voiceWAV(t, guest, second...)
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[`+strings.Join(script, ",")+`]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)

	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	streamed := make(chan struct{})
	go func() { c.stream(encodeFrames(t, "pcm16", one), 4); close(streamed) }()
	var guestSegs []string
	c.until(60*time.Second, "the guest's lines", func(m wsMsg) bool {
		for _, s := range segmentsOf(m) {
			if s["speaker_id"].(float64) == 1 {
				guestSegs = append(guestSegs, s["id"].(string))
			}
		}
		return len(guestSegs) >= 2
	})
	<-streamed // one writer at a time on a socket
	assign, _ := json.Marshal(map[string]any{"type": "speaker_assigned", "speaker_id": 1, "person_id": "p-bob", "person_name": "Bob",
		"segment_ids": guestSegs})
	c.conn.WriteMessage(websocket.TextMessage, assign)
	time.Sleep(time.Second) // the voice is learnt off the socket's path
	c.conn.Close()

	c2 := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token) // appQuery sets speaker_auto_assign=enabled
	c2.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c2.stream(encodeFrames(t, "pcm16", two), 4)
	sug := event(c2.until(60*time.Second, "a speaker_label_suggestion", func(m wsMsg) bool {
		return event(m, "speaker_label_suggestion") != nil
	}), "speaker_label_suggestion")
	if sug["person_id"] != "p-bob" || sug["person_name"] != "Bob" || sug["segment_id"] == "" {
		t.Fatalf("suggestion %v", sug)
	}
	c2.until(60*time.Second, "a segment of Bob's", func(m wsMsg) bool {
		for _, s := range segmentsOf(m) {
			if s["person_id"] == "p-bob" && s["is_user"] == false {
				return true
			}
		}
		return false
	})
}

// TestSpeakerEmbeddingService: with --speaker-embedding-url the owner's
// voice is embedded by that service (a fake of the reference's API), and
// the profile says which extractor made it.
func TestSpeakerEmbeddingService(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, err := r.FormFile("file"); err != nil || r.URL.Path != "/v2/embedding" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		calls.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"embedding": []float32{0.1, 0.2, 0.3, 0.4}})
	}))
	defer fake.Close()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_SPEAKER_EMBEDDING_URL="+fake.URL+"/v2/embedding")
	token := mustCLI(t, "token", "--data", data, "--user", mustCLI(t, "users", "add", "--data", data, "--name", "Ada"))
	speech := speechWAV(t, "Good morning, this is my voice.", "I am recording my speech profile today.")
	if code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": speech}, nil); code != 200 {
		t.Fatalf("upload: %d %s", code, body)
	}
	req, _ := http.NewRequest("GET", srv.base+"/v3/speech-profile/status", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if calls.Load() == 0 || !strings.Contains(string(b), `"extractor":"http:127.0.0.1`) {
		t.Fatalf("%d calls; status %s", calls.Load(), b)
	}
}

// TestLiveDiarization: on a route that names no speakers (PocketSphinx), a
// live session tells two Festival voices apart by itself.
func TestLiveDiarization(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	lines := []struct{ voice, text string }{
		{"cmu_us_slt_arctic_hts", "please send a report to my manager tomorrow morning"},
		{"kal_diphone", "good morning today i will call the plumber about the kitchen sink"},
		{"cmu_us_slt_arctic_hts", "then buy bread and coffee on the way home"},
		{"kal_diphone", "the meeting about the budget moved to thursday afternoon"},
	}
	var wavs []string
	for _, l := range lines {
		wavs = append(wavs, voiceWAV(t, l.voice, l.text))
	}
	all := filepath.Join(t.TempDir(), "all.wav")
	mustRun(t, "sox", append(wavs, all)...)
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_STT_ROUTES=pocketsphinx")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(encodeFrames(t, "pcm16", all), 1.5)
	var segs []map[string]any
	heard := func(word string) (float64, bool) {
		for _, s := range segs {
			if strings.Contains(s["text"].(string), word) {
				return s["speaker_id"].(float64), true
			}
		}
		return 0, false
	}
	c.until(90*time.Second, "every line", func(m wsMsg) bool {
		segs = append(segs, segmentsOf(m)...)
		_, last := heard("budget")
		return last
	})
	for _, s := range segs {
		t.Logf("speaker %v at %.1f–%.1f: %v", s["speaker_id"], s["start"], s["end"], s["text"])
	}
	// Each voice keeps one speaker id; the first voice heard is 0.
	for word, want := range map[string]float64{"manager": 0, "plumber": 1, "coffee": 0, "budget": 1} {
		if got, ok := heard(word); !ok || got != want {
			t.Errorf("the line with %q: speaker %v (heard %v), want %v", word, got, ok, want)
		}
	}
}

// TestSpeakerModelErrorsSayWhatToDo: a speaker model that cannot be loaded
// stops the appliance at start with a message that says why.
func TestSpeakerModelErrorsSayWhatToDo(t *testing.T) {
	t.Parallel()
	_, stderr, code := cli(t, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0",
		"--speaker-onnx-model", filepath.Join(t.TempDir(), "none.onnx"), "--onnxruntime-lib", "/nonexistent/libonnxruntime.so.1")
	if code != 2 || !strings.Contains(stderr, "speaker model") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// A catalog speaker model not pulled yet says how to pull it.
	_, stderr, code = cli(t, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--speaker-onnx-model", "wespeaker-resnet34-lm")
	if code != 2 || !strings.Contains(stderr, "hearth models pull wespeaker-resnet34-lm") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, stderr, code = cli(t, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--speaker-onnx-model", "no-such-model")
	if code != 2 || !strings.Contains(stderr, "hearth models list") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, stderr, code = cli(t, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--speaker-threshold", "3")
	if code != 2 || !strings.Contains(stderr, "speaker threshold") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestSelfIntroduction: a speaker who says their name is suggested under
// it; with create_speakers=true and speaker_auto_assign=enabled the person
// is made and the speaker's later segments carry them.
func TestSelfIntroduction(t *testing.T) {
	t.Parallel()
	frames := encodeFrames(t, "pcm16", speechWAV(t, "Hello everyone, nice to see you.", "Hi, I'm Bob, I live next door.", "Shall we start the meeting now?"))
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Hello everyone, nice to see you.","speaker":0},
		{"text":"Hi, I'm Bob, I live next door.","speaker":1},{"text":"Shall we start the meeting now?","speaker":1}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	q := strings.Replace(appQuery(uid, "pcm16", 120, ""), "create_speakers=false", "create_speakers=true", 1)
	c := dialListen(t, srv.base, q, token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(frames, 4)
	sug := event(c.until(30*time.Second, "a suggestion", func(m wsMsg) bool { return event(m, "speaker_label_suggestion") != nil }),
		"speaker_label_suggestion")
	id, _ := sug["person_id"].(string)
	if sug["person_name"] != "Bob" || sug["speaker_id"].(float64) != 1 || id == "" {
		t.Fatalf("suggestion %v", sug)
	}
	c.until(30*time.Second, "Bob's next segment", func(m wsMsg) bool {
		for _, s := range segmentsOf(m) {
			if strings.Contains(s["text"].(string), "Shall we start the meeting now?") {
				if s["person_id"] != id {
					t.Fatalf("Bob's next segment: %v", s)
				}
				return true
			}
		}
		return false
	})
}
