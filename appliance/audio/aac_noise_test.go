package audio_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// TestAACNoiseFramesAreRefused: ADTS headers over noise, as a broken
// wearable or an attacker sends them. Each frame must come back, decoded or
// refused with an error, and never as more audio than a frame can hold. On
// FFmpeg 5.1 (Debian 12) some of these frames decode with a claimed sample
// rate of 0, which hung a live session once; FFmpeg 6.1 (Ubuntu 24.04)
// refuses them earlier. The rate rule itself is TestCheckAACRate.
func TestAACNoiseFramesAreRefused(t *testing.T) {
	if !audio.Available(audio.AAC) {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("aac is not in this build")
		}
		t.Skip("aac is not in this build (libavcodec-dev)")
	}
	d, err := audio.NewDecoder(audio.Format{Codec: audio.AAC, SampleRate: 44100})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	refused, rates := 0, 0
	for range 500 {
		frame := make([]byte, 200)
		for i := range frame {
			frame[i] = byte(rng.Uint32())
		}
		// An ADTS header (AAC-LC, 44.1 kHz, stereo, 200 bytes) over noise.
		copy(frame, []byte{0xff, 0xf1, 0x50, 0x80, byte(200 >> 3 & 0xff), byte(200&7)<<5 | 0x1f, 0xfc})
		pcm, err := d.Decode(nil, frame)
		if err != nil {
			refused++
			if strings.Contains(err.Error(), "sample rate") {
				rates++
			}
			continue
		}
		// One AAC frame is at most 2,048 samples per channel at 44.1 kHz or
		// more: resampled to 16 kHz mono, under 800.
		if len(pcm) > 800 {
			t.Fatalf("a 200-byte noise frame gave %d samples", len(pcm))
		}
	}
	if refused == 0 {
		t.Fatal("no noise frame was refused")
	}
	t.Logf("500 noise frames: %d refused, %d of them for their sample rate", refused, rates)
}
