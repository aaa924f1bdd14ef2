package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/cmd/hearth/internal/omiapp"
)

// The tests in this file drive the appliance the way a wearable and the
// Omi app do: Festival speech encoded as the firmware encodes it, streamed
// through the app's socket client (omiapp), ended the ways the app ends a
// recording, and checked against what the appliance stored.

// wearableEnv: the tests poll the developer API more often than its
// per-key budget allows.
var wearableEnv = []string{"HEARTH_RATE_LIMIT_BOOST=0"}

// ---- speech ---------------------------------------------------------------

// festivalCache holds each sentence's synthesis for the whole test run:
// Festival takes about a tenth of the audio's duration.
var festivalCache sync.Map // text → *festivalSpeech

type festivalSpeech struct {
	once sync.Once
	pcm  []int16
	err  error
}

// needTool skips (or under make test fails) when a program is missing, as
// mustRun does.
func needTool(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is not installed (scripts/deps.sh test installs it)", name)
			}
			t.Skipf("%s is not installed", name)
		}
	}
}

// festival is text spoken by Festival's HTS voice at 16 kHz, its trailing
// silence trimmed: the audio ends where the speech does.
func festival(text string) ([]int16, error) {
	v, _ := festivalCache.LoadOrStore(text, &festivalSpeech{})
	fs := v.(*festivalSpeech)
	fs.once.Do(func() {
		dir, err := os.MkdirTemp("", "hearth-festival")
		if err != nil {
			fs.err = err
			return
		}
		defer os.RemoveAll(dir)
		txt, raw, trimmed := filepath.Join(dir, "s.txt"), filepath.Join(dir, "raw.wav"), filepath.Join(dir, "s.wav")
		os.WriteFile(txt, []byte(text), 0o600)
		for _, args := range [][]string{
			{"text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw, txt},
			// Festival ends each sentence with about 0.2 s of silence.
			{"sox", raw, trimmed, "reverse", "silence", "1", "0.01", "0.1%", "reverse"},
		} {
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				fs.err = fmt.Errorf("%v: %v\n%s", args, err, out)
				return
			}
		}
		fs.pcm, _, fs.err = omiapp.ReadWAV(trimmed)
	})
	return fs.pcm, fs.err
}

// said is a sentence and the silence after it.
type said struct {
	text  string
	pause float64 // seconds of silence after it; none after the last
	cut   float64 // seconds cut off its end, mid-word
}

// speech is a session's audio, its sentences, and where each is in it.
type speech struct {
	pcm   []int16
	texts []string
	cut   map[string]bool // sentences cut mid-word
	lines []string
}

func (s speech) seconds() float64 { return float64(len(s.pcm)) / 16000 }

// compose synthesises sentences (two at a time) and lays them out after
// lead seconds of silence.
func compose(t *testing.T, lead float64, parts ...said) speech {
	t.Helper()
	needTool(t, "text2wave", "sox")
	pcms := make([][]int16, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			pcms[i], errs[i] = festival(p.text)
		}()
	}
	wg.Wait()
	out := speech{pcm: make([]int16, int(lead*16000)), cut: map[string]bool{}}
	for i, p := range parts {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		pcm := pcms[i]
		if p.cut > 0 {
			pcm = pcm[:len(pcm)-int(p.cut*16000)]
		}
		start := float64(len(out.pcm)) / 16000
		out.pcm = append(out.pcm, pcm...)
		note := ""
		if p.cut > 0 {
			note = fmt.Sprintf(", its last %.0f ms cut", p.cut*1000)
			out.cut[p.text] = true
		}
		out.texts = append(out.texts, p.text)
		out.lines = append(out.lines, fmt.Sprintf("%6.2f–%6.2f s %q%s", start, float64(len(out.pcm))/16000, p.text, note))
		out.pcm = append(out.pcm, make([]int16, int(p.pause*16000))...)
	}
	return out
}

// wearableFrames encodes speech as a wearable sends codec: pcm16 as 20 ms
// frames; opus_fs320 as the firmware's 20 ms CELT packets, from libopus
// when this test binary links it, else from ffmpeg's libopus with its
// low-delay (CELT only) application.
func wearableFrames(t *testing.T, codec string, pcm []int16) [][]byte {
	t.Helper()
	if codec == "pcm16" || omiapp.HasOpusEncoder() {
		frames, err := omiapp.Frames(codec, pcm)
		if err != nil {
			t.Fatal(err)
		}
		return frames
	}
	wav := filepath.Join(t.TempDir(), "s.wav")
	if err := os.WriteFile(wav, audio.WAV(pcm, 16000), 0o600); err != nil {
		t.Fatal(err)
	}
	return encodeFrames(t, codec, wav)
}

// ---- the appliance ----------------------------------------------------------

// owner is a user of a running appliance with the credentials the app and
// a developer hold.
type owner struct {
	srv        *server
	uid, token string
	key        string // a developer key, to read what was stored
}

func newOwner(t *testing.T, srv *server, data, name string) owner {
	t.Helper()
	uid := mustCLI(t, "users", "add", "--data", data, "--name", name)
	return owner{srv: srv, uid: uid, token: mustCLI(t, "token", "--data", data, "--user", uid),
		key: mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")}
}

// dial opens the app's socket for the owner and waits for the ready event.
func (o owner) dial(t *testing.T, opts omiapp.Options) *omiapp.Client {
	t.Helper()
	opts.UID, opts.Token = o.uid, o.token
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := omiapp.Dial(ctx, o.srv.base, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Abort)
	st, err := c.Wait(ctx, "ready", func(st omiapp.State) bool {
		for _, m := range st.Events("service_status") {
			if m.Field("status") == "ready" {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, messages(st))
	}
	return c
}

// endClient waits for POST /v1/conversations as long as the appliance may
// take to hear out a live session's last words (30 s at most) and more.
var endClient = &http.Client{Timeout: 90 * time.Second}

// endRecording is the app's POST /v1/conversations; it returns the ended
// conversation's id.
func (o owner) endRecording(t *testing.T) string {
	t.Helper()
	req, err := http.NewRequest("POST", o.srv.base+"/v1/conversations", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+o.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := endClient.Do(req)
	if err != nil {
		t.Fatalf("POST /v1/conversations: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	code, body := resp.StatusCode, string(b)
	if code != http.StatusOK {
		t.Fatalf("POST /v1/conversations: %d %s", code, body)
	}
	var out struct {
		Conversation struct {
			ID string `json:"id"`
		} `json:"conversation"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil || out.Conversation.ID == "" {
		t.Fatalf("POST /v1/conversations: %s", body)
	}
	return out.Conversation.ID
}

// stored is a conversation's transcript as the developer API returns it.
func (o owner) stored(t *testing.T, id string) []omiapp.Segment {
	t.Helper()
	code, body := o.srv.call(t, "GET", "/v1/dev/user/conversations/"+id+"?include_transcript=true", o.key, "")
	if code != http.StatusOK {
		t.Fatalf("GET conversation %s: %d %s", id, code, body)
	}
	var conv struct {
		TranscriptSegments []omiapp.Segment `json:"transcript_segments"`
	}
	// The developer API names speakers by number (speaker_id), not label.
	var ids struct {
		TranscriptSegments []struct {
			SpeakerID int `json:"speaker_id"`
		} `json:"transcript_segments"`
	}
	if err := json.Unmarshal([]byte(body), &conv); err != nil {
		t.Fatalf("conversation %s: %v\n%s", id, err, body)
	}
	json.Unmarshal([]byte(body), &ids)
	for i := range conv.TranscriptSegments {
		n := ids.TranscriptSegments[i].SpeakerID
		conv.TranscriptSegments[i].Speaker, conv.TranscriptSegments[i].SpeakerID = fmt.Sprintf("SPEAKER_%02d", n), n
	}
	return conv.TranscriptSegments
}

// ---- words ----------------------------------------------------------------

// words is text as lower-case words without punctuation.
func words(s string) []string {
	return strings.Fields(strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'':
			return unicode.ToLower(r)
		case unicode.IsSpace(r):
			return ' '
		}
		return ' '
	}, s))
}

// hasWords reports whether text holds sentence's words in a row.
func hasWords(text, sentence string) bool {
	return strings.Contains(" "+strings.Join(words(text), " ")+" ", " "+strings.Join(words(sentence), " ")+" ")
}

// ---- reports --------------------------------------------------------------

// messages lists what the client received, one message a line.
func messages(st omiapp.State) string {
	var b strings.Builder
	t0 := time.Time{}
	for _, m := range st.Messages {
		if t0.IsZero() {
			t0 = m.At
		}
		at := m.At.Sub(t0).Seconds()
		switch m.Kind {
		case omiapp.KindPing:
			fmt.Fprintf(&b, "  %6.2fs ping\n", at)
		case omiapp.KindSegments:
			for _, s := range m.Segments {
				fmt.Fprintf(&b, "  %6.2fs segment %s %s %.2f–%.2f %q\n", at, s.ID, s.Speaker, s.Start, s.End, s.Text)
			}
		default:
			raw := string(m.Raw)
			if len(raw) > 160 {
				raw = raw[:160] + "…"
			}
			unknown := ""
			if m.Unknown {
				unknown = " (the app has no handler)"
			}
			fmt.Fprintf(&b, "  %6.2fs %s%s %s\n", at, m.Kind, unknown, raw)
		}
	}
	if st.Closed {
		fmt.Fprintf(&b, "  closed %d %q\n", st.CloseCode, st.CloseText)
	}
	return b.String()
}

// report says what was said, what the client was sent and shows, and what
// was stored.
func report(sp speech, st omiapp.State, stored []omiapp.Segment) string {
	var b strings.Builder
	if len(sp.pcm) > 0 {
		fmt.Fprintf(&b, "said (%.2f s of speech; %d audio frames sent, %d keep-alives):\n", sp.seconds(), st.Sent.AudioFrames, st.Sent.KeepAlives)
	} else {
		fmt.Fprintf(&b, "suggested by the app (with %d audio frames):\n", st.Sent.AudioFrames)
	}
	for _, l := range sp.lines {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("sent to the client:\n" + messages(st))
	for i, r := range st.Recordings {
		fmt.Fprintf(&b, "the app shows (recording %d):\n%s", i+1, omiapp.Describe(r))
	}
	if stored != nil {
		b.WriteString("stored:\n" + omiapp.Describe(stored))
	}
	return b.String()
}

// ---- 1. the last words ------------------------------------------------------

// TestWearableKeepsTheLastWords: speech that ends without trailing
// silence, however the recording ends, is transcribed to the last word,
// stored, and sent to an app that is still connected. PocketSphinx hears
// each of these sentences word for word when it is followed by silence.
func TestWearableKeepsTheLastWords(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	for _, codec := range []string{"pcm16", "opus_fs320"} {
		t.Run(codec, func(t *testing.T) {
			t.Parallel()
			data := t.TempDir()
			srv := startServe(t, data, wearableEnv...)

			// (a) the app closes the socket right after the last word.
			t.Run("close", func(t *testing.T) {
				t.Parallel()
				o := newOwner(t, srv, data, "Ada close")
				sp := compose(t, 0.3,
					said{text: "i will send the numbers to the finance team tomorrow", pause: 1.0},
					said{text: "the car needs new tires before winter"})
				c := o.dial(t, omiapp.Options{Codec: codec})
				streamAll(t, c, wearableFrames(t, codec, sp.pcm), 3)
				closeAndSettle(c)
				stored := o.stored(t, o.endRecording(t))
				checkWords(t, sp, []string{sp.text(0), sp.text(1)}, c.State(), stored, false)
			})

			// (b) the owner ends the recording while the app is connected.
			t.Run("end_recording", func(t *testing.T) {
				t.Parallel()
				o := newOwner(t, srv, data, "Ada end")
				sp := compose(t, 0.3,
					said{text: "the train to london leaves at nine in the morning", pause: 0.8},
					said{text: "i left my keys in the kitchen"})
				c := o.dial(t, omiapp.Options{Codec: codec})
				streamAll(t, c, wearableFrames(t, codec, sp.pcm), 3)
				id := o.endRecording(t)
				st := waitCreated(t, c, sp)
				stored := o.stored(t, id)
				checkWords(t, sp, []string{sp.text(0), sp.text(1)}, st, stored, true)
			})

			// (c) the wearable stops sending for 5 s or more (out of range,
			// muted) while the socket stays open, then speaks again. The
			// words before the pause come without another frame: the pause
			// lasts until they do (on a busy box decoding takes longer than
			// 5 s), at most 60 s.
			t.Run("pause", func(t *testing.T) {
				t.Parallel()
				o := newOwner(t, srv, data, "Ada pause")
				first := compose(t, 0.3, said{text: "please check the weather before we go hiking"})
				second := compose(t, 0.3, said{text: "the flight was delayed by two hours"})
				sp := speech{pcm: append(append([]int16{}, first.pcm...), second.pcm...), texts: append(first.texts, second.texts...),
					lines: []string{first.lines[0], "then at least 5 s without a frame, then (timed from here)", second.lines[0]}}
				c := o.dial(t, omiapp.Options{Codec: codec})
				streamAll(t, c, wearableFrames(t, codec, first.pcm), 3)
				pauseEnds := time.Now().Add(5 * time.Second)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				st, err := c.Wait(ctx, "the first sentence", func(st omiapp.State) bool {
					return hasWords(omiapp.Text(st.View()), first.text(0))
				})
				cancel()
				if err != nil {
					t.Errorf("the words before a pause were not sent during it: %v\n%s", err, report(sp, st, nil))
				}
				time.Sleep(time.Until(pauseEnds))
				streamAll(t, c, wearableFrames(t, codec, second.pcm), 3)
				id := o.endRecording(t)
				st = waitCreated(t, c, sp)
				checkWords(t, sp, []string{first.text(0), second.text(0)}, st, o.stored(t, id), true)
			})

			// (d) the recording stops mid-word: the last 150 ms of speech
			// never arrive, and the app closes the socket.
			t.Run("cut_mid_word", func(t *testing.T) {
				t.Parallel()
				o := newOwner(t, srv, data, "Ada cut")
				sp := compose(t, 0.3,
					said{text: "my sister is coming to visit next week", pause: 1.2},
					said{text: "let us meet at the coffee shop near the office", cut: 0.15})
				c := o.dial(t, omiapp.Options{Codec: codec})
				streamAll(t, c, wearableFrames(t, codec, sp.pcm), 3)
				closeAndSettle(c)
				stored := o.stored(t, o.endRecording(t))
				checkWords(t, sp, []string{sp.text(0), sp.text(1)}, c.State(), stored, false)
			})
		})
	}
}

// closeAndSettle closes the socket as the app does and waits for the
// server's answer to the close, then a second more, before the owner ends
// the recording from outside. The close is answered at once, while the
// session may still be decoding its last words (on a busy box, for longer
// than that second): ending the recording must wait for them.
func closeAndSettle(c *omiapp.Client) {
	c.Close(40 * time.Second)
	time.Sleep(time.Second)
}

// text is the i-th sentence said.
func (s speech) text(i int) string { return s.texts[i] }

// streamAll sends every frame at speed× real time.
func streamAll(t *testing.T, c *omiapp.Client, frames [][]byte, speed float64) {
	t.Helper()
	took := time.Duration(float64(len(frames)) * float64(omiapp.FrameDuration) / speed)
	ctx, cancel := context.WithTimeout(context.Background(), 2*took+30*time.Second)
	defer cancel()
	if err := c.Stream(ctx, frames, omiapp.FrameDuration, speed); err != nil {
		t.Fatalf("streaming: %v\n%s", err, messages(c.State()))
	}
}

// waitCreated waits for the processed recording's memory_created event.
func waitCreated(t *testing.T, c *omiapp.Client, sp speech) omiapp.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := c.Wait(ctx, "memory_created", func(st omiapp.State) bool { return len(st.Events("memory_created")) > 0 })
	if err != nil {
		t.Fatalf("%v\n%s", err, report(sp, st, nil))
	}
	return st
}

// checkWords: every sentence is stored word for word (the one cut mid-word
// within two word errors: the cut word may be heard as another or not at
// all), and, when the app was connected as the recording ended, is in the
// ended recording as the app shows it.
func checkWords(t *testing.T, sp speech, sentences []string, st omiapp.State, stored []omiapp.Segment, connected bool) {
	t.Helper()
	storedText := omiapp.Text(stored)
	var lost []string
	for _, s := range sentences {
		if sp.cut[s] {
			heard := lastWords(storedText, len(words(s)))
			if e, n := stt.WordErrors(s, heard); e > 2 {
				lost = append(lost, fmt.Sprintf("the sentence cut mid-word is stored with %d of its %d words wrong: said %q, stored %q", e, n, s, heard))
			}
			continue
		}
		if !hasWords(storedText, s) {
			lost = append(lost, fmt.Sprintf("not stored: %q", s))
		}
		if connected && !hasWords(omiapp.Text(st.Recordings[0]), s) {
			lost = append(lost, fmt.Sprintf("not sent to the app before the recording ended: %q", s))
		}
	}
	if len(lost) > 0 {
		t.Errorf("%s\n%s", strings.Join(lost, "\n"), report(sp, st, stored))
	}
}

// lastWords is text's last n words (all of them when it has fewer).
func lastWords(text string, n int) string {
	w := words(text)
	return strings.Join(w[max(0, len(w)-n):], " ")
}

// ---- 2. shutdown ------------------------------------------------------------

// TestWearableShutdownFinishesUtterances: the appliance stopped (SIGTERM)
// while a wearable is mid-sentence finishes what it heard: the app gets
// the last sentence's segments before the close, the close is 1001, and
// every sentence is stored when the appliance is back.
func TestWearableShutdownFinishesUtterances(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	data := t.TempDir()
	srv := startServe(t, data, wearableEnv...)
	o := newOwner(t, srv, data, "Ada")
	sp := compose(t, 0.3,
		said{text: "we should buy milk eggs and cheese for the weekend", pause: 1.0},
		said{text: "i have to pay the electricity bill by monday"})
	c := o.dial(t, omiapp.Options{Codec: "opus_fs320"})
	streamAll(t, c, wearableFrames(t, "opus_fs320", sp.pcm), 3)

	srv.cmd.Process.Signal(syscall.SIGTERM)
	// The default shutdown timeout (30 s) bounds the wait: a loaded box
	// decodes the last utterance slowly.
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	st, err := c.WaitClosed(ctx)
	if err != nil {
		t.Fatalf("%v\n%s", err, report(sp, st, nil))
	}
	select {
	case err := <-srv.done:
		if err != nil {
			t.Errorf("hearth serve exited with %v after SIGTERM", err)
		}
	case <-time.After(45 * time.Second):
		srv.cmd.Process.Kill()
		t.Fatalf("hearth serve did not stop within 45 s of SIGTERM\n%s", srv.logs)
	}
	var problems []string
	if st.CloseCode != 1001 {
		problems = append(problems, fmt.Sprintf("closed %d %q, want 1001", st.CloseCode, st.CloseText))
	}
	received := omiapp.Text(st.ReceivedSegments())
	for _, s := range []string{sp.text(0), sp.text(1)} {
		if !hasWords(received, s) {
			problems = append(problems, fmt.Sprintf("not sent before the close: %q", s))
		}
	}

	srv = startServe(t, data, wearableEnv...)
	o.srv = srv
	stored := o.stored(t, o.recordingAfterRestart(t))
	for _, s := range []string{sp.text(0), sp.text(1)} {
		if !hasWords(omiapp.Text(stored), s) {
			problems = append(problems, fmt.Sprintf("not stored: %q", s))
		}
	}
	if len(problems) > 0 {
		t.Errorf("%s\n%s", strings.Join(problems, "\n"), report(sp, st, stored))
	}
}

// recordingAfterRestart is the recording a session left: still in
// progress (ended now, from outside), or already processed at shutdown.
func (o owner) recordingAfterRestart(t *testing.T) string {
	t.Helper()
	code, body := o.srv.call(t, "POST", "/v1/conversations", o.token, "{}")
	if code == http.StatusOK {
		var out struct {
			Conversation struct {
				ID string `json:"id"`
			} `json:"conversation"`
		}
		json.Unmarshal([]byte(body), &out)
		return out.Conversation.ID
	}
	code, body = o.srv.call(t, "GET", "/v1/dev/user/conversations?limit=1", o.key, "")
	var list []struct {
		ID string `json:"id"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil || len(list) == 0 {
		t.Fatalf("no recording after the restart: %d %s", code, body)
	}
	return list[0].ID
}

// ---- 3. the app's view ------------------------------------------------------

// omiSession is three minutes of everyday talk: work, home, travel,
// health and family, the weekend, long sentences and short answers, with
// pauses of 0.3 to 2.5 s between sentences and of 4 s between topics.
// No run of six words is said twice (SameText would take it for a
// repeat).
var omiSession = []said{
	{text: "Good morning everyone, let's start the weekly planning meeting.", pause: 1.2},
	{text: "The project deadline moved to the end of the month, so we have a little more time to test the new release.", pause: 0.8},
	{text: "I will send the numbers to the finance team tomorrow.", pause: 0.4},
	{text: "Okay.", pause: 1.5},
	{text: "Can you share the slides before lunch, so that everybody has a chance to read them?", pause: 2.0},
	{text: "The customer asked for a demo on Wednesday afternoon, and I think we should show the mobile version first.", pause: 0.3},
	{text: "Sounds good.", pause: 4.0},
	{text: "We should buy milk, eggs and cheese for the weekend.", pause: 1.0},
	{text: "The kitchen sink is leaking again, and the plumber can only come on Thursday afternoon.", pause: 2.5},
	{text: "I left my keys in the kitchen.", pause: 0.6},
	{text: "Thank you very much.", pause: 1.8},
	{text: "Then buy bread and coffee, and maybe some apples for the children.", pause: 4.0},
	{text: "The train to London leaves at nine in the morning.", pause: 0.9},
	{text: "The flight was delayed by two hours, so we missed the connection in Frankfurt and had to stay overnight in a small hotel near the airport.", pause: 1.4},
	{text: "Please check the weather before we go hiking in the mountains on Saturday.", pause: 0.5},
	{text: "Yes, of course.", pause: 2.2},
	{text: "We could rent a car at the station and drive along the coast to the old fishing village.", pause: 4.0},
	{text: "The doctor said I should walk every day for at least thirty minutes.", pause: 1.1},
	{text: "My sister is coming to visit next week with her two children.", pause: 0.7},
	{text: "Let us meet at the coffee shop near the office.", pause: 1.6},
	{text: "Remember to call grandma on Sunday evening, she wants to hear about the holiday.", pause: 2.4},
	{text: "The car needs new tires before winter.", pause: 0.3},
	{text: "I have to pay the electricity bill by Monday.", pause: 1.9},
	{text: "After dinner we could watch a movie or play a board game with the kids.", pause: 1.3},
	{text: "The dentist moved my appointment to Friday morning at half past ten.", pause: 4.0},
	{text: "On Saturday I want to repair the bicycle and clean the garage before the weather turns cold.", pause: 1.0},
	{text: "The neighbours invited us for a barbecue on Sunday afternoon, and they asked if we could bring a salad.", pause: 0.8},
	{text: "I can make the potato salad that everybody liked last summer.", pause: 1.7},
	{text: "Don't forget to buy fresh herbs at the market.", pause: 4.0},
	{text: "The library called, the books we ordered have arrived and we can pick them up until Friday.", pause: 1.0},
	{text: "Maybe we can go there on the way to the swimming pool.", pause: 0.5},
	{text: "The pool closes early on Thursdays, at six in the evening.", pause: 2.3},
	{text: "All right, then let's go on Wednesday.", pause: 0.9},
	{text: "Good night.", pause: 1.5},
}

// TestOmiAppViewEqualsStoredTranscript: after a three-minute session the
// Omi app shows, text for text, the transcript the appliance stored, and
// every segment it holds is a stored one.
func TestOmiAppViewEqualsStoredTranscript(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	data := t.TempDir()
	srv := startServe(t, data, wearableEnv...)
	o := newOwner(t, srv, data, "Ada")
	parts := append([]said(nil), omiSession...)
	parts[len(parts)-1].pause = 1.5 // silence at the end: this test is not about the last words
	sp := compose(t, 0.5, parts...)
	frames := wearableFrames(t, "opus_fs320", sp.pcm)
	c := o.dial(t, omiapp.Options{Codec: "opus_fs320"})
	// Three times real time: PocketSphinx keeps up with that beside the
	// other tests on two cores.
	streamAll(t, c, frames, 3)
	quiet(t, c, 2*time.Second, 20*time.Second)
	id := o.endRecording(t)
	st := waitCreated(t, c, sp)
	stored := o.stored(t, id)
	compareView(t, sp, st, stored)
}

// quiet waits until no segments have come for d (at most max).
func quiet(t *testing.T, c *omiapp.Client, d, max time.Duration) omiapp.State {
	t.Helper()
	deadline := time.Now().Add(max)
	for {
		st := c.State()
		last := time.Time{}
		for _, m := range st.Messages {
			if m.Kind == omiapp.KindSegments {
				last = m.At
			}
		}
		if time.Since(last) >= d || time.Now().After(deadline) {
			return st
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// compareView: the recording as the app shows it is the stored one.
func compareView(t *testing.T, sp speech, st omiapp.State, stored []omiapp.Segment) {
	t.Helper()
	view := st.Recordings[0]
	if len(stored) == 0 {
		t.Fatalf("nothing stored\n%s", report(sp, st, stored))
	}
	var problems []string
	if err := omiapp.SameText(view, stored); err != nil {
		problems = append(problems, err.Error())
	}
	ids := map[string]bool{}
	for _, s := range stored {
		ids[s.ID] = true
	}
	var strays []string
	for _, s := range view {
		if !ids[s.ID] {
			strays = append(strays, s.ID)
		}
	}
	if len(strays) > 0 {
		problems = append(problems, fmt.Sprintf("the app holds %d segments that are not stored: %s", len(strays), strings.Join(strays, ", ")))
	}
	t.Logf("%d sentences (%.0f s of speech): %d messages of segments (%d segments); the app shows %d segments, %d are stored",
		len(sp.lines), sp.seconds(), len(st.Events(omiapp.KindSegments)), len(st.ReceivedSegments()), len(view), len(stored))
	if u := st.Unknown(); len(u) > 0 {
		t.Logf("%d events the app has no handler for (first: %s)", len(u), u[0].Raw)
	}
	if len(problems) > 0 {
		t.Errorf("%s\n%s", strings.Join(problems, "\n"), report(sp, st, stored))
	}
}

// TestOmiAppViewEqualsStoredTranscriptWithCustomSTT: the app transcribes
// on the phone (custom_stt=enabled) and hands its segments over as
// suggested transcripts, some closer than 3 s to the one before and some
// further, while the wearable's audio flows; what the app then shows is
// what was stored.
func TestOmiAppViewEqualsStoredTranscriptWithCustomSTT(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, wearableEnv...)
	o := newOwner(t, srv, data, "Ada")
	c := o.dial(t, omiapp.Options{Codec: "opus_fs320", CustomSTT: true})
	// The wearable's audio goes to the socket too (here silence: with
	// custom STT the appliance does not transcribe it).
	silence := wearableFrames(t, "opus_fs320", make([]int16, 16000))
	type seg = map[string]any
	suggestions := [][]seg{
		{{"text": "Remind me to water the tomatoes tonight", "speaker": "SPEAKER_00", "speaker_id": 0, "is_user": true, "start": 0.5, "end": 2.5}},
		// 0.3 s later, the same speaker, the sentence goes on.
		{{"text": "and the basil too.", "speaker": "SPEAKER_00", "speaker_id": 0, "is_user": true, "start": 2.8, "end": 4.0}},
		// Over 3 s later: another speaker.
		{{"text": "The plumber comes on Tuesday.", "speaker": "SPEAKER_01", "speaker_id": 1, "start": 8.0, "end": 10.0}},
		// Two at once: the same speaker 0.5 s on, then the user 0.6 s on.
		{
			{"text": "He said it takes about an hour", "speaker": "SPEAKER_01", "speaker_id": 1, "start": 10.5, "end": 12.0},
			{"text": "Okay, I will be home.", "speaker": "SPEAKER_00", "speaker_id": 0, "is_user": true, "start": 12.6, "end": 14.0},
		},
		// 1 s on, the same speaker again, a new sentence.
		{{"text": "Then I can leave the key with the neighbours.", "speaker": "SPEAKER_00", "speaker_id": 0, "is_user": true, "start": 15.0, "end": 17.0}},
		// Over 3 s later.
		{{"text": "Good.", "speaker": "SPEAKER_01", "speaker_id": 1, "start": 21.0, "end": 21.4}},
		{{"text": "and bring the invoice", "speaker": "SPEAKER_01", "speaker_id": 1, "start": 22.0, "end": 23.5}},
	}
	var lines []string
	for _, batch := range suggestions {
		// As the app does: audio, then what its own recogniser heard.
		streamAll(t, c, silence[:10], 4)
		if err := c.SendJSON(map[string]any{"type": "suggested_transcript", "stt_provider": "on-device", "segments": batch}); err != nil {
			t.Fatal(err)
		}
		for _, s := range batch {
			lines = append(lines, fmt.Sprintf("%6.2f–%6.2f s %s %q", s["start"], s["end"], s["speaker"], s["text"]))
		}
		time.Sleep(700 * time.Millisecond) // past the session's 0.6 s flush: one batch at a time
	}
	sp := speech{lines: lines}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if st, err := c.Wait(ctx, "the last suggestion's segment", func(st omiapp.State) bool {
		return strings.Contains(omiapp.Text(st.ReceivedSegments()), "invoice")
	}); err != nil {
		t.Fatalf("%v\n%s", err, report(sp, st, nil))
	}
	id := o.endRecording(t)
	st := waitCreated(t, c, sp)
	compareView(t, sp, st, o.stored(t, id))
}
