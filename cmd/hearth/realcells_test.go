package main

import (
	"cmp"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestRealSpeechCellsOffline takes the cells of HEARTH_REAL_CELLS apart
// without a server or a clock, so that a cell's gap can be told from a
// busy machine's: on the audio the session's decoder makes of the frames
// it measures the engine alone on each clip's span, the route's own cut
// and decoding of the whole recording (what a live session that never
// falls behind hears: the same VAD and decoding, utterance by
// utterance), and the route's batch side on stretches that begin where an
// utterance begins, as a session that fell behind transcribes what it
// skipped (the late path). Only with HEARTH_REAL_CELLS: it measures, it
// holds nothing.
func TestRealSpeechCellsOffline(t *testing.T) {
	cells := os.Getenv("HEARTH_REAL_CELLS")
	if cells == "" {
		t.Skip("HEARTH_REAL_CELLS names the cells to measure")
	}
	needPocketSphinx(t)
	clips := realClips(t, realClipCount(t))
	clean := realspeech.Join(clips, 1.5)
	clean.PCM = append(clean.PCM, make([]int16, 4*realspeech.SampleRate)...)
	engine, err := pocketsphinx.NewEngine("")
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	route, err := pocketsphinx.New(pocketsphinx.Config{Decoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer route.Close()
	for _, floor := range cellFloors(t, cells) {
		s, err := realspeech.Condition(t.Context(), clean, floor.condition)
		if err != nil {
			t.Fatal(err)
		}
		wav := filepath.Join(t.TempDir(), "s.wav")
		if err := os.WriteFile(wav, realspeech.WAV(s.PCM), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, path := range floor.paths {
			cell := floor.condition + " " + path
			pcm := s.PCM
			if path != "batch" && path != "pcm16" {
				pcm = sessionHeard(t, path, encodeFrames(t, path, wav))
			}
			lc, pc := liveCuts(t, engine, pcm)
			var lw, pw werCount
			lw.add(s.Text(), lc)
			pw.add(s.Text(), pc)
			t.Logf("%s: the engine on the live VAD's utterances %.1f %%, on the batch VAD's %.1f %%", cell, lw.pct(), pw.pct())
			if os.Getenv("HEARTH_REAL_OFFLINE") == "cuts" {
				continue
			}

			alone := engineAlone(t, engine, s, pcm, cell)
			whole := routeHeard(t, route, pcm, 0, len(pcm))
			var w werCount
			w.add(s.Text(), whole)
			t.Logf("%s: engine alone %.1f %%, the route on the whole recording %.1f %%: %q", cell, alone.pct(), w.pct(), whole)

			// Stretches of three utterances each, from an utterance's
			// start to the start of the fourth.
			var v vad.VAD
			utts := v.Push(pcm)
			if u, ok := v.Flush(); ok {
				utts = append(utts, u)
			}
			var late []string
			for i := 0; i < len(utts); i += 3 {
				to := len(pcm)
				if i+3 < len(utts) {
					to = utts[i+3].Start
				}
				late = append(late, routeHeard(t, route, pcm, utts[i].Start, to))
			}
			var l werCount
			l.add(s.Text(), strings.Join(late, " "))
			t.Logf("%s: the route on stretches of 3 utterances %.1f %%: %q", cell, l.pct(), strings.Join(late, " | "))

			b := burstHeard(t, route, pcm)
			var bw werCount
			bw.add(s.Text(), b)
			t.Logf("%s: a live stream sent it all at once (behind), its skipped stretches transcribed afterwards %.1f %%: %q", cell, bw.pct(), b)
		}
	}
}

// routeHeard is the route's batch side's text for pcm[from:to], logging
// each segment in stream seconds.
func routeHeard(t *testing.T, route *pocketsphinx.Route, pcm []int16, from, to int) string {
	t.Helper()
	tr, err := route.Transcribe(t.Context(), pcm[from:to], stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, seg := range tr.Segments {
		off := float64(from) / stt.SampleRate
		t.Logf("  %.2f-%.2f s: %q", off+seg.Start, off+seg.End, seg.Text)
	}
	return tr.Text
}

// burstHeard is what a live stream of the route hears of pcm sent all at
// once, far faster than it decodes: it skips to live audio, and each
// stretch it skipped is transcribed by the batch side afterwards, as a
// session does; live and late words in time order.
func burstHeard(t *testing.T, route *pocketsphinx.Route, pcm []int16) string {
	t.Helper()
	var (
		mu    sync.Mutex
		skips []stt.Skip
	)
	st, err := route.Open(t.Context(), stt.Config{Language: "en", Channels: 1, Skipped: func(s stt.Skip) {
		mu.Lock()
		skips = append(skips, s)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(pcm); off += 320 {
		if err := st.Send(pcm[off:min(off+320, len(pcm))]); err != nil && !errors.Is(err, stt.ErrBehind) {
			t.Fatal(err)
		}
	}
	st.Close()
	var words []stt.Word
	for ws := range st.Words() {
		for _, w := range ws {
			t.Logf("  live %.2f s: %s", w.Start, w.Text)
		}
		words = append(words, ws...)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, sk := range skips {
		tr, err := route.Transcribe(t.Context(), pcm[sk.From:sk.To], stt.Config{Language: "en", Channels: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("  skipped %.2f-%.2f s: %q", float64(sk.From)/stt.SampleRate, float64(sk.To)/stt.SampleRate, tr.Text)
		for _, seg := range tr.Segments {
			for _, w := range seg.Words {
				w.Start += float64(sk.From) / stt.SampleRate
				words = append(words, w)
			}
		}
	}
	slices.SortStableFunc(words, func(a, b stt.Word) int { return cmp.Compare(a.Start, b.Start) })
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.Text
	}
	return strings.Join(texts, " ")
}

// liveCuts is the engine's words on the utterances the VAD's live events
// give (vad.VAD.Events: 140 ms more of the pause after each than a
// recording's cut keeps; HEARTH_REAL_TRIM=2240 drops those)
// and on those it gives a recording heard whole (vad.VAD.Push), each
// utterance logged where they differ.
func liveCuts(t *testing.T, e *pocketsphinx.Engine, pcm []int16) (live, batch string) {
	t.Helper()
	var lv vad.VAD
	var lutts []vad.Utterance
	audio := false // the open utterance went on after its Start (its End then follows the whole pause)
	for off := 0; off < len(pcm); off += 320 {
		for _, ev := range lv.Events(pcm[off:min(off+320, len(pcm))]) {
			switch ev.Kind {
			case vad.Start:
				lutts, audio = append(lutts, vad.Utterance{PCM: slices.Clone(ev.PCM), Start: ev.At}), false
			case vad.Audio:
				audio = true
				u := &lutts[len(lutts)-1]
				u.PCM = append(u.PCM, ev.PCM...)
			case vad.End:
				if trim := os.Getenv("HEARTH_REAL_TRIM"); trim != "" && audio {
					// The live utterance without the end of the pause
					// the batch cut drops (7 frames, 2240 samples).
					n, err := strconv.Atoi(trim)
					if err != nil {
						t.Fatalf("HEARTH_REAL_TRIM: %v", err)
					}
					u := &lutts[len(lutts)-1]
					u.PCM = u.PCM[:max(len(u.PCM)-n, 0)]
				}
			}
		}
	}
	var bv vad.VAD
	butts := bv.Push(pcm)
	if u, ok := bv.Flush(); ok {
		butts = append(butts, u)
	}
	decode := func(utts []vad.Utterance, name string) string {
		var texts []string
		for _, u := range utts {
			heard, err := e.Decode(u.PCM)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("  %s %.2f-%.2f s: %q", name, float64(u.Start)/stt.SampleRate, float64(u.Start+len(u.PCM))/stt.SampleRate, heard)
			texts = append(texts, heard)
		}
		return strings.Join(texts, " ")
	}
	return decode(lutts, "live cut"), decode(butts, "batch cut")
}
