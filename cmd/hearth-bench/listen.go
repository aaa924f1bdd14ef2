package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// The socket scenario: N wearables on /v4/listen at once, each streaming
// real-time opus_fs320 (CELT, 20 ms frames, as current Omi firmware sends),
// and either transcribing on the phone (custom STT: suggested_transcript
// every few seconds) or letting the scripted route "hear" each burst of
// sound. It measures how long a segment takes to come back, the server's
// CPU per session, and whether every session stays up.

// listenOptions configure the socket scenario.
type listenOptions struct {
	sessions int
	mode     string // "custom" or "scripted"
	duration time.Duration
	baseURL  string
	users    []wearer
	loop     opusLoop
	batch    time.Duration // frames are sent in batches this long (the app's BLE packets bunch too)
	pid      int           // the server's, for its CPU time and memory
	idleRSS  int64         // the server's RSS before the sessions connected
	load     float64       // load average before the pass
	quiet    bool          // whether that was below quietLoad
}

// wearer is one session's user and the ID token it connects with.
type wearer struct{ uid, token string }

// listenResult is what the socket scenario measured.
type listenResult struct {
	sessions, connected, dropped int
	segments                     int
	latencies                    []time.Duration // mark → segment array, sorted
	elapsed                      time.Duration
	serverCPU, driverCPU         time.Duration
	frames                       int64
	firstErrors                  []string
	// realTime is how many sessions had every segment due while measuring
	// back within flushCycle+1 s (none still outstanding past that at the end).
	realTime          int
	peakRSS, peakAnon int64   // sampled every 250 ms while measuring
	loadAfter         float64 // load average after the pass
}

// realTimeBound is how late a segment may come and its session still count
// as held in real time: the flush it waits for, and one second.
const realTimeBound = flushCycle + time.Second

// flushCycle is the server's 600 ms flush interval: a segment's latency
// from the client's mark includes a wait of up to one cycle before the
// flush that sends it.
const flushCycle = 600 * time.Millisecond

// opusLoop is a few seconds of sound as Opus packets: a burst of tone then
// silence, repeated by each session. loudUntil is the frame at which the
// burst ends within the loop.
type opusLoop struct {
	packets   [][]byte
	loudUntil int
}

// makeOpusLoop encodes 2 s of tone and 1 s of silence as CELT-only Opus at
// 16 kHz, 20 ms frames, 32 kbps VBR, with ffmpeg's libopus.
func makeOpusLoop(ctx context.Context) (opusLoop, error) {
	packets, err := encodeOpus(ctx, "-f", "lavfi", "-i", "sine=frequency=220:sample_rate=16000:duration=2,volume=0.4,apad=pad_dur=1")
	if err != nil {
		return opusLoop{}, err
	}
	if len(packets) < 100 {
		return opusLoop{}, fmt.Errorf("ffmpeg made %d Opus packets, want about 150", len(packets))
	}
	return opusLoop{packets: packets, loudUntil: 100}, nil
}

// benchPhrase is what the speech loop says: everyday dictation that
// PocketSphinx hears word for word in Festival's HTS voice.
const benchPhrase = "good morning today i will call the plumber about the kitchen sink"

// makeSpeechLoop synthesises benchPhrase with Festival's HTS voice, then
// 1.5 s of silence, as CELT Opus; loudUntil is the frame where the speech
// ends, so latency runs from the end of the phrase.
func makeSpeechLoop(ctx context.Context, dir string) (opusLoop, error) {
	for _, tool := range []string{"text2wave", "sox"} {
		if _, err := exec.LookPath(tool); err != nil {
			return opusLoop{}, fmt.Errorf("the speech mode synthesises its phrase with %s: install festival, festvox-us-slt-hts and sox (scripts/deps.sh test)", tool)
		}
	}
	txt, raw, wav := dir+"/bench-phrase.txt", dir+"/bench-phrase-raw.wav", dir+"/bench-phrase.wav"
	if err := os.WriteFile(txt, []byte(benchPhrase), 0o600); err != nil {
		return opusLoop{}, err
	}
	for _, args := range [][]string{
		{"text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw, txt},
		{"sox", raw, "-r", "16000", "-c", "1", "-b", "16", wav, "pad", "0.3", "1.5"},
	} {
		if out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput(); err != nil {
			return opusLoop{}, fmt.Errorf("%s: %v: %s", args[0], err, out)
		}
	}
	pcm, err := os.ReadFile(wav)
	if err != nil || len(pcm) < 44 {
		return opusLoop{}, fmt.Errorf("read the phrase: %v", err)
	}
	// The last 20 ms frame with speech in it.
	last := 0
	for f := 0; 44+(f+1)*640 <= len(pcm); f++ {
		var sum float64
		for i := range 320 {
			v := float64(int16(uint16(pcm[44+f*640+2*i]) | uint16(pcm[44+f*640+2*i+1])<<8))
			sum += v * v
		}
		if sum/320 > 300*300 {
			last = f
		}
	}
	packets, err := encodeOpus(ctx, "-i", wav)
	if err != nil {
		return opusLoop{}, err
	}
	return opusLoop{packets: packets, loudUntil: min(last+1, len(packets)-1)}, nil
}

// encodeOpus runs ffmpeg's libopus as current Omi firmware encodes:
// CELT-only, 16 kHz, 20 ms frames, 32 kbps VBR; input is ffmpeg's args.
func encodeOpus(ctx context.Context, input ...string) ([][]byte, error) {
	ogg, err := encodeOgg(ctx, input...)
	if err != nil {
		return nil, err
	}
	return oggPackets(ogg)
}

// encodeOgg is encodeOpus's audio as an Ogg Opus stream.
func encodeOgg(ctx context.Context, input ...string) ([]byte, error) {
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, errors.New("the socket scenario encodes its audio with ffmpeg (libopus): install ffmpeg (scripts/deps.sh test)")
	}
	args := append([]string{"-hide_banner", "-loglevel", "error"}, input...)
	args = append(args, "-ac", "1", "-ar", "16000", "-c:a", "libopus", "-application", "lowdelay", "-frame_duration", "20",
		"-b:a", "32k", "-vbr", "on", "-f", "ogg", "-")
	cmd := exec.CommandContext(ctx, ffmpeg, args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("encode the bench audio with ffmpeg: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}

// oggPackets returns the audio packets of an Ogg Opus stream (the OpusHead
// and OpusTags header packets are skipped).
func oggPackets(b []byte) ([][]byte, error) {
	var packets [][]byte
	var cur []byte
	for len(b) > 0 {
		if len(b) < 27 || string(b[:4]) != "OggS" {
			return nil, errors.New("not an Ogg stream")
		}
		nseg := int(b[26])
		if len(b) < 27+nseg {
			return nil, errors.New("truncated Ogg page header")
		}
		lacing := b[27 : 27+nseg]
		body := b[27+nseg:]
		for _, l := range lacing {
			if int(l) > len(body) {
				return nil, errors.New("truncated Ogg page")
			}
			cur = append(cur, body[:l]...)
			body = body[l:]
			if l < 255 {
				packets = append(packets, cur)
				cur = nil
			}
		}
		size := 27 + nseg
		for _, l := range lacing {
			size += int(l)
		}
		b = b[size:]
	}
	if len(packets) < 2 || !bytes.HasPrefix(packets[0], []byte("OpusHead")) {
		return nil, errors.New("no OpusHead: not Ogg Opus")
	}
	return packets[2:], nil
}

// runListen runs the socket scenario: sessions ramp up over a few seconds,
// then stream for opts.duration while latencies and CPU are measured.
func runListen(ctx context.Context, opts listenOptions) listenResult {
	res := listenResult{sessions: opts.sessions}
	var (
		mu        sync.Mutex
		measuring atomic.Bool
		connected atomic.Int64
		dropped   atomic.Int64
		frames    atomic.Int64
		wg        sync.WaitGroup
	)
	noteErr := func(s string) {
		mu.Lock()
		if len(res.firstErrors) < 5 {
			res.firstErrors = append(res.firstErrors, s)
		}
		mu.Unlock()
	}
	late := make([]atomic.Bool, opts.sessions) // a segment came (or is still due) past realTimeBound
	record := func(session int, d time.Duration) {
		if !measuring.Load() {
			return
		}
		if d > realTimeBound {
			late[session].Store(true)
		}
		mu.Lock()
		res.latencies = append(res.latencies, d)
		res.segments++
		mu.Unlock()
	}
	up := make([]atomic.Bool, opts.sessions)
	pending := make([]sessionMarks, opts.sessions)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ramp := min(time.Duration(opts.sessions)*10*time.Millisecond, 5*time.Second)
	for i := range opts.sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := sleepCtx(ctx, ramp*time.Duration(i)/time.Duration(opts.sessions)); err != nil {
				return
			}
			err := streamSession(ctx, opts, opts.users[i%len(opts.users)], i, &frames, &pending[i], record,
				func() { connected.Add(1); up[i].Store(true) })
			if err != nil && ctx.Err() == nil {
				up[i].Store(false)
				dropped.Add(1)
				noteErr(err.Error())
			}
		}()
	}
	// Let every session connect and settle, then measure.
	if sleepCtx(ctx, ramp+2*time.Second) != nil {
		return res
	}
	cpu0, self0 := processCPU(opts.pid), selfCPU()
	frames0 := frames.Load()
	measuring.Store(true)
	t0 := time.Now()
	sampleRSS := func() {
		res.peakRSS = max(res.peakRSS, readRSS(opts.pid))
		res.peakAnon = max(res.peakAnon, readAnonRSS(opts.pid))
	}
	for time.Since(t0) < opts.duration && sleepCtx(ctx, min(250*time.Millisecond, opts.duration-time.Since(t0))) == nil {
		sampleRSS()
	}
	sampleRSS()
	// A segment still unanswered past the bound is late too.
	for i := range pending {
		if pending[i].oldest() > realTimeBound {
			late[i].Store(true)
		}
	}
	measuring.Store(false)
	res.elapsed = time.Since(t0)
	res.serverCPU, res.driverCPU = processCPU(opts.pid)-cpu0, selfCPU()-self0
	res.frames = frames.Load() - frames0
	res.connected = int(connected.Load())
	cancel()
	wg.Wait()
	res.dropped = int(dropped.Load())
	for i := range late {
		if up[i].Load() && !late[i].Load() {
			res.realTime++
		}
	}
	res.loadAfter = loadAverage()
	slices.Sort(res.latencies)
	return res
}

// streamSession is one wearable: it streams the loop in real time and
// marks when a segment is due (a suggestion sent, or a burst of sound
// ended), timing each segment array that comes back against the oldest
// open mark.
func streamSession(ctx context.Context, opts listenOptions, w wearer, n int, frames *atomic.Int64, marks *sessionMarks,
	record func(int, time.Duration), onConnect func()) error {
	q := "language=en&sample_rate=16000&codec=opus_fs320&uid=" + w.uid +
		"&include_speech_profile=false&stt_service=soniox&conversation_timeout=600"
	if opts.mode == "custom" {
		q += "&custom_stt=enabled"
	}
	q += "&speaker_auto_assign=enabled&create_speakers=false"
	url := strings.Replace(opts.baseURL, "http://", "ws://", 1) + "/v4/listen?" + q
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
	conn, _, err := dialer.DialContext(ctx, url, http.Header{"Authorization": {"Bearer " + w.token}})
	if err != nil {
		return fmt.Errorf("session %d: dial: %w", n, err)
	}
	defer conn.Close()
	onConnect()

	readErr := make(chan error, 1)
	go func() {
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				readErr <- err
				return
			}
			if len(data) > 0 && data[0] == '[' {
				if d, ok := marks.answer(); ok {
					record(n, d)
				}
			}
		}
	}()

	perBatch := max(int(opts.batch/(20*time.Millisecond)), 1)
	tick := time.NewTicker(time.Duration(perBatch) * 20 * time.Millisecond)
	defer tick.Stop()
	frame, utterance := 0, 0
	loop := opts.loop
	for {
		select {
		case <-ctx.Done():
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
			return nil
		case err := <-readErr:
			return fmt.Errorf("session %d: closed by the server: %w", n, err)
		case <-tick.C:
		}
		for range perBatch {
			i := frame % len(loop.packets)
			conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := conn.WriteMessage(websocket.BinaryMessage, loop.packets[i]); err != nil {
				return fmt.Errorf("session %d: send audio: %w", n, err)
			}
			frames.Add(1)
			frame++
			if i != loop.loudUntil {
				continue
			}
			// The burst just ended: a segment is due.
			marks.add(time.Now())
			if opts.mode == "custom" {
				start := float64(frame) * 0.02
				msg, _ := json.Marshal(map[string]any{"type": "suggested_transcript", "stt_provider": "bench",
					"segments": []map[string]any{{"text": "Bench utterance " + strconv.Itoa(utterance) + ".",
						"speaker": "SPEAKER_00", "start": start - 2, "end": start}}})
				utterance++
				if err := conn.WriteMessage(websocket.TextMessage, msg); err != nil {
					return fmt.Errorf("session %d: send transcript: %w", n, err)
				}
			}
		}
	}
}

// sessionMarks are a session's open marks: when each segment still due
// was due, oldest first.
type sessionMarks struct {
	mu    sync.Mutex
	marks []time.Time
}

func (m *sessionMarks) add(t time.Time) {
	m.mu.Lock()
	m.marks = append(m.marks, t)
	m.mu.Unlock()
}

// answer closes the oldest mark and returns how long ago it was set.
func (m *sessionMarks) answer() (time.Duration, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.marks) == 0 {
		return 0, false
	}
	d := time.Since(m.marks[0])
	m.marks = m.marks[1:]
	return d, true
}

// oldest is how long the oldest open mark has waited; 0 with none.
func (m *sessionMarks) oldest() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.marks) == 0 {
		return 0
	}
	return time.Since(m.marks[0])
}

// listenScript is the scripted route's script for the scenario.
const listenScript = `{"name":"scripted","utterances":[{"text":"Bench utterance."}]}`

func writeListenScript(dir string) (string, error) {
	path := dir + "/bench-stt-script.json"
	return path, os.WriteFile(path, []byte(listenScript), 0o600)
}

// markdown renders the socket scenario's results.
func (r listenResult) markdown(opts listenOptions, cores int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### /v4/listen: %d sessions, %s mode, opus_fs320 in real time\n\n", r.sessions, opts.mode)
	within := 0
	for _, l := range r.latencies {
		if l <= flushCycle+time.Second {
			within++
		}
	}
	share := 0.0
	if len(r.latencies) > 0 {
		share = 100 * float64(within) / float64(len(r.latencies))
	}
	wall := r.elapsed.Seconds()
	serverPct := 0.0
	if wall > 0 {
		serverPct = 100 * r.serverCPU.Seconds() / wall / float64(cores)
	}
	fmt.Fprintf(&b, "Before the pass: %s; after it: load average %.2f.\n\n", loadNote(opts.load, opts.quiet), r.loadAfter)
	b.WriteString("| connected | dropped | held in real time | segments | p50 | p95 | p99 | max | within flush+1 s | server CPU (of all cores) | CPU per session | driver CPU | audio frames/s | RSS idle → peak | per session | anonymous peak |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	perSession := 0.0
	if r.connected > 0 && wall > 0 {
		perSession = 100 * r.serverCPU.Seconds() / wall / float64(r.connected)
	}
	perSessionRSS := "n/a"
	if opts.idleRSS > 0 && r.peakRSS > 0 && r.sessions > 0 {
		perSessionRSS = fmtBytes((r.peakRSS - opts.idleRSS) / int64(r.sessions))
	}
	fmt.Fprintf(&b, "| %d/%d | %d | %d/%d | %d | %s | %s | %s | %s | %.1f %% | %.1f %% | %.3f %% of a core | %.1f %% | %.0f | %s → %s | %s | %s |\n",
		r.connected, r.sessions, r.dropped, r.realTime, r.sessions, r.segments,
		fmtDur(percentile(r.latencies, 50)), fmtDur(percentile(r.latencies, 95)), fmtDur(percentile(r.latencies, 99)),
		fmtDur(percentile(r.latencies, 100)),
		share, serverPct, perSession, 100*r.driverCPU.Seconds()/max(wall, 1e-9)/float64(cores), float64(r.frames)/max(wall, 1e-9),
		fmtBytes(opts.idleRSS), fmtBytes(r.peakRSS), perSessionRSS, fmtBytes(r.peakAnon))
	fmt.Fprintf(&b, "\nLatency runs from the moment a segment is due (the suggestion sent, or the end of a burst of sound) to the segment array on the client; it includes the wait of up to %s for the server's next flush, so \"within flush+1 s\" is the share delivered within 1 s of its flush. Frames go out in %s batches. Measured over %s after all sessions connected. A session is held in real time when every segment due while measuring came within %s (none still outstanding past that at the end). RSS is sampled every 250 ms; per session is (peak − idle) / sessions.\n",
		fmtDur(flushCycle), opts.batch, r.elapsed.Round(time.Millisecond), fmtDur(realTimeBound))
	for _, e := range r.firstErrors {
		fmt.Fprintf(&b, "- error: %s\n", e)
	}
	return b.String()
}
