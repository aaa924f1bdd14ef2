package main

import (
	"os"
	"path/filepath"
	"strings"
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
	clips := realClips(t, 10)
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
			alone := engineAlone(t, engine, s, pcm)
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
