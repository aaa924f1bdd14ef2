package localstt_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
)

// realModel is a real whisper model named by HEARTH_TEST_WHISPER_MODEL
// (for example DATA/models/ggml-base.en.bin after hearth models pull
// base.en); the tests that need one are skipped without it.
func realModel(t testing.TB) *localstt.Route {
	t.Helper()
	path := os.Getenv("HEARTH_TEST_WHISPER_MODEL")
	if path == "" {
		t.Skip("HEARTH_TEST_WHISPER_MODEL names no model")
	}
	needWhisper(t)
	r, err := localstt.New(localstt.Config{Model: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// festival synthesises text with the HTS voice, 16 kHz mono.
func festival(t testing.TB, text string) []int16 {
	t.Helper()
	dir := t.TempDir()
	txt, wav := filepath.Join(dir, "s.txt"), filepath.Join(dir, "s.wav")
	os.WriteFile(txt, []byte(text), 0o600)
	if out, err := exec.Command("text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", wav, txt).CombinedOutput(); err != nil {
		t.Fatalf("text2wave: %v %s", err, out)
	}
	b, _ := os.ReadFile(wav)
	return pcmOf(b[44:])
}

func pcmOf(b []byte) []int16 {
	pcm := make([]int16, len(b)/2)
	for i := range pcm {
		pcm[i] = int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
	}
	return pcm
}

// TestRealModelWordErrorRate reports what a real model hears of Festival
// speech and of jfk.wav (the figure goes in docs/benchmarks.md).
func TestRealModelWordErrorRate(t *testing.T) {
	r := realModel(t)
	cases := map[string][]int16{
		"good morning today i will call the plumber about the kitchen sink":                                        nil,
		"please send a report to my manager tomorrow morning":                                                      nil,
		"and so my fellow americans ask not what your country can do for you ask what you can do for your country": jfk(t),
	}
	total := 0.0
	for said, audio := range cases {
		if audio == nil {
			audio = festival(t, said)
		}
		t0 := time.Now()
		tr, err := r.Transcribe(context.Background(), audio, stt.Config{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		e, n := stt.WordErrors(said, tr.Text)
		w := float64(e) / float64(max(n, 1))
		total += w
		t.Logf("WER %.1f %% (RTF %.2f): heard %q", 100*w, time.Since(t0).Seconds()/(float64(len(audio))/16000), tr.Text)
	}
	if avg := total / float64(len(cases)); avg > 0.25 {
		t.Fatalf("mean word error rate %.0f %%", 100*avg)
	}
}

// BenchmarkWhisperRTF and BenchmarkWhisperCLI compare the route with
// whisper.cpp's own CLI (built by scripts/whisper.sh from the same source)
// on the same model, audio and threads.
func BenchmarkWhisperRTF(b *testing.B) {
	r := realModel(b)
	audio := jfk(b)
	b.ResetTimer()
	t0 := time.Now()
	for range b.N {
		if _, err := r.Transcribe(context.Background(), audio, stt.Config{Language: "en"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N)/(float64(len(audio))/16000), "rtf")
}

func BenchmarkWhisperCLI(b *testing.B) {
	path := os.Getenv("HEARTH_TEST_WHISPER_MODEL")
	cli, err := exec.LookPath("whisper-cli")
	if path == "" || err != nil {
		b.Skip("needs HEARTH_TEST_WHISPER_MODEL and whisper-cli on PATH (.cache/whisper/*/bin)")
	}
	out, _ := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ggerganov/whisper.cpp/bindings/go").Output()
	wav := filepath.Join(strings.TrimSpace(string(out)), "samples", "jfk.wav")
	b.ResetTimer()
	t0 := time.Now()
	for range b.N {
		if out, err := exec.Command(cli, "-m", path, "-f", wav, "-nt", "-np").CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N)/11.0, "rtf")
}
