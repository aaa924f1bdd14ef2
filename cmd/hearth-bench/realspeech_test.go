package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestRealSpeechFlags(t *testing.T) {
	t.Parallel()
	cfg, err := parseFlags([]string{"-scenarios", "realspeech", "-real-conditions", "clean, white20", "-real-codecs", "opus_fs320"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.realSpeech || !cfg.listenOnly || !slices.Equal(cfg.realConds, []string{"clean", "white20"}) || !slices.Equal(cfg.realCodecList, []string{"opus_fs320"}) {
		t.Fatalf("parsed %+v", cfg)
	}
	for _, args := range [][]string{
		{"-scenarios", "realspeech", "-real-conditions", "white30"},
		{"-scenarios", "realspeech", "-real-codecs", "mp3"},
		{"-scenarios", "realspeech", "-real-codecs", ","},
		{"-scenarios", "realspeech", "-real-speed", "0"},
	} {
		if _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

// TestRoundTripKeepsTheAudio: each codec's frames are what a wearable
// sends, and what the reference decoder gives back lines up with the
// input (the engine alone is measured on it, clip by clip), within a
// codec's delay.
func TestRoundTripKeepsTheAudio(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"ffmpeg", "elc3", "dlc3"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is not installed (scripts/deps.sh test)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	// A second of a 440 Hz tone between silences.
	pcm := make([]int16, 3*16000)
	for i := 16000; i < 32000; i++ {
		pcm[i] = int16(8000 * math.Sin(2*math.Pi*440*float64(i)/16000))
	}
	for _, codec := range realCodecNames {
		t.Run(codec, func(t *testing.T) {
			t.Parallel()
			frames, decoded, err := roundTrip(context.Background(), t.TempDir(), codec, pcm)
			if err != nil {
				t.Fatal(err)
			}
			rc := realCodecs[codec]
			sent := float64(len(frames)) * rc.frame.Seconds()
			if math.Abs(sent-3) > 0.15 {
				t.Errorf("%d frames of %s: %.2f s for 3 s of audio", len(frames), rc.frame, sent)
			}
			if math.Abs(float64(len(decoded)-len(pcm))) > 0.1*16000 {
				t.Fatalf("decoded %d samples of %d", len(decoded), len(pcm))
			}
			// The tone is where it was: loud in the middle, quiet around.
			rms := func(a, b int) float64 {
				var s float64
				for _, v := range decoded[a:b] {
					s += float64(v) * float64(v)
				}
				return math.Sqrt(s / float64(b-a))
			}
			if mid, before, after := rms(17000, 31000), rms(0, 15000), rms(33000, min(47000, len(decoded))); mid < 3000 || before > 300 || after > 300 {
				t.Errorf("decoded tone RMS %.0f, silences %.0f and %.0f", mid, before, after)
			}
		})
	}
}
