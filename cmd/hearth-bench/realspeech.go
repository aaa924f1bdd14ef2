package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// The realspeech scenario (-scenarios realspeech): recorded human speech
// (appliance/stt/realspeech: 61 clips from 7 English speakers) joined
// with pauses into one recording per condition, heard by
//
//   - the engine alone: one PocketSphinx decoder in this process on each
//     clip, cut from the condition's audio (and, per codec, from what the
//     session's own decoder makes of the frames: the audio it hears);
//   - batch: the whole recording as a WAV to POST /v1/stt/transcribe;
//   - live: the recording streamed on /v4/listen in each codec, the stored
//     transcript read back after the app closes the socket.
//
// Word error rates are summed over the clips (errors over words said).

// realConditions are the conditions, by the name -real-conditions takes.
var realConditions = realspeech.Conditions

// realOptions configure the scenario.
type realOptions struct {
	conditions []string
	codecs     []string
	clips      int     // 0: every clip
	pause      float64 // seconds between clips
	speed      float64 // live audio is sent this many times faster than real time
	sessions   int     // live sessions at once
	baseURL    string
	dir        string
	dataDir    string
	cli        func(ctx context.Context, args ...string) (string, error)
	serverLog  func() string // the server's recent log, where a session's end is read
}

// realCell is one route's word errors on one condition.
type realCell struct {
	errs, words int
	problem     string // why the figure is partial or missing
	heard       string // the route's transcript (batch and live)
	behind      int    // live: stt_behind messages (stretches transcribed late)
	key, id     string // live: the owner's dev key and the recording, to read it again
}

func (c realCell) String() string {
	if c.words == 0 {
		if c.problem != "" {
			return "– (" + c.problem + ")"
		}
		return "–"
	}
	s := fmt.Sprintf("%.1f %%", 100*float64(c.errs)/float64(c.words))
	if c.problem != "" {
		s += ", " + c.problem
	}
	return s
}

// realRow is one condition's figures.
type realRow struct {
	condition string
	said      string // the text of the recording
	seconds   float64
	engine    realCell            // on the 16 kHz audio
	batch     realCell            // POST /v1/stt/transcribe
	live      map[string]realCell // by codec
	engineOn  map[string]realCell // the engine on the codec's decoded audio
}

type realResult struct {
	rows    []*realRow
	clips   int
	words   int
	speech  float64
	voices  int
	elapsed time.Duration
	opts    realOptions
}

// runRealSpeech measures every condition: the engine first (in this
// process, while the server idles), then batch, then the live sessions.
func runRealSpeech(ctx context.Context, opts realOptions, logf func(string, ...any)) (realResult, error) {
	res := realResult{opts: opts}
	t0 := time.Now()
	clips, err := realspeech.English(ctx)
	if err != nil {
		return res, err
	}
	if opts.clips > 0 && opts.clips < len(clips) {
		clips = spread(clips, opts.clips)
	}
	base := realspeech.Join(clips, opts.pause)
	speakers := map[string]bool{}
	for _, c := range clips {
		speakers[c.Speaker] = true
		res.speech += c.Seconds()
	}
	res.clips, res.words, res.voices = len(clips), base.Words(), len(speakers)
	logf("realspeech: %d clips, %d speakers, %d words, %.0f s with %.1f s pauses", len(clips), len(speakers), res.words, base.Seconds(), opts.pause)
	engine, err := pocketsphinx.NewEngine("")
	if err != nil {
		return res, fmt.Errorf("the engine alone (PocketSphinx in hearth-bench, built with the pocketsphinx tag): %w", err)
	}
	defer engine.Close()

	type prepared struct {
		row    *realRow
		stream realspeech.Stream
		frames map[string][][]byte
	}
	var preps []*prepared
	for _, cond := range opts.conditions {
		s, err := realspeech.Condition(ctx, base, cond)
		if err != nil {
			return res, err
		}
		p := &prepared{row: &realRow{condition: cond, said: s.Text(), seconds: s.Seconds(), live: map[string]realCell{}, engineOn: map[string]realCell{}},
			stream: s, frames: map[string][][]byte{}}
		p.row.engine = engineOnTurns(ctx, engine, s.Turns, s.PCM)
		logf("realspeech: %s: engine alone %s", cond, p.row.engine)
		for _, codec := range opts.codecs {
			frames, decoded, err := roundTrip(ctx, opts.dir, codec, s.PCM)
			if err != nil {
				return res, fmt.Errorf("%s in %s: %w", cond, codec, err)
			}
			p.frames[codec] = frames
			if codec == "pcm16" { // the very samples: no need to decode them twice
				p.row.engineOn[codec] = p.row.engine
				continue
			}
			p.row.engineOn[codec] = engineOnTurns(ctx, engine, s.Turns, decoded)
			logf("realspeech: %s: engine alone on %s audio %s", cond, codec, p.row.engineOn[codec])
		}
		preps = append(preps, p)
		res.rows = append(res.rows, p.row)
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
	}
	user, err := newRealUser(ctx, opts, "batch")
	if err != nil {
		return res, err
	}
	for _, p := range preps {
		heard, err := transcribeWAV(ctx, opts.baseURL, user.token, realspeech.WAV(p.stream.PCM))
		if err != nil {
			p.row.batch.problem = err.Error()
		} else {
			p.row.batch.errs, p.row.batch.words = stt.WordErrors(p.stream.Text(), heard)
			p.row.batch.heard = heard
		}
		logf("realspeech: %s: batch %s: %q", p.row.condition, p.row.batch, p.row.batch.heard)
	}
	type job struct {
		p     *prepared
		codec string
	}
	var jobs []job
	for _, p := range preps {
		for _, codec := range opts.codecs {
			jobs = append(jobs, job{p, codec})
		}
	}
	var mu sync.Mutex
	sem := make(chan struct{}, max(opts.sessions, 1))
	var wg sync.WaitGroup
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			cell := liveSession(ctx, opts, j.p.stream, j.codec, j.p.frames[j.codec])
			mu.Lock()
			j.p.row.live[j.codec] = cell
			mu.Unlock()
			logf("realspeech: %s: live %s %s: %q", j.p.row.condition, j.codec, cell, cell.heard)
		}()
	}
	wg.Wait()
	rescoreLate(ctx, opts, res.rows, logf)
	res.elapsed = time.Since(t0)
	return res, ctx.Err()
}

// spread picks n clips evenly over the corpus, so that a subset keeps
// every speaker it can.
func spread(clips []realspeech.Clip, n int) []realspeech.Clip {
	out := make([]realspeech.Clip, n)
	for i := range n {
		out[i] = clips[i*len(clips)/n]
	}
	return out
}

// engineOnTurns is the engine alone on each turn's span of pcm.
func engineOnTurns(ctx context.Context, e *pocketsphinx.Engine, turns []realspeech.Turn, pcm []int16) realCell {
	var c realCell
	for _, t := range turns {
		if ctx.Err() != nil {
			c.problem = "interrupted"
			break
		}
		if t.End > len(pcm) {
			c.problem = "decoded audio shorter than the recording"
			break
		}
		heard, err := e.Decode(pcm[t.Start:t.End])
		if err != nil {
			c.problem = err.Error()
			break
		}
		errs, words := stt.WordErrors(t.Clip.Text, heard)
		c.errs += errs
		c.words += words
	}
	return c
}

// realUser is a session's owner.
type realUser struct{ uid, token, key string }

func newRealUser(ctx context.Context, opts realOptions, name string) (u realUser, err error) {
	if u.uid, err = opts.cli(ctx, "users", "add", "--data", opts.dataDir, "--name", name); err != nil {
		return u, err
	}
	if u.token, err = opts.cli(ctx, "token", "--data", opts.dataDir, "--user", u.uid); err != nil {
		return u, err
	}
	u.key, err = opts.cli(ctx, "keys", "create", "--data", opts.dataDir, "--user", u.uid, "--kind", "dev", "--scopes", "conversations:read")
	return u, err
}

// realHTTP waits as long as a noisy recording may take to decode.
var realHTTP = &http.Client{Timeout: 30 * time.Minute}

// transcribeWAV is POST /v1/stt/transcribe's text for a WAV file.
func transcribeWAV(ctx context.Context, baseURL, token string, wav []byte) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "recording.wav")
	part.Write(wav)
	mw.WriteField("diarize", "false")
	mw.Close()
	req, err := http.NewRequestWithContext(ctx, "POST", baseURL+"/v1/stt/transcribe", &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := realHTTP.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Text string `json:"text"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &out) != nil {
		return "", fmt.Errorf("%d %s", resp.StatusCode, truncate(string(b), 200))
	}
	return out.Text, nil
}

// liveSession streams the recording in codec as a new owner's session,
// closes the socket as the app does, ends the recording and scores the
// stored transcript. A session the server closed early is scored on what
// it kept, with its close code noted.
func liveSession(ctx context.Context, opts realOptions, s realspeech.Stream, codec string, frames [][]byte) realCell {
	var cell realCell
	rc := realCodecs[codec]
	u, err := newRealUser(ctx, opts, "live "+codec)
	if err != nil {
		cell.problem = err.Error()
		return cell
	}
	c, err := dialListenAs(ctx, opts.baseURL, rc.name, rc.rate, u.uid, u.token)
	if err != nil {
		cell.problem = err.Error()
		return cell
	}
	t0 := time.Now()
	if err := streamAt(ctx, c, frames, rc.frame, opts.speed); err != nil {
		cell.problem = err.Error()
	}
	waitCaughtUp(ctx, c, 30*time.Second)
	select {
	case <-c.done:
		cell.problem = fmt.Sprintf("closed %d after %.0f s", c.code, time.Since(t0).Seconds())
	default:
	}
	c.closeAndWait(5 * time.Minute)
	if !sessionEnded(ctx, opts, u.uid, 3*time.Minute) {
		cell.problem = strings.TrimPrefix(cell.problem+"; read before the session had ended", "; ")
	}
	id, err := endRecording(ctx, opts.baseURL, u.token)
	if err != nil {
		cell.problem = strings.TrimSpace(cell.problem + "; " + err.Error())
		return cell
	}
	cell.key, cell.id = u.key, id
	if c.behind > 0 {
		// Stretches skipped while the route was behind are transcribed
		// after the session: runRealSpeech reads the transcript again
		// once they all are.
		cell.behind = c.behind
		cell.problem = strings.TrimPrefix(cell.problem+fmt.Sprintf("; behind %d×, skipped audio transcribed late", c.behind), "; ")
	}
	heard, problem := storedText(ctx, opts.baseURL, u.key, id)
	if problem != "" {
		cell.problem = strings.TrimSpace(cell.problem + "; " + problem)
		return cell
	}
	cell.errs, cell.words = stt.WordErrors(s.Text(), heard)
	cell.heard = heard
	return cell
}

// sessionEnded waits, at most giveUp, until the server logs the end of
// user's live session: it answers the close at once, then hears out what
// was said and stores the last segment, and a recording ended before that
// lost its last clips when decoding ran seconds behind the audio (a busy
// machine, nothing skipped).
func sessionEnded(ctx context.Context, opts realOptions, user string, giveUp time.Duration) bool {
	if opts.serverLog == nil {
		sleepCtx(ctx, time.Second)
		return true
	}
	for end := time.Now().Add(giveUp); time.Now().Before(end) && ctx.Err() == nil; sleepCtx(ctx, 200*time.Millisecond) {
		for _, line := range strings.Split(opts.serverLog(), "\n") {
			if strings.Contains(line, "listen session ended") && strings.Contains(line, user) {
				return true
			}
		}
	}
	return false
}

// lateGiveUp bounds the wait for stretches transcribed after their
// sessions (the server gives one stretch ten minutes).
const lateGiveUp = 30 * time.Minute

// rescoreLate waits until no session's skipped audio is left to
// transcribe (a session's tape in the data folder's audio/ goes with its
// last late stretch) and scores again the cells whose route fell behind,
// on the transcript as it is then.
func rescoreLate(ctx context.Context, opts realOptions, rows []*realRow, logf func(string, ...any)) {
	var behind int
	for _, row := range rows {
		for _, c := range row.live {
			if c.behind > 0 {
				behind++
			}
		}
	}
	if behind == 0 {
		return
	}
	logf("realspeech: %d sessions fell behind: waiting for their skipped audio", behind)
	end := time.Now().Add(lateGiveUp)
	for {
		tapes, _ := filepath.Glob(filepath.Join(opts.dataDir, "audio", "listen-*.s16le"))
		if len(tapes) == 0 {
			break
		}
		if time.Now().After(end) || sleepCtx(ctx, 2*time.Second) != nil {
			logf("realspeech: %d tapes still there after %s: scored as they are", len(tapes), lateGiveUp)
			break
		}
	}
	for _, row := range rows {
		for codec, c := range row.live {
			if c.behind == 0 || c.id == "" {
				continue
			}
			heard, problem := storedText(ctx, opts.baseURL, c.key, c.id)
			if problem != "" {
				c.problem += "; " + problem
			} else {
				c.errs, c.words = stt.WordErrors(row.said, heard)
				c.heard = heard
			}
			row.live[codec] = c
			logf("realspeech: %s: live %s with its late stretches %s: %q", row.condition, codec, c, c.heard)
		}
	}
}

// waitCaughtUp waits, after the last frame, until no segment has come
// for quiet: audio sent faster than real time is still being decoded, and
// an app streams in real time, so it would not close on a backlog.
func waitCaughtUp(ctx context.Context, c *wordsConn, quiet time.Duration) {
	last, seen := time.Now(), c.segmentCount()
	for time.Since(last) < quiet {
		select {
		case <-c.done:
			return
		case <-ctx.Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
		if n := c.segmentCount(); n != seen {
			last, seen = time.Now(), n
		}
	}
}

// streamAt sends the frames speed times faster than real time, in bursts
// of about 100 ms of audio.
func streamAt(ctx context.Context, c *wordsConn, frames [][]byte, frame time.Duration, speed float64) error {
	start := time.Now()
	for i, f := range frames {
		if err := c.write(websocket.BinaryMessage, f); err != nil {
			return fmt.Errorf("send audio: %w", err)
		}
		due := start.Add(time.Duration(float64(time.Duration(i+1)*frame) / speed))
		if wait := time.Until(due); wait >= 100*time.Millisecond/time.Duration(max(speed, 1)) {
			if err := sleepCtx(ctx, wait); err != nil {
				return err
			}
		}
		select {
		case <-c.done:
			return nil
		default:
		}
	}
	return nil
}

// markdown renders one row per condition.
func (r realResult) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Real speech: word error rate per route and codec (%d clips, %d speakers, %d words, %.0f s of speech, %.1f s pauses)\n\n",
		r.clips, r.voices, r.words, r.speech, r.opts.pause)
	b.WriteString("| condition | engine alone | batch |")
	for _, c := range r.opts.codecs {
		fmt.Fprintf(&b, " live %s (engine on its audio) |", c)
	}
	b.WriteString("\n|---|---:|---:|" + strings.Repeat("---:|", len(r.opts.codecs)) + "\n")
	for _, row := range r.rows {
		fmt.Fprintf(&b, "| %s | %s | %s |", row.condition, row.engine, row.batch)
		for _, c := range r.opts.codecs {
			fmt.Fprintf(&b, " %s (%s) |", row.live[c], row.engineOn[c])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\nThe engine alone is one PocketSphinx decoder (the route's model and settings) on each clip, cut from the condition's audio; "+
		"in brackets, on each clip cut from what the session's decoder (appliance/audio) makes of the frames sent. Batch: the whole recording as WAV to POST /v1/stt/transcribe. "+
		"Live: the recording on /v4/listen at %g× real time, %d sessions at once, each codec as a wearable sends it; the stored transcript read after the app closes the socket. "+
		"white20/10: Gaussian white noise at 20/10 dB below the speech (measured inside the clips); babble20/10: the four other asterisk voices talking at once; "+
		"quiet45: the speech scaled to −45 dBFS RMS. Took %s on %d CPUs.\n", r.opts.speed, r.opts.sessions, r.elapsed.Round(time.Second), runtime.NumCPU())
	return b.String()
}

// parseRealList checks a comma-separated list against the known names.
func parseRealList(flag, list string, known []string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("-%s: unknown %q (known: %s)", flag, n, strings.Join(known, ", "))
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-%s is empty", flag)
	}
	return out, nil
}
