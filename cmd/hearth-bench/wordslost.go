package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// The words-lost scenario (-scenarios words-lost): Festival sentences,
// each its own recording on /v4/listen, heard by the server's own speech
// route (PocketSphinx out of the box), each ending the hard way: the
// audio stops where the speech does, and then
//
//   - close: the app closes the socket at once;
//   - stall: the audio stops for 5 s, only keep-alives (0x8A 0x00) flow on
//     the open socket, then the app closes it;
//   - owner_end: the owner ends the recording (POST /v1/conversations)
//     right after the last frame, the socket still open;
//   - sigterm: the server gets SIGTERM right after the last frame (and is
//     started again on the same folder to read what it kept).
//
// Every recording is one sentence, in pcm16 or opus_fs320. The reference
// is what the same server's route hears in the same audio with 1 s of
// silence after it, through POST /v1/stt/transcribe; a lost word is a
// reference word missing from the stored transcript (multiset
// difference). The word error rate against the text said is reported
// beside it.

// Endings, in the order recordings are dealt to them.
var wordsEndings = []string{"close", "stall", "owner_end", "sigterm"}

// wordsCodecs are the codecs each ending is spread over.
var wordsCodecs = []string{"pcm16", "opus_fs320"}

// wordsLead is the silence before each sentence, as a wearable's stream
// starts a moment before the speaker does.
const wordsLead = 0.3

// wordsStall is how long the stall ending sends no audio.
const wordsStall = 5 * time.Second

// wordsOptions configure the scenario.
type wordsOptions struct {
	sentences int           // recordings, one sentence each
	sessions  int           // recordings at once
	batch     time.Duration // frames are sent in batches this long
	baseURL   string
	dir       string // for the synthesised speech
	cli       func(ctx context.Context, args ...string) (string, error)
	dataDir   string
	// sigterm stops the server with SIGTERM and waits until it has exited;
	// restart starts it again on the same folder and address.
	sigterm func() error
	restart func() error
}

// wordsRecording is one sentence sent as one recording.
type wordsRecording struct {
	n             int
	text, ending  string
	codec         string
	pcm           []int16 // lead silence and the sentence, ending where the speech does
	frames        [][]byte
	refAudio      []byte // the same audio with 1 s of silence after it, for the reference
	refName       string // its file name (the endpoint reads WAV or Ogg Opus)
	uid, token    string
	key           string // a developer key, to read what was stored
	reference     string // what the route hears with silence after the speech
	stored        string
	problem       string // why nothing could be read, if so
	closeCode     int
	segmentsSent  int // segment messages the client received
	lost          int
	short         int // reference words more than stored words: words missing outright, not heard as others
	saidErrs      int // word errors of stored against the text said
	refErrs       int // word errors of the reference against the text said
	said, refWord int // words said, words in the reference
}

// wordsResult is the scenario's outcome.
type wordsResult struct {
	recs    []*wordsRecording
	elapsed time.Duration
	opts    wordsOptions
}

// runWordsLost synthesises the sentences, takes the reference, then sends
// the recordings: close, stall and owner_end sessions.sessions at a time,
// then the sigterm ones in rounds of opts.sessions, all ending at once.
func runWordsLost(ctx context.Context, opts wordsOptions, logf func(string, ...any)) (wordsResult, error) {
	res := wordsResult{opts: opts}
	t0 := time.Now()
	n := min(opts.sentences, len(wordsSentences))
	recs := make([]*wordsRecording, n)
	for i := range n {
		recs[i] = &wordsRecording{n: i, text: wordsSentences[i], ending: wordsEndings[i%len(wordsEndings)],
			codec: wordsCodecs[(i/len(wordsEndings))%len(wordsCodecs)]}
	}
	res.recs = recs
	logf("words-lost: synthesising %d sentences with Festival", n)
	if err := eachAtOnce(ctx, recs, 2, func(r *wordsRecording) error { return synthesise(ctx, opts.dir, r) }); err != nil {
		return res, err
	}
	logf("words-lost: %d users, each with an ID token and a developer key", n)
	if err := eachAtOnce(ctx, recs, 4, func(r *wordsRecording) error { return addWordsUser(ctx, opts, r) }); err != nil {
		return res, err
	}
	logf("words-lost: the reference (POST /v1/stt/transcribe of each sentence with 1 s of silence after it)")
	// The first alone: the route loads its first decoder before others
	// are asked for at once.
	if err := takeReference(ctx, opts.baseURL, recs[0]); err != nil {
		return res, err
	}
	if err := eachAtOnce(ctx, recs[1:], 2, func(r *wordsRecording) error { return takeReference(ctx, opts.baseURL, r) }); err != nil {
		return res, err
	}
	var live, term []*wordsRecording
	for _, r := range recs {
		if r.ending == "sigterm" {
			term = append(term, r)
		} else {
			live = append(live, r)
		}
	}
	logf("words-lost: %d recordings ended by close, stall and owner_end, %d at a time", len(live), opts.sessions)
	if err := eachAtOnce(ctx, live, opts.sessions, func(r *wordsRecording) error {
		sendRecording(ctx, opts, r)
		score(r)
		logRecording(logf, r)
		return hung(r)
	}); err != nil {
		return res, err
	}
	for i := 0; i < len(term) && ctx.Err() == nil; i += opts.sessions {
		round := term[i:min(i+opts.sessions, len(term))]
		logf("words-lost: %d recordings ended by SIGTERM to the server", len(round))
		if err := sigtermRound(ctx, opts, round); err != nil {
			return res, err
		}
		for _, r := range round {
			score(r)
			logRecording(logf, r)
			if err := hung(r); err != nil {
				return res, err
			}
		}
	}
	res.elapsed = time.Since(t0)
	return res, ctx.Err()
}

// hung is an error when the server stopped answering during the
// recording: the scenario stops rather than wait out every recording left.
func hung(r *wordsRecording) error {
	if strings.Contains(r.problem, "Client.Timeout") || strings.Contains(r.problem, "no ready status") {
		return fmt.Errorf("the server stopped answering (recording #%d: %s)", r.n, r.problem)
	}
	return nil
}

// eachAtOnce runs fn on every recording, at most k at a time, and returns
// the first error; none is started after one.
func eachAtOnce(ctx context.Context, recs []*wordsRecording, k int, fn func(*wordsRecording) error) error {
	sem := make(chan struct{}, max(k, 1))
	var (
		wg     sync.WaitGroup
		once   sync.Once
		first  error
		failed atomic.Bool
	)
	for _, r := range recs {
		if ctx.Err() != nil || failed.Load() {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := fn(r); err != nil {
				once.Do(func() { first = err })
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// synthesise speaks the sentence with Festival's HTS voice at 16 kHz, cuts
// the silence Festival leaves after it (the audio ends where the speech
// does), and encodes the frames.
func synthesise(ctx context.Context, dir string, r *wordsRecording) error {
	base := filepath.Join(dir, "words-"+strconv.Itoa(r.n))
	txt, raw, trimmed, full, padded := base+".txt", base+"-raw.wav", base+".wav", base+"-lead.wav", base+"-padded.wav"
	if err := os.WriteFile(txt, []byte(r.text), 0o600); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw, txt},
		{"sox", raw, "-r", "16000", "-c", "1", "-b", "16", trimmed, "reverse", "silence", "1", "0.01", "0.1%", "reverse"},
	} {
		if _, err := exec.LookPath(args[0]); err != nil {
			return fmt.Errorf("the words-lost scenario synthesises its sentences with %s: install festival, festvox-us-slt-hts and sox (scripts/deps.sh test)", args[0])
		}
		if out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", args[0], err, out)
		}
	}
	speech, err := readPCM16(trimmed)
	if err != nil {
		return err
	}
	r.pcm = append(make([]int16, int(wordsLead*16000)), speech...)
	r.refAudio, r.refName = wavBytes(append(append([]int16{}, r.pcm...), make([]int16, 16000)...)), "sentence.wav"
	switch r.codec {
	case "pcm16":
		for off := 0; off < len(r.pcm); off += 320 {
			chunk := r.pcm[off:min(off+320, len(r.pcm))]
			b := make([]byte, 2*len(chunk))
			for i, v := range chunk {
				binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
			}
			r.frames = append(r.frames, b)
		}
	case "opus_fs320":
		if err := os.WriteFile(full, wavBytes(r.pcm), 0o600); err != nil {
			return err
		}
		if r.frames, err = encodeOpus(ctx, "-i", full); err != nil {
			return err
		}
		// The reference hears the codec's audio too: the same encoding
		// of the same samples, with the silence after them.
		if err := os.WriteFile(padded, r.refAudio, 0o600); err != nil {
			return err
		}
		if r.refAudio, err = encodeOgg(ctx, "-i", padded); err != nil {
			return err
		}
		r.refName = "sentence.ogg"
	}
	for _, f := range []string{txt, raw, trimmed, full, padded} {
		os.Remove(f)
	}
	return nil
}

// readPCM16 reads a 16-bit mono WAV's samples.
func readPCM16(path string) ([]int16, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, fmt.Errorf("%s: not a WAV file", path)
	}
	for off := 12; off+8 <= len(b); {
		id, n := string(b[off:off+4]), int(binary.LittleEndian.Uint32(b[off+4:]))
		if id == "data" {
			body := b[off+8 : min(off+8+n, len(b))]
			pcm := make([]int16, len(body)/2)
			for i := range pcm {
				pcm[i] = int16(binary.LittleEndian.Uint16(body[2*i:]))
			}
			return pcm, nil
		}
		off += 8 + n + n%2
	}
	return nil, fmt.Errorf("%s: no data chunk", path)
}

// wavBytes is 16 kHz mono PCM as a WAV file.
func wavBytes(pcm []int16) []byte {
	b := make([]byte, 0, 44+2*len(pcm))
	b = append(b, "RIFF"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(36+2*len(pcm)))
	b = append(b, "WAVEfmt "...)
	b = binary.LittleEndian.AppendUint32(b, 16)
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = binary.LittleEndian.AppendUint32(b, 16000)
	b = binary.LittleEndian.AppendUint32(b, 32000)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(2*len(pcm)))
	for _, v := range pcm {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

// addWordsUser gives the recording its own owner: a user, an ID token (the
// socket, POST /v1/conversations, /v1/stt/transcribe) and a developer key
// (to read the stored transcript). One user per recording keeps the
// recordings apart, also across a restart.
func addWordsUser(ctx context.Context, opts wordsOptions, r *wordsRecording) (err error) {
	if r.uid, err = opts.cli(ctx, "users", "add", "--data", opts.dataDir, "--name", "speaker "+strconv.Itoa(r.n)); err != nil {
		return err
	}
	if r.token, err = opts.cli(ctx, "token", "--data", opts.dataDir, "--user", r.uid); err != nil {
		return err
	}
	r.key, err = opts.cli(ctx, "keys", "create", "--data", opts.dataDir, "--user", r.uid, "--kind", "dev", "--scopes", "conversations:read")
	return err
}

// wordsHTTP waits as long as the appliance may take to hear out a live
// session before it processes a recording.
var wordsHTTP = &http.Client{Timeout: 90 * time.Second}

// takeReference sends the recording's audio, with 1 s of silence after it,
// to /v1/stt/transcribe, retrying while the route is busy.
func takeReference(ctx context.Context, baseURL string, r *wordsRecording) error {
	for attempt := 0; ; attempt++ {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("file", r.refName)
		part.Write(r.refAudio)
		mw.WriteField("diarize", "false")
		mw.Close()
		req, _ := http.NewRequestWithContext(ctx, "POST", baseURL+"/v1/stt/transcribe", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+r.token)
		resp, err := wordsHTTP.Do(req)
		if err != nil {
			return fmt.Errorf("reference for %q: %w", r.text, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if (resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusTooManyRequests) && attempt < 20 {
			if err := sleepCtx(ctx, time.Second); err != nil {
				return err
			}
			continue
		}
		var out struct {
			Text string `json:"text"`
		}
		if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &out) != nil {
			return fmt.Errorf("reference for %q: %d %s", r.text, resp.StatusCode, truncate(string(b), 200))
		}
		r.reference = out.Text
		return nil
	}
}

// wordsConn is one recording's socket, read as the app reads it: the
// server's text "ping" is answered with the app's keep-alive.
type wordsConn struct {
	conn     *websocket.Conn
	wmu      sync.Mutex
	ready    chan struct{}
	done     chan struct{} // the reader has ended
	code     int           // close code, once done
	segments int
	behind   int // service_status stt_behind messages: stretches skipped, transcribed late
}

// keepAlive is what the Omi app sends in answer to the server's "ping":
// two bytes as a binary message.
var keepAlive = []byte{0x8A, 0x00}

func dialWords(ctx context.Context, baseURL, codec string, r *wordsRecording) (*wordsConn, error) {
	return dialListenAs(ctx, baseURL, codec, 16000, r.uid, r.token)
}

// dialListenAs opens a session as the app does, for uid with its ID token,
// and waits for the ready status.
func dialListenAs(ctx context.Context, baseURL, codec string, rate int, uid, token string) (*wordsConn, error) {
	q := "language=en&sample_rate=" + strconv.Itoa(rate) + "&codec=" + codec + "&uid=" + uid +
		"&include_speech_profile=false&stt_service=soniox&conversation_timeout=120&speaker_auto_assign=enabled&create_speakers=false"
	url := strings.Replace(baseURL, "http://", "ws://", 1) + "/v4/listen?" + q
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
	conn, _, err := dialer.DialContext(ctx, url, http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	c := &wordsConn{conn: conn, ready: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		var readyOnce sync.Once
		for {
			kind, data, err := conn.ReadMessage()
			if err != nil {
				var ce *websocket.CloseError
				if errors.As(err, &ce) {
					c.code = ce.Code
				} else {
					c.code = websocket.CloseAbnormalClosure
				}
				return
			}
			switch {
			case kind == websocket.TextMessage && string(data) == "ping":
				c.write(websocket.BinaryMessage, keepAlive)
			case len(data) > 0 && data[0] == '[':
				c.wmu.Lock()
				c.segments++
				c.wmu.Unlock()
			case bytes.Contains(data, []byte(`"service_status"`)) && bytes.Contains(data, []byte(`"ready"`)):
				readyOnce.Do(func() { close(c.ready) })
			case bytes.Contains(data, []byte(`"service_status"`)) && bytes.Contains(data, []byte(`"stt_behind"`)):
				c.wmu.Lock()
				c.behind++
				c.wmu.Unlock()
			}
		}
	}()
	select {
	case <-c.ready:
		return c, nil
	case <-c.done:
		return nil, fmt.Errorf("closed %d before the session was ready", c.code)
	case <-time.After(30 * time.Second):
		conn.Close()
		return nil, errors.New("no ready status within 30 s")
	}
}

// segmentCount is how many segment messages have come so far.
func (c *wordsConn) segmentCount() int {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.segments
}

func (c *wordsConn) write(kind int, b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.conn.WriteMessage(kind, b)
}

// stream sends the frames in real time, in batches.
func (c *wordsConn) stream(ctx context.Context, frames [][]byte, batch time.Duration) error {
	per := max(int(batch/(20*time.Millisecond)), 1)
	tick := time.NewTicker(time.Duration(per) * 20 * time.Millisecond)
	defer tick.Stop()
	for i := 0; i < len(frames); {
		for end := min(i+per, len(frames)); i < end; i++ {
			if err := c.write(websocket.BinaryMessage, frames[i]); err != nil {
				return fmt.Errorf("send audio: %w", err)
			}
		}
		if i == len(frames) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// closeAndWait closes the socket as the app does and waits for the
// server's answer (up to wait), then closes the connection.
func (c *wordsConn) closeAndWait(wait time.Duration) {
	c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	select {
	case <-c.done:
	case <-time.After(wait):
	}
	c.conn.Close()
	<-c.done
}

// sendRecording streams one recording and ends it as its ending says
// (close, stall or owner_end), then reads what was stored.
func sendRecording(ctx context.Context, opts wordsOptions, r *wordsRecording) {
	c, err := dialWords(ctx, opts.baseURL, r.codec, r)
	if err != nil {
		r.problem = err.Error()
		return
	}
	if err := c.stream(ctx, r.frames, opts.batch); err != nil {
		r.problem = err.Error()
		c.conn.Close()
		return
	}
	switch r.ending {
	case "close", "stall":
		if r.ending == "stall" {
			// The wearable is out of range: the socket stays open and
			// only the app's keep-alives flow.
			for range int(wordsStall / time.Second) {
				if sleepCtx(ctx, time.Second) != nil {
					break
				}
				c.write(websocket.BinaryMessage, keepAlive)
			}
		}
		// The app closes; the server may finish the last words before it
		// answers. Then the owner ends the recording from outside.
		c.closeAndWait(40 * time.Second)
		r.closeCode, r.segmentsSent = c.code, c.segments
		sleepCtx(ctx, time.Second)
		id, err := endRecording(ctx, opts.baseURL, r.token)
		if err != nil {
			r.problem = err.Error()
			return
		}
		r.stored, r.problem = storedText(ctx, opts.baseURL, r.key, id)
	case "owner_end":
		id, err := endRecording(ctx, opts.baseURL, r.token)
		if err != nil {
			r.problem = err.Error()
		} else {
			r.stored, r.problem = storedText(ctx, opts.baseURL, r.key, id)
		}
		c.closeAndWait(5 * time.Second)
		r.closeCode, r.segmentsSent = c.code, c.segments
	}
}

// sigtermRound streams the round's recordings at once, each starting so
// that all end together, sends SIGTERM to the server as the last frame
// goes out, starts it again, and reads what each recording left.
func sigtermRound(ctx context.Context, opts wordsOptions, round []*wordsRecording) error {
	longest := 0
	for _, r := range round {
		longest = max(longest, len(r.frames))
	}
	conns := make([]*wordsConn, len(round))
	for i, r := range round {
		c, err := dialWords(ctx, opts.baseURL, r.codec, r)
		if err != nil {
			r.problem = err.Error()
			continue
		}
		conns[i] = c
	}
	var wg sync.WaitGroup
	start := time.Now().Add(200 * time.Millisecond)
	for i, r := range round {
		if conns[i] == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Start late by the difference in length, so every stream's
			// last frame goes out at the same moment.
			time.Sleep(time.Until(start.Add(time.Duration(longest-len(r.frames)) * 20 * time.Millisecond)))
			if err := conns[i].stream(ctx, r.frames, opts.batch); err != nil {
				r.problem = err.Error()
			}
		}()
	}
	wg.Wait()
	if err := opts.sigterm(); err != nil {
		return err
	}
	for i, r := range round {
		if c := conns[i]; c != nil {
			select {
			case <-c.done:
			case <-time.After(5 * time.Second):
			}
			c.conn.Close()
			<-c.done
			r.closeCode, r.segmentsSent = c.code, c.segments
		}
	}
	if err := opts.restart(); err != nil {
		return err
	}
	for _, r := range round {
		if r.problem != "" {
			continue
		}
		id, err := recordingAfterRestart(ctx, opts.baseURL, r)
		if err != nil {
			r.problem = err.Error()
			continue
		}
		r.stored, r.problem = storedText(ctx, opts.baseURL, r.key, id)
	}
	return nil
}

// endRecording is the app's POST /v1/conversations with the owner's ID
// token; it returns the ended conversation's id.
func endRecording(ctx context.Context, baseURL, token string) (string, error) {
	code, body, err := wordsCall(ctx, "POST", baseURL+"/v1/conversations", token, "{}")
	if err != nil {
		return "", err
	}
	var out struct {
		Conversation struct {
			ID string `json:"id"`
		} `json:"conversation"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(body), &out) != nil || out.Conversation.ID == "" {
		return "", fmt.Errorf("POST /v1/conversations: %d %s", code, truncate(body, 200))
	}
	return out.Conversation.ID, nil
}

// recordingAfterRestart is the recording a session left at a shutdown:
// still in progress (ended now), or already processed.
func recordingAfterRestart(ctx context.Context, baseURL string, r *wordsRecording) (string, error) {
	if id, err := endRecording(ctx, baseURL, r.token); err == nil {
		return id, nil
	}
	code, body, err := wordsCall(ctx, "GET", baseURL+"/v1/dev/user/conversations?limit=1", r.key, "")
	if err != nil {
		return "", err
	}
	var list []struct {
		ID string `json:"id"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil {
		return "", fmt.Errorf("GET /v1/dev/user/conversations: %d %s", code, truncate(body, 200))
	}
	if len(list) == 0 {
		return "", errors.New("no recording after the restart")
	}
	return list[0].ID, nil
}

// storedText is a conversation's stored transcript, its segments' text
// joined; the second value says why it could not be read.
func storedText(ctx context.Context, baseURL, key, id string) (string, string) {
	code, body, err := wordsCall(ctx, "GET", baseURL+"/v1/dev/user/conversations/"+id+"?include_transcript=true", key, "")
	if err != nil {
		return "", err.Error()
	}
	var conv struct {
		TranscriptSegments []struct {
			Text string `json:"text"`
		} `json:"transcript_segments"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(body), &conv) != nil {
		return "", fmt.Sprintf("GET conversation: %d %s", code, truncate(body, 200))
	}
	var texts []string
	for _, s := range conv.TranscriptSegments {
		texts = append(texts, s.Text)
	}
	return strings.Join(texts, " "), ""
}

func wordsCall(ctx context.Context, method, url, auth, body string) (int, string, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+auth)
	req.Header.Set("Content-Type", "application/json")
	resp, err := wordsHTTP.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// score counts the recording's lost words and word errors. A recording
// that could not be read has lost every reference word.
func score(r *wordsRecording) {
	ref, stored := wordList(r.reference), wordList(r.stored)
	r.refWord, r.lost = len(ref), lostWords(ref, stored)
	r.short = max(0, len(ref)-len(stored))
	r.saidErrs, r.said = stt.WordErrors(r.text, r.stored)
	r.refErrs, _ = stt.WordErrors(r.text, r.reference)
}

// wordList is text as lower-case words without punctuation, as
// stt.WordErrors compares them.
func wordList(s string) []string {
	return strings.Fields(strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'' || r > 127:
			return r
		}
		return ' '
	}, s))
}

// lostWords is how many of ref's words are missing from heard, each word
// counted as often as it occurs (a multiset difference).
func lostWords(ref, heard []string) int {
	have := map[string]int{}
	for _, w := range heard {
		have[w]++
	}
	lost := 0
	for _, w := range ref {
		if have[w] > 0 {
			have[w]--
		} else {
			lost++
		}
	}
	return lost
}

func logRecording(logf func(string, ...any), r *wordsRecording) {
	note := ""
	if r.problem != "" {
		note = " (" + r.problem + ")"
	}
	logf("words-lost: #%d %s/%s: %d of %d reference words lost, close %d, %d segment messages; reference %q, stored %q%s",
		r.n, r.ending, r.codec, r.lost, r.refWord, r.closeCode, r.segmentsSent, r.reference, r.stored, note)
}

// wordsTally sums a group of recordings.
type wordsTally struct {
	recordings, withLoss, problems int
	said, refWords, lost, short    int
	saidErrs, refErrs              int
}

func (t *wordsTally) add(r *wordsRecording) {
	t.recordings++
	t.said += r.said
	t.refWords += r.refWord
	t.lost += r.lost
	t.short += r.short
	t.saidErrs += r.saidErrs
	t.refErrs += r.refErrs
	if r.lost > 0 {
		t.withLoss++
	}
	if r.problem != "" {
		t.problems++
	}
}

func (t wordsTally) row(name string) string {
	pct := func(a, b int) string {
		if b == 0 {
			return "–"
		}
		return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
	}
	per100 := 0.0
	if t.recordings > 0 {
		per100 = 100 * float64(t.lost) / float64(t.recordings)
	}
	return fmt.Sprintf("| %s | %d | %d | %d | %d | %.1f | %d | %d | %s | %s | %d |\n", name, t.recordings, t.said, t.refWords, t.lost,
		per100, t.short, t.withLoss, pct(t.saidErrs, t.said), pct(t.refErrs, t.said), t.problems)
}

// markdown renders the scenario's results: one row per ending and codec,
// then per ending and in all, then the recordings that lost words.
func (w wordsResult) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### /v4/listen: words lost when a recording ends the hard way (%d sentences, one a recording, %d at a time)\n\n",
		len(w.recs), w.opts.sessions)
	b.WriteString("| ending / codec | recordings | words said | reference words | lost | lost per 100 sentences | of them missing outright | recordings with a loss | WER stored vs said | WER reference vs said | unreadable |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var all wordsTally
	for _, e := range wordsEndings {
		var ending wordsTally
		for _, c := range wordsCodecs {
			var t wordsTally
			for _, r := range w.recs {
				if r.ending == e && r.codec == c {
					t.add(r)
				}
			}
			if t.recordings > 0 {
				b.WriteString(t.row(e + " / " + c))
			}
		}
		for _, r := range w.recs {
			if r.ending == e {
				ending.add(r)
				all.add(r)
			}
		}
		b.WriteString(ending.row("**" + e + "**"))
	}
	b.WriteString(all.row("**all**"))
	fmt.Fprintf(&b, "\nEach recording is one Festival sentence (HTS voice, 16 kHz) after %.1f s of silence, ending where the speech does, streamed in real time in %s batches. "+
		"close: the app closes the socket after the last frame, waits for the server's close, then the owner ends the recording (POST /v1/conversations). "+
		"stall: %s with only keep-alives (0x8A 0x00, one a second), then the same. owner_end: POST /v1/conversations right after the last frame. "+
		"sigterm: SIGTERM to the server right after the last frame of every recording in its round, then the server is started again and the recording ended or found. "+
		"The reference is what POST /v1/stt/transcribe of the same server hears in the same audio with 1 s of silence after it (for opus_fs320 the same encoding, as Ogg Opus); "+
		"a lost word is a reference word missing from the stored transcript (multiset difference); missing outright counts the words by which the stored transcript is shorter than the reference (the rest were heard as other words). Took %s.\n",
		wordsLead, w.opts.batch, wordsStall, w.elapsed.Round(time.Second))
	shown := 0
	for _, r := range w.recs {
		if r.lost == 0 && r.problem == "" {
			continue
		}
		if shown == 0 {
			b.WriteString("\nRecordings that lost words:\n\n")
		}
		if shown++; shown > 30 {
			b.WriteString("- …\n")
			break
		}
		note := ""
		if r.problem != "" {
			note = "; " + r.problem
		}
		fmt.Fprintf(&b, "- #%d %s / %s, %d lost (close %d): reference %q, stored %q%s\n", r.n, r.ending, r.codec, r.lost, r.closeCode, r.reference, r.stored, note)
	}
	return b.String()
}
