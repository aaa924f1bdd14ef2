package onnx_test

import (
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/appliance/speaker/onnx"
)

// runtime finds libonnxruntime as scripts/onnxruntime.sh leaves it (or
// where HEARTH_ONNXRUNTIME_LIB says); under make test it must be there.
func runtime(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HEARTH_ONNXRUNTIME_LIB"); p != "" {
		return p
	}
	found, _ := filepath.Glob("../../../.cache/onnxruntime/*/libonnxruntime.so*")
	if len(found) > 0 {
		return found[0]
	}
	if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatal("libonnxruntime is missing (make test runs scripts/onnxruntime.sh)")
	}
	t.Skip("libonnxruntime is missing (scripts/onnxruntime.sh fetches it)")
	return ""
}

func say(t *testing.T, voice, text string) []int16 {
	t.Helper()
	dir := t.TempDir()
	txt, wav := filepath.Join(dir, "s.txt"), filepath.Join(dir, "s.wav")
	os.WriteFile(txt, []byte(text), 0o600)
	if out, err := exec.Command("text2wave", "-F", "16000", "-eval", "(voice_"+voice+")", "-o", wav, txt).CombinedOutput(); err != nil {
		t.Fatalf("text2wave: %v %s", err, out)
	}
	b, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	b = b[44:]
	pcm := make([]int16, len(b)/2)
	for i := range pcm {
		pcm[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return pcm
}

// TestRunsAModel loads a generated model through onnxruntime and embeds
// Festival speech with it: the embedding has the model's size, and one
// voice's two sentences are nearer each other than another voice's.
func TestRunsAModel(t *testing.T) {
	lib := runtime(t)
	ex, err := onnx.New(onnx.Config{Model: writeMeanModel(t, 80), Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	var _ speaker.Extractor = ex
	a, err := ex.Embed(context.Background(), say(t, "cmu_us_slt_arctic_hts", "please send a report to my manager tomorrow morning"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 80 {
		t.Fatalf("embedding of %d numbers, want 80", len(a))
	}
	b, _ := ex.Embed(context.Background(), say(t, "cmu_us_slt_arctic_hts", "remember to water the tomatoes in the garden tonight"))
	c, _ := ex.Embed(context.Background(), say(t, "kal_diphone", "remember to water the tomatoes in the garden tonight"))
	if ab, ac := speaker.Distance(a, b), speaker.Distance(a, c); ab >= ac {
		t.Errorf("same voice %.3f, other voice %.3f", ab, ac)
	}
	if _, err := ex.Embed(context.Background(), make([]int16, 1600)); err == nil {
		t.Error("a tenth of a second was embedded")
	}
}

func TestRefusesWhatItCannotRun(t *testing.T) {
	lib := runtime(t)
	if _, err := onnx.New(onnx.Config{Model: filepath.Join(t.TempDir(), "none.onnx"), Library: lib}); err == nil {
		t.Error("a missing model was accepted")
	}
	if _, err := onnx.New(onnx.Config{Model: writeMeanModel(t, 40), Library: lib}); err == nil {
		t.Error("a 40-band model was taken for an 80-band one")
	}
	garbage := filepath.Join(t.TempDir(), "garbage.onnx")
	os.WriteFile(garbage, []byte("not a model"), 0o600)
	if _, err := onnx.New(onnx.Config{Model: garbage, Library: lib}); err == nil {
		t.Error("garbage was accepted as a model")
	}
}
