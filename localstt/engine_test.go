//go:build whisper && cgo

package localstt

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// TestEngineReportsWhatTheGuardNeeds runs the engine on real speech with a
// generated model: every segment carries a no-speech probability and a
// mean token log-probability in range, and word times inside the audio.
func TestEngineReportsWhatTheGuardNeeds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ggml-test.bin")
	if err := ggmltest.Write(path, ggmltest.Tiny, 1); err != nil {
		t.Fatal(err)
	}
	e, err := loadEngine(path)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ggerganov/whisper.cpp/bindings/go").Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "samples", "jfk.wav"))
	if err != nil {
		t.Fatal(err)
	}
	b = b[44:]
	pcm := make([]float32, len(b)/2)
	for i := range pcm {
		pcm[i] = float32(int16(binary.LittleEndian.Uint16(b[2*i:]))) / 32768
	}
	segs, _, err := e.transcribe(pcm, "en", false, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) == 0 {
		t.Fatal("no segments: the generated model always writes something")
	}
	dur := float64(len(pcm)) / 16000
	sawWords := false
	for _, s := range segs {
		if math.IsNaN(s.noSpeech) || s.noSpeech < 0 || s.noSpeech > 1 {
			t.Errorf("segment %q: no-speech probability %v", s.Text, s.noSpeech)
		}
		if math.IsNaN(s.logProb) || s.logProb > 0 || (s.Text != "" && s.logProb == 0) {
			t.Errorf("segment %q: mean log-probability %v", s.Text, s.logProb)
		}
		for _, w := range s.words {
			sawWords = true
			if w.Start < 0 || w.End < w.Start || w.End > dur+0.5 {
				t.Errorf("word %q at %v–%v in %.1f s of audio", w.Text, w.Start, w.End, dur)
			}
		}
	}
	if !sawWords {
		t.Error("no word carries a time")
	}
	if _, _, err := e.transcribe(pcm, "xx-nonsense", false, 1); err == nil && e.multilingual() {
		t.Error("an unknown language was accepted")
	}
}
