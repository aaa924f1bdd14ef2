package pocketsphinx_test

import (
	"os"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestEngineHearsARecordedVoice: the decoder alone, the baseline of the
// real-speech floors, hears pocketsphinx-testdata's "go forward ten
// meters" (16 kHz raw samples), twice on one decoder, and refuses a
// folder without a model.
func TestEngineHearsARecordedVoice(t *testing.T) {
	need(t, "PocketSphinx (libpocketsphinx-dev, pocketsphinx-en-us)", pocketsphinx.Available)
	if _, err := pocketsphinx.NewEngine(t.TempDir()); err == nil {
		t.Fatal("an engine without a model")
	}
	raw, err := os.ReadFile("/usr/share/pocketsphinx/test/data/goforward.raw")
	need(t, "pocketsphinx-testdata", err == nil)
	e, err := pocketsphinx.NewEngine("")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for range 2 {
		heard, err := e.Decode(realspeech.FromBytes(raw))
		if err != nil || !strings.Contains(heard, "forward ten meters") {
			t.Fatalf("heard %q, %v", heard, err)
		}
	}
}
