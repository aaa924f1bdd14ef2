package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/cmd/hearth/internal/omiapp"
)

// TestNoisySessionsNeverDie is a measurement, not a timed test: it runs
// only with HEARTH_BENCH_NOISE=1 (it takes as long as the audio, 10
// minutes by default), and its figures go in docs/benchmarks.md.
//
// Festival speech under white noise at 10 dB SNR is streamed at real time
// to live sessions on the appliance's PocketSphinx route, which needs
// about 0.8 CPU-s per audio-s in such noise: on a busy 2-core box it falls
// behind. Before, such a session was closed 1011 stt_failed within
// minutes. Now none may be closed, and the speech of every stretch the
// route skipped must be in the stored transcript: it is scored against
// the speech said in the same stretches, beside the live part's score.
//
// HEARTH_BENCH_NOISE_SPEED sends faster than real time (a phone
// uploading what it buffered), for a box where the route keeps up.
//
//	HEARTH_BENCH_NOISE=1 [HEARTH_BENCH_NOISE_MINUTES=10] [HEARTH_BENCH_NOISE_SESSIONS=1] [HEARTH_BENCH_NOISE_SNR=10] \
//	  [HEARTH_BENCH_NOISE_SPEED=1] go test -count=1 -run TestNoisySessionsNeverDie -v -timeout 60m ./cmd/hearth/
func TestNoisySessionsNeverDie(t *testing.T) {
	if os.Getenv("HEARTH_BENCH_NOISE") == "" {
		t.Skip("a measurement: HEARTH_BENCH_NOISE=1 runs it")
	}
	needPocketSphinx(t)
	minutes := envFloat("HEARTH_BENCH_NOISE_MINUTES", 10)
	sessions := int(envFloat("HEARTH_BENCH_NOISE_SESSIONS", 1))
	snr := envFloat("HEARTH_BENCH_NOISE_SNR", 10)
	speed := envFloat("HEARTH_BENCH_NOISE_SPEED", 1)
	data := t.TempDir()
	srv := startServe(t, data, wearableEnv...)

	var parts []said
	for total := 0.0; total < minutes*60; {
		s := noiseSentences[len(parts)%len(noiseSentences)]
		parts = append(parts, said{text: s, pause: 1.0})
		total += 3.6 // a sentence and its pause, about
	}
	sp := compose(t, 0.3, parts...)
	layout := sentenceTimes(sp)
	noisy := withNoise(sp.pcm, snr, layout)
	frames := wearableFrames(t, "pcm16", noisy)

	results := make([]noiseResult, sessions)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = noisySession(t, srv, data, fmt.Sprintf("Noise %d", i), sp, layout, frames, speed)
		}()
	}
	wg.Wait()
	closed := 0
	for i, r := range results {
		if r.closeCode != 0 && r.closeCode != 1000 {
			closed++
		}
		t.Logf("session %d of %d: %.0f s of speech at %.0f dB SNR, sent at %g× real time; closed by the server: %d %q; stt_behind %d times; "+
			"%d stretches skipped (%d reported by ready), transcribed late: %.0f s, %d words; live part: %d of %d words wrong (%.1f %%); "+
			"skipped part: %d of %d words wrong (%.1f %%); whole: %d of %d (%.1f %%); late work unfinished at the deadline: %v",
			i, sessions, sp.seconds(), snr, speed, r.closeCode, r.closeText, r.behind, r.stretches, r.reported, r.skippedSec, r.lateWords,
			r.liveErr, r.liveN, pct(r.liveErr, r.liveN), r.skipErr, r.skipN, pct(r.skipErr, r.skipN),
			r.allErr, r.allN, pct(r.allErr, r.allN), r.unfinished)
	}
	if closed > 0 {
		t.Errorf("%d of %d sessions were closed by the server", closed, sessions)
	}
}

// noiseSentences are everyday sentences, said over and over.
var noiseSentences = []string{
	"i will send the numbers to the finance team tomorrow",
	"the car needs new tires before winter",
	"the train to london leaves at nine in the morning",
	"i left my keys in the kitchen",
	"please check the weather before we go hiking",
	"the flight was delayed by two hours",
	"my sister is coming to visit next week",
	"let us meet at the coffee shop near the office",
	"good morning today i will call the plumber about the kitchen sink",
	"please send a report to my manager tomorrow morning",
}

type noiseResult struct {
	closeCode         int
	closeText         string
	behind, stretches int
	reported          int  // stretches the client was told of (a ready after stt_behind)
	unfinished        bool // stretches were still being transcribed at the deadline
	skippedSec        float64
	lateWords         int
	liveErr, liveN    int
	skipErr, skipN    int
	allErr, allN      int
}

// span is where a sentence, or a skipped stretch, is in the stream.
type span struct {
	text       string
	start, end float64
}

// sentenceTimes is where each sentence is in sp (compose's lines).
func sentenceTimes(sp speech) []span {
	var out []span
	for i, l := range sp.lines {
		var a, b float64
		fmt.Sscanf(strings.TrimSpace(l), "%f–%f", &a, &b)
		out = append(out, span{text: sp.texts[i], start: a, end: b})
	}
	return out
}

// withNoise adds white noise snr dB below the speech's level (its RMS
// over the sentences, not the pauses), the same for every run.
func withNoise(pcm []int16, snr float64, sentences []span) []int16 {
	var sum float64
	n := 0
	for _, s := range sentences {
		for i := int(s.start * 16000); i < int(s.end*16000) && i < len(pcm); i++ {
			sum += float64(pcm[i]) * float64(pcm[i])
			n++
		}
	}
	level := math.Sqrt(sum/float64(max(n, 1))) / math.Pow(10, snr/20)
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]int16, len(pcm))
	for i, s := range pcm {
		v := float64(s) + rng.NormFloat64()*level
		out[i] = int16(max(-32768, min(32767, math.Round(v))))
	}
	return out
}

// noisySession streams frames at real time for one owner, closes, waits
// until every skipped stretch is transcribed, and scores the stored
// transcript.
func noisySession(t *testing.T, srv *server, data, name string, sp speech, sentences []span, frames [][]byte, speed float64) noiseResult {
	o := newOwner(t, srv, data, name)
	c := o.dial(t, omiapp.Options{Codec: "pcm16"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(sp.seconds()*2+120)*time.Second)
	err := c.Stream(ctx, frames, omiapp.FrameDuration, speed)
	cancel()
	st := c.State()
	r := noiseResult{closeCode: st.CloseCode, closeText: st.CloseText}
	if err != nil || st.Closed {
		t.Errorf("%s: streaming stopped (%v), closed %d %q", name, err, st.CloseCode, st.CloseText)
		return r
	}
	c.Close(time.Minute)
	st = c.State()
	if st.CloseCode != 1000 {
		r.closeCode, r.closeText = st.CloseCode, st.CloseText
	}
	readies := 0
	for _, m := range st.Events("service_status") {
		switch m.Field("status") {
		case "stt_behind":
			r.behind++
		case "ready":
			readies++
		}
	}
	// Each stretch skipped is reported by a ready (the route hears live
	// audio again); the first ready opened the session. The session's
	// tape is removed once every stretch is transcribed (or kept).
	deadline := time.Now().Add(time.Duration(envFloat("HEARTH_BENCH_NOISE_WAIT_MINUTES", 30)) * time.Minute)
	for r.unfinished = true; time.Now().Before(deadline); time.Sleep(2 * time.Second) {
		if tapes, _ := filepath.Glob(filepath.Join(data, "audio", "listen-*.s16le")); len(tapes) == 0 {
			r.unfinished = false
			break
		}
	}
	stretches, lateWords := lateStretches(srv, o.uid)
	r.lateWords, r.stretches, r.reported = lateWords, len(stretches), readies-1
	for _, s := range stretches {
		r.skippedSec += s.end - s.start
	}
	stored := o.recordings(t)
	inSkip := func(a, b float64) bool {
		mid := (a + b) / 2
		for _, s := range stretches {
			if mid >= s.start && mid < s.end {
				return true
			}
		}
		return false
	}
	var saidLive, saidSkip, heardLive, heardSkip, saidAll []string
	for _, s := range sentences {
		saidAll = append(saidAll, s.text)
		if inSkip(s.start, s.end) {
			saidSkip = append(saidSkip, s.text)
		} else {
			saidLive = append(saidLive, s.text)
		}
	}
	for _, seg := range stored {
		if inSkip(seg.Start, seg.End) {
			heardSkip = append(heardSkip, seg.Text)
		} else {
			heardLive = append(heardLive, seg.Text)
		}
	}
	r.liveErr, r.liveN = stt.WordErrors(strings.Join(saidLive, " "), strings.Join(heardLive, " "))
	r.skipErr, r.skipN = stt.WordErrors(strings.Join(saidSkip, " "), strings.Join(heardSkip, " "))
	r.allErr, r.allN = stt.WordErrors(strings.Join(saidAll, " "), omiapp.Text(stored))
	return r
}

// lateStretches reads the server's log for the stretches it transcribed
// late for user (or kept, when it could not), and the words it found.
func lateStretches(srv *server, user string) ([]span, int) {
	var out []span
	words := 0
	for _, line := range strings.Split(srv.logs.String(), "\n") {
		var rec struct {
			Msg   string  `json:"msg"`
			User  string  `json:"user"`
			From  float64 `json:"from_s"`
			To    float64 `json:"to_s"`
			Words int     `json:"words"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.User != user {
			continue
		}
		if rec.Msg == "skipped audio transcribed" || rec.Msg == "skipped audio not transcribed; kept" {
			out = append(out, span{start: rec.From, end: rec.To})
			words += rec.Words
		}
	}
	return out, words
}

// recordings is every recording of the owner, stored, as one transcript
// in stream time (each recording's segments shifted by its start).
func (o owner) recordings(t *testing.T) []omiapp.Segment {
	t.Helper()
	// The list holds processed recordings only: end the one in progress
	// (none may be, when the silence timeout ended it).
	if code, body := o.srv.call(t, "POST", "/v1/conversations", o.token, "{}"); code != 200 && code != 404 {
		t.Errorf("end the recording: %d %s", code, body)
	}
	code, body := o.srv.call(t, "GET", "/v1/dev/user/conversations?include_transcript=true&limit=100", o.key, "")
	if code != 200 {
		t.Errorf("list conversations: %d %s", code, body)
		return nil
	}
	var convs []struct {
		StartedAt          time.Time        `json:"started_at"`
		TranscriptSegments []omiapp.Segment `json:"transcript_segments"`
	}
	if err := json.Unmarshal([]byte(body), &convs); err != nil {
		t.Errorf("list conversations: %v", err)
		return nil
	}
	slices.SortFunc(convs, func(a, b struct {
		StartedAt          time.Time        `json:"started_at"`
		TranscriptSegments []omiapp.Segment `json:"transcript_segments"`
	}) int {
		return a.StartedAt.Compare(b.StartedAt)
	})
	var out []omiapp.Segment
	for _, c := range convs {
		shift := c.StartedAt.Sub(convs[0].StartedAt).Seconds()
		for _, seg := range c.TranscriptSegments {
			seg.Start, seg.End = seg.Start+shift, seg.End+shift
			out = append(out, seg)
		}
	}
	return out
}

func envFloat(name string, def float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil && v > 0 {
		return v
	}
	return def
}

func pct(e, n int) float64 { return 100 * float64(e) / float64(max(n, 1)) }
