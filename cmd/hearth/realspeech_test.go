package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech/realspeechtest"
	"github.com/hearth-appliance/hearth/cmd/hearth/internal/omiapp"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// realClips is n short clips (3 s at most, so that a test takes seconds)
// of recorded human speech, spread over the English corpus's speakers,
// failing under make test when its packages are missing.
func realClips(t *testing.T, n int) []realspeech.Clip {
	t.Helper()
	clips := realspeechtest.English(t)
	var short []realspeech.Clip
	for _, c := range clips {
		if c.Seconds() <= 3 {
			short = append(short, c)
		}
	}
	if len(short) < n {
		t.Fatalf("%d clips of 3 s or less, want %d", len(short), n)
	}
	out := make([]realspeech.Clip, n)
	for i := range n {
		out[i] = short[i*len(short)/n]
	}
	return out
}

// realClipsDefault is how many clips make test hears: 15 (65 words, a
// word 1.5 points) where 10 (39 words) let one word decide a cell. They
// are every other clip of the 30 that docs/benchmarks.md measures
// (realClips spreads them), and they cost the test about 40 s more.
const realClipsDefault = 15

// realClipCount is how many clips the real-speech tests hear:
// HEARTH_REAL_CLIPS when set (a larger set to measure a cell on), else
// realClipsDefault.
func realClipCount(t *testing.T) int {
	t.Helper()
	v := os.Getenv("HEARTH_REAL_CLIPS")
	if v == "" {
		return realClipsDefault
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("HEARTH_REAL_CLIPS: %q is not a clip count", v)
	}
	return n
}

// werCount is word errors over words said.
type werCount struct{ errs, words int }

func (w *werCount) add(said, heard string) {
	e, n := stt.WordErrors(said, heard)
	w.errs += e
	w.words += n
}

func (w werCount) pct() float64 { return 100 * float64(w.errs) / float64(max(w.words, 1)) }

// enginePads are how much of the pause on either side of each clip the
// engine alone hears with it: none (the clip's exact span), and 100 and
// 200 ms (a VAD keeps 200 ms before an utterance and at least that after
// it). One span is one draw of the engine: in white noise at 20 dB
// "seven of clubs" came back right on its exact span and as "seven
// upvotes" with 100 ms less or 200 ms more of the pause after it, and a
// codec's delay (Opus 2.5 ms, AAC 64 ms) moves the speech against the
// spans as much. With 39 words a word is 2.6 points, so a path that
// hears a clip as the engine does on one of these spans was held to an
// accident of the other. The engine's rate is its worst over the three:
// a path is within a point of the engine alone on some span a VAD could
// have cut. A lost clip or a garbled codec costs several words, far
// more than the spans move.
var enginePads = []int{0, realspeech.SampleRate / 10, realspeech.SampleRate / 5}

// engineAlone is the decoder alone on each turn's span of pcm widened by
// each of enginePads: the most errors of the three.
func engineAlone(t *testing.T, e *pocketsphinx.Engine, s realspeech.Stream, pcm []int16, what string) werCount {
	t.Helper()
	var worst werCount
	for _, pad := range enginePads {
		var w werCount
		for _, tr := range s.Turns {
			from, to := max(tr.Start-pad, 0), min(tr.End+pad, len(pcm))
			heard, err := e.Decode(pcm[min(from, to):to])
			if err != nil {
				t.Fatal(err)
			}
			w.add(tr.Clip.Text, heard)
			if os.Getenv("HEARTH_REAL_CELLS") != "" {
				t.Logf("engine alone, turn at %.2f s (widened %d ms): %q", float64(tr.Start)/realspeech.SampleRate,
					pad*1000/realspeech.SampleRate, heard)
			}
		}
		t.Logf("%s: engine alone, clips widened by %d ms: %.1f %%", what, pad*1000/realspeech.SampleRate, w.pct())
		if w.errs >= worst.errs {
			worst = w
		}
	}
	return worst
}

// realCodec is how a wearable sends a codec: its sample_rate parameter
// and one frame's length (one frame a message).
type realCodec struct {
	rate  int
	frame time.Duration
}

var realCodecs = map[string]realCodec{
	"pcm16":      {16000, 20 * time.Millisecond},
	"pcm8":       {8000, 20 * time.Millisecond},
	"opus_fs320": {16000, 20 * time.Millisecond},
	"lc3_fs1030": {16000, 10 * time.Millisecond},
	"aac":        {16000, 64 * time.Millisecond},
}

// sessionHeard is frames as a session decodes them: 16 kHz mono, the
// audio the engine alone is measured on for that codec (another decoder's
// samples differ, and so do the words heard in them).
func sessionHeard(t *testing.T, codec string, frames [][]byte) []int16 {
	t.Helper()
	dec, err := audio.NewDecoder(audio.Format{Codec: codec, SampleRate: realCodecs[codec].rate, Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var pcm []int16
	for _, f := range frames {
		if pcm, err = dec.Decode(pcm, f); err != nil {
			t.Fatal(err)
		}
	}
	return pcm
}

// streamRealTime sends one frame a message at the codec's pace, with the
// app's keep-alive answer mixed in now and then.
func streamRealTime(c *wsClient, frames [][]byte, frame time.Duration) {
	start := time.Now()
	for i, f := range frames {
		if c.conn.WriteMessage(websocket.BinaryMessage, f) != nil {
			return
		}
		if i%50 == 0 {
			c.conn.WriteMessage(websocket.BinaryMessage, []byte{0x8A, 0x00})
		}
		time.Sleep(time.Until(start.Add(time.Duration(i+1) * frame)))
	}
}

// liveHeard streams frames on /v4/listen in real time, waits until the
// server has sent no segment for 5 s, closes the socket as the app does
// and returns the stored transcript. A session whose route fell behind (a
// busy machine) transcribes what it skipped after it: then the stretches
// are waited for (the session's tape is removed with the last one).
func liveHeard(t *testing.T, srv *server, data, codec string, frames [][]byte) string {
	t.Helper()
	o := newOwner(t, srv, data, "Ada "+codec)
	rc := realCodecs[codec]
	query := strings.Replace(appQuery(o.uid, codec, 120, ""), "sample_rate=16000", "sample_rate="+strconv.Itoa(rc.rate), 1)
	c := dialListen(t, srv.base, query, o.token)
	ready := event(c.until(20*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 }), "service_status")
	if ready == nil || ready["provider"] != "pocketsphinx" {
		t.Fatalf("%s: ready %v", codec, ready)
	}
	sent := make(chan struct{})
	go func() { streamRealTime(c, frames, rc.frame); close(sent) }()
	behind := false
	deadline := time.After(5 * time.Minute)
	quiet := time.NewTimer(time.Hour) // set once the last frame is sent
	defer quiet.Stop()
	for closing, done := false, false; !done; {
		select {
		case <-sent:
			sent = nil
			quiet.Reset(5 * time.Second)
		case <-quiet.C:
			closing = true
			c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(5*time.Second))
		case m, open := <-c.msgs:
			if !open || m.closeCode != 0 {
				if !closing || m.closeCode != 0 && m.closeCode != websocket.CloseNormalClosure {
					t.Fatalf("%s: the session closed (%d %s)", codec, m.closeCode, m.closeText)
				}
				done = true
				break
			}
			if st := event(m, "service_status"); st != nil && st["status"] == "stt_behind" {
				behind = true
			}
			if sent == nil && !closing && segmentsOf(m) != nil {
				quiet.Reset(5 * time.Second) // the server is still catching up
			}
		case <-deadline:
			t.Fatalf("%s: the session did not end within 5 minutes", codec)
		}
	}
	// The server hears out what was said before the close and stores the
	// last segment after the close is answered: ending the recording
	// before that lost a session's last clips when its decoding ran
	// seconds behind the audio (a busy machine, no stretch skipped).
	sessionEnded(t, srv, o.uid)
	if behind {
		t.Logf("%s: the route fell behind; waiting for the stretches it skipped", codec)
		for end := time.Now().Add(10 * time.Minute); ; time.Sleep(time.Second) {
			if tapes, _ := filepath.Glob(filepath.Join(data, "audio", "listen-*.s16le")); len(tapes) == 0 {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("%s: skipped audio still being transcribed after 10 minutes", codec)
			}
		}
	}
	return storedHeard(t, o)
}

// sessionEnded waits until the server logs the end of user's live
// session: on a busy machine that follows the stretches a route skipped
// (four sessions of 15 clips at a load average of 15 took more than 3
// minutes), so it waits as long as the skipped stretches may take.
func sessionEnded(t *testing.T, srv *server, user string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		for _, line := range strings.Split(srv.logs.String(), "\n") {
			var rec struct {
				Msg  string `json:"msg"`
				User string `json:"user"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "listen session ended" && rec.User == user {
				return
			}
		}
		if time.Now().After(end) {
			t.Fatalf("the session of %s did not end within 10 minutes of its close\n%s", user, tail(srv.logs.String(), 20))
		}
	}
}

// slowClient waits as long as a busy machine may take to end and process
// a recording whose skipped stretches were just transcribed.
var slowClient = &http.Client{Timeout: 5 * time.Minute}

// storedHeard ends the owner's recording and returns its stored
// transcript.
func storedHeard(t *testing.T, o owner) string {
	t.Helper()
	call := func(method, path, auth string) []byte {
		req, _ := http.NewRequest(method, o.srv.base+path, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer "+auth)
		req.Header.Set("Content-Type", "application/json")
		resp, err := slowClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return b
	}
	var ended struct {
		Conversation struct {
			ID string `json:"id"`
		} `json:"conversation"`
	}
	if err := json.Unmarshal(call("POST", "/v1/conversations", o.token), &ended); err != nil || ended.Conversation.ID == "" {
		t.Fatalf("end the recording: %v", err)
	}
	var conv struct {
		TranscriptSegments []omiapp.Segment `json:"transcript_segments"`
	}
	if err := json.Unmarshal(call("GET", "/v1/dev/user/conversations/"+ended.Conversation.ID+"?include_transcript=true", o.key), &conv); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("HEARTH_REAL_CELLS") != "" {
		for _, seg := range conv.TranscriptSegments {
			t.Logf("stored %.2f-%.2f s: %q", seg.Start, seg.End, seg.Text)
		}
	}
	return omiapp.Text(conv.TranscriptSegments)
}

// batchHeard is POST /v1/stt/transcribe's text for a WAV file. The
// recording is tens of seconds: its decoding may outlast the shared
// client's timeout on a busy machine.
func batchHeard(t *testing.T, srv *server, token, wav string) string {
	t.Helper()
	b, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "recording.wav")
	part.Write(b)
	mw.WriteField("diarize", "false")
	mw.Close()
	req, _ := http.NewRequest("POST", srv.base+"/v1/stt/transcribe", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 5 * time.Minute}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err = io.ReadAll(resp.Body)
	var out struct {
		Text string `json:"text"`
	}
	if err != nil || resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
		t.Fatalf("batch: %d %v %s\nserver log:\n%s", resp.StatusCode, err, b, tail(srv.logs.String(), 20))
	}
	return out.Text
}

// unmetFloors are the floors today's code misses, by cell ("condition
// path"): how far above the engine alone the cell was measured, and why.
// The test holds such a cell to its gap plus a margin (a path that loses
// a stretch of the recording or garbles a codec is still caught), and to
// the point only with HEARTH_REAL_FLOORS=all. Delete an entry
// when its cause is fixed.
var unmetFloors = map[string]unmet{
	"white20 pcm16": {2.5, liveTail},
}

// liveTail is why white20 live misses the floor on 30 clips (122 words, a
// word 0.8 point): 57.4 % against the engine's 54.9 % (batch 55.7 %). A
// live utterance keeps 140 ms more of the pause after it than the batch
// side's cut (the VAD ends it after 18 silent frames, 17 of them sent;
// a recording's cut keeps 10), and in white noise 7 of the 30
// utterances were heard otherwise with it, either way ("what an invalid"
// / "that is invalid", "from santa" / "when fenton"). The cells it was
// named with before held: the clean cells and white20 opus_fs320 once a
// word or two said alone waits 600 ms for the rest of its phrase
// (vad.shortEndFrames), quiet45 once the recognizer heard a quiet
// utterance as it came, not amplified (vad.go; 26.2 → 22.1 % on 30
// clips, the engine alone 23.0 %).
const liveTail = "a live utterance keeps 140 ms more of the pause after it than the batch cut; " +
	"in white noise that moves words either way (measured on 30 clips)"

// unmet is a floor not held yet: the measured gap in points, and why.
type unmet struct {
	gap float64
	why string
}

// unmetMarginWords is what an unmet floor may add to its measured gap, in
// words of the stream (two: a cell in noise moves by a word with where the
// VAD cuts, and a lost clip costs more).
const unmetMarginWords = 2

// realFloors are the cells make test holds, by condition: "batch" is POST
// /v1/stt/transcribe, a codec is a live session in it. Clean in every
// path a wearable uses but pcm8 and lc3, batch and live in white noise
// and from a quiet microphone (two engine passes, three sessions and two
// uploads more than clean and white20 live alone); HEARTH_REAL_FLOORS=all holds every path in every
// condition (allFloorPaths, realspeech.Conditions), as hearth-bench
// -scenarios realspeech measures them.
var realFloors = []realFloor{
	{"clean", []string{"batch", "pcm16", "opus_fs320", "aac"}},
	{"white20", []string{"batch", "pcm16"}},
	{"quiet45", []string{"batch", "pcm16"}},
}

// realFloor is a condition and the paths held in it.
type realFloor struct {
	condition string
	paths     []string
}

var allFloorPaths = []string{"batch", "pcm16", "pcm8", "opus_fs320", "lc3_fs1030", "aac"}

// cellFloors is HEARTH_REAL_CELLS ("white20 lc3_fs1030,quiet45 aac"): the
// cells to measure alone, one condition at a time and each held to the
// point, so that one cell can be looked at without the whole matrix.
func cellFloors(t *testing.T, cells string) []realFloor {
	t.Helper()
	var floors []realFloor
	for _, cell := range strings.Split(cells, ",") {
		cond, path, ok := strings.Cut(strings.TrimSpace(cell), " ")
		if !ok || !slices.Contains(realspeech.Conditions, cond) || !slices.Contains(allFloorPaths, path) {
			t.Fatalf("HEARTH_REAL_CELLS: %q is not \"condition path\" (conditions %v, paths %v)", cell, realspeech.Conditions, allFloorPaths)
		}
		i := slices.IndexFunc(floors, func(f realFloor) bool { return f.condition == cond })
		if i < 0 {
			floors = append(floors, realFloor{cond, nil})
			i = len(floors) - 1
		}
		floors[i].paths = append(floors[i].paths, path)
	}
	return floors
}

// TestRealSpeechMatchesTheEngine (issue #33): on recorded human voices,
// clean, in white noise and babble and from a quiet microphone, each of
// Hearth's paths hears the words the engine alone (one PocketSphinx
// decoder on each clip) hears in the same audio: its word error rate is
// at most a point above the engine's (unmetFloors lists where today's
// code does not hold yet). The full matrix is hearth-bench -scenarios
// realspeech, in docs/benchmarks.md.
func TestRealSpeechMatchesTheEngine(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	all := os.Getenv("HEARTH_REAL_FLOORS") == "all"
	floors := realFloors
	if all {
		floors = nil
		for _, c := range realspeech.Conditions {
			floors = append(floors, realFloor{c, allFloorPaths})
		}
	}
	if cells := os.Getenv("HEARTH_REAL_CELLS"); cells != "" {
		floors, all = cellFloors(t, cells), true
	}
	clips := realClips(t, realClipCount(t))
	data := t.TempDir()
	srv := startServe(t, data)
	token := ownerToken(t, data, mustCLI(t, "users", "add", "--data", data, "--name", "Grace"))
	clean := realspeech.Join(clips, 1.5)
	// A wearable goes on sending while nobody speaks: the last words end
	// in silence, not in the socket's close (what a close loses is the
	// words-lost benchmark's subject, not this test's).
	clean.PCM = append(clean.PCM, make([]int16, 4*realspeech.SampleRate)...)
	for _, floor := range floors {
		t.Run(floor.condition, func(t *testing.T) {
			if !all {
				// Every path of every condition at once would be 36
				// real-time sessions: the full set goes one condition at
				// a time.
				t.Parallel()
			}
			s, err := realspeech.Condition(t.Context(), clean, floor.condition)
			if err != nil {
				t.Fatal(err)
			}
			engine, err := pocketsphinx.NewEngine("")
			if err != nil {
				t.Fatal(err)
			}
			defer engine.Close()
			wav := filepath.Join(t.TempDir(), "s.wav")
			if err := os.WriteFile(wav, realspeech.WAV(s.PCM), 0o600); err != nil {
				t.Fatal(err)
			}
			frames := map[string][][]byte{}
			for _, path := range floor.paths {
				if path != "batch" {
					frames[path] = encodeFrames(t, path, wav)
				}
			}

			var (
				mu    sync.Mutex
				paths = map[string]werCount{}
				heard = map[string]string{}
			)
			// The paths hear the same audio at once, each a subtest run
			// from its own goroutine: not t.Parallel, whose slots (one per
			// CPU) would put the real-time sessions one after another.
			var wg sync.WaitGroup
			defer wg.Wait() // before the engine closes, should it fail
			for _, path := range floor.paths {
				wg.Add(1)
				go func() {
					defer wg.Done()
					t.Run(path, func(t *testing.T) {
						var text string
						if path == "batch" {
							text = batchHeard(t, srv, token, wav)
						} else {
							text = liveHeard(t, srv, data, path, frames[path])
						}
						var w werCount
						w.add(s.Text(), text)
						mu.Lock()
						paths[path], heard[path] = w, text
						mu.Unlock()
					})
				}()
			}
			// The engine alone decodes while the sessions stream: they
			// wait on the clock most of the time, and its passes (three
			// spans of every clip on each audio) were a condition's
			// longest stretch before them.
			base := engineAlone(t, engine, s, s.PCM, floor.condition)
			t.Logf("%s: %d words; engine alone %.1f %%", floor.condition, base.words, base.pct())
			refs := map[string]werCount{"batch": base, "pcm16": base}
			for _, path := range floor.paths {
				if _, ok := refs[path]; !ok {
					refs[path] = engineAlone(t, engine, s, sessionHeard(t, path, frames[path]), floor.condition+" "+path)
					t.Logf("%s: engine alone on the %s audio %.1f %%", floor.condition, path, refs[path].pct())
				}
			}
			wg.Wait()
			for _, path := range floor.paths {
				got, ok := paths[path]
				if !ok {
					continue // it failed above
				}
				ref, cell := refs[path], floor.condition+" "+path
				t.Logf("%s %.1f %%: %q", cell, got.pct(), heard[path])
				if got.pct() <= ref.pct()+1 {
					continue
				}
				msg := fmt.Sprintf("%s hears %.1f %% of words wrong, the engine alone %.1f %% on the same audio (the floor: a point above)\nsaid: %q",
					cell, got.pct(), ref.pct(), s.Text())
				margin := 100 * unmetMarginWords / float64(max(got.words, 1))
				if u, ok := unmetFloors[cell]; ok && !all {
					if got.pct() <= ref.pct()+u.gap+margin {
						t.Logf("%s\nnot yet enforced: %s", msg, u.why)
						continue
					}
					msg += fmt.Sprintf("\nmore than %.1f points above even while %s", u.gap+margin, u.why)
				} else if ok {
					msg += "\nknown: " + u.why
				}
				t.Error(msg)
			}
		})
	}
}
