package transcribe_test

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech/realspeechtest"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestQuietMicrophonesWordsAreHeardWhole: two-word clips of recorded
// speech at -45 dBFS come back from PocketSphinx word for word. The
// route's VAD hears each chunk as a stream of its own, and when it held a
// quiet chunk to a normal speaker's level a quiet microphone's words were
// split at their stops and decoded in halves: in a recording of ten clips
// "front left" came back "bryant let"; in this one, "front let". It
// follows the chunk's level from its first sound (vad.Gate), and the
// route hears the chunk as it came.
func TestQuietMicrophonesWordsAreHeardWhole(t *testing.T) {
	t.Parallel()
	clips := realspeechtest.English(t)
	if !pocketsphinx.Available && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") == "" {
		t.Skip("PocketSphinx is not in this build")
	}
	var two []realspeech.Clip
	for _, text := range []string{"front left", "side right"} {
		i := slices.IndexFunc(clips, func(c realspeech.Clip) bool { return c.Text == text })
		if i < 0 {
			t.Fatalf("no clip says %q", text)
		}
		two = append(two, clips[i])
	}
	route, err := pocketsphinx.New(pocketsphinx.Config{Decoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer route.Close()
	s := realspeech.Join(two, 1.5).ScaledTo(-45)
	src, err := audio.NewRawPCM(bytes.NewReader(realspeech.Bytes(s.PCM)), audio.Rate, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := transcribe.New(nil, route).Transcribe(t.Context(), src, transcribe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "front left side right" {
		t.Errorf("heard %q, want %q", res.Text, "front left side right")
	}
}
