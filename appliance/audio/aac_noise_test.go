package audio_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// TestAACNoiseFramesAreRefused: ADTS headers over noise, as a broken
// wearable or an attacker sends them. One of these frames decodes with a
// claimed sample rate of 0, and a resampler from 0 Hz never advances: a
// live session hung on its first such frame, its socket unread. Each frame
// must come back, the impossible rate as an error that says so.
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
	rates := 0
	for range 500 {
		frame := make([]byte, 200)
		for i := range frame {
			frame[i] = byte(rng.Uint32())
		}
		// An ADTS header (AAC-LC, 44.1 kHz, stereo, 200 bytes) over noise.
		copy(frame, []byte{0xff, 0xf1, 0x50, 0x80, byte(200 >> 3 & 0xff), byte(200&7)<<5 | 0x1f, 0xfc})
		if _, err := d.Decode(nil, frame); err != nil && strings.Contains(err.Error(), "sample rate") {
			rates++
		}
	}
	if rates == 0 {
		t.Fatal("no frame was refused for its sample rate: these frames no longer reach the case this test guards")
	}
}
