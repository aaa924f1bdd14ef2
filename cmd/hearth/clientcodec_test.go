package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// TestClientEncoderSendsWholeFrames: `hearth listen --file` sends what the
// file holds, no more: a WAV file is read in 4,096-sample blocks, and a
// frame cut at each block's end was padded to 20 ms with silence by the
// Opus encoder (4 ms every 256 ms, the session's clock drifting 1.5 %).
// Through each codec the CLI encodes and the appliance's own decoder, a
// tone that never stops comes back as long as the file, within a frame,
// with no gap in it, every message but the last a whole 20 ms frame.
func TestClientEncoderSendsWholeFrames(t *testing.T) {
	wav := filepath.Join(t.TempDir(), "sweep.wav")
	const seconds = 5.01 // not a whole number of frames nor of blocks
	mustRun(t, "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", wav, "synth", "5.01", "sine", "300-900", "vol", "0.3")
	for _, codec := range []string{audio.PCM16, audio.PCM8, "opus"} {
		t.Run(codec, func(t *testing.T) {
			if codec == "opus" && !hasOpusEncoder {
				if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
					t.Fatal("this build has no Opus encoder (make test links libopus: scripts/deps.sh installs libopus-dev)")
				}
				t.Skip("this build has no Opus encoder")
			}
			rate, enc, err := clientCodec(codec)
			if err != nil {
				t.Fatal(err)
			}
			src, err := audio.OpenFile(wav)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			var frames [][]byte
			var sizes []int
			err = encodeRecording(src, rate, enc, func(frame []byte, samples int) error {
				frames, sizes = append(frames, frame), append(sizes, samples)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range sizes[:len(sizes)-1] {
				if n != rate/50 {
					t.Fatalf("message %d of %d holds %d samples, not a 20 ms frame (%d)", i, len(sizes), n, rate/50)
				}
			}
			dec, err := audio.NewDecoder(audio.Format{Codec: codec, SampleRate: rate, Channels: 1})
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
			got, want := float64(len(pcm))/audio.Rate, seconds
			if math.Abs(got-want) > 0.02 {
				t.Fatalf("decoded %.3f s of a %.3f s file", got, want)
			}
			// Level in 4 ms windows, 1 ms apart, past the codec's start and
			// before its end: a gap of silence shows as a dip.
			level := func(w []int16) float64 {
				var e float64
				for _, s := range w {
					e += float64(s) * float64(s)
				}
				return math.Sqrt(e / float64(len(w)))
			}
			tone := level(pcm[1600:3200])
			for off := 480; off+64 <= len(pcm)-480; off += 16 {
				if l := level(pcm[off : off+64]); l < tone/2 {
					t.Fatalf("a gap at %.3f s: level %.0f where the tone is %.0f", float64(off)/audio.Rate, l, tone)
				}
			}
		})
	}
}
