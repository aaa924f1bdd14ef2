package localstt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
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

// benchModel is the model the speed benchmarks run: the real one named by
// HEARTH_TEST_WHISPER_MODEL, or else a generated one of tiny's shape
// (its random weights hear nothing, but encoding and decoding cost the
// same work for the route and for the CLI, which is what is compared).
func benchModel(b *testing.B) string {
	if path := os.Getenv("HEARTH_TEST_WHISPER_MODEL"); path != "" {
		return path
	}
	return model(b, ggmltest.Tiny)
}

// whisperCLI finds whisper.cpp's own CLI: on PATH, or where
// scripts/whisper.sh built it from the same source as the library.
func whisperCLI(b *testing.B) string {
	if cli, err := exec.LookPath("whisper-cli"); err == nil {
		return cli
	}
	found, _ := filepath.Glob("../.cache/whisper/*/bin/whisper-cli")
	if len(found) == 0 {
		b.Skip("whisper-cli is not built (make whisper builds it)")
	}
	return found[0]
}

// benchThreads is the thread count both sides use.
const benchThreads = 2

// BenchmarkWhisperRTF and BenchmarkWhisperCLI compare the route with
// whisper.cpp's own CLI (built by scripts/whisper.sh from the same source)
// on the same model, audio and threads. The CLI's figure is its own
// "total time" less its "load time": the route loads its model once, at
// start-up, so only the transcription is compared.
func BenchmarkWhisperRTF(b *testing.B) {
	needWhisper(b)
	r, err := localstt.New(localstt.Config{Model: benchModel(b), Workers: 1, Threads: benchThreads})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	audio := jfk(b)
	b.ResetTimer()
	t0 := time.Now()
	for range b.N {
		// A generated model hears no words: its job is handed on (after
		// the same work), and the same audio is not another miss.
		var e *stt.Error
		if _, err := r.Transcribe(context.Background(), audio, stt.Config{Language: "en"}); err != nil &&
			!(os.Getenv("HEARTH_TEST_WHISPER_MODEL") == "" && errors.As(err, &e) && strings.Contains(e.Reason, "no words")) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N)/(float64(len(audio))/16000), "rtf")
}

func BenchmarkWhisperCLI(b *testing.B) {
	needWhisper(b)
	path, cli := benchModel(b), whisperCLI(b)
	out, _ := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ggerganov/whisper.cpp/bindings/go").Output()
	wav := filepath.Join(strings.TrimSpace(string(out)), "samples", "jfk.wav")
	var spent time.Duration
	b.ResetTimer()
	for range b.N {
		out, err := exec.Command(cli, "-m", path, "-f", wav, "-l", "en", "-t", fmt.Sprint(benchThreads), "-bs", "1", "-mc", "0").CombinedOutput()
		if err != nil {
			b.Fatalf("%v %s", err, out)
		}
		total, load := cliTiming(string(out), "total time"), cliTiming(string(out), "load time")
		if total == 0 {
			b.Fatalf("whisper-cli printed no timings: %s", out)
		}
		spent += total - load
	}
	b.ReportMetric(spent.Seconds()/float64(b.N)/11.0, "rtf")
}

// cliTiming reads one of the lines whisper_print_timings writes, such as
// "whisper_print_timings:    total time =   812.34 ms".
func cliTiming(out, name string) time.Duration {
	for _, line := range strings.Split(out, "\n") {
		_, rest, ok := strings.Cut(line, name+" =")
		if !ok {
			continue
		}
		var ms float64
		if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%f ms", &ms); err == nil {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	return 0
}

// TestRealModelMarksSpeechInAnotherLanguage: with a multilingual model
// (HEARTH_TEST_WHISPER_MODEL=.../ggml-base.bin), recorded French and
// Italian speech in an English session comes back as a marker naming the
// language, and recorded English as words.
func TestRealModelMarksSpeechInAnotherLanguage(t *testing.T) {
	r := realModel(t)
	if !r.Supports("fr", 1) {
		t.Skip("an English-only model cannot tell languages apart")
	}
	for _, tc := range []struct{ file, lang string }{
		{"/usr/share/asterisk/sounds/fr/conf-enteringno.g722", "fr"},
		{"/usr/share/asterisk/sounds/it/conf-enteringno.g722", "it"},
		{"/usr/share/asterisk/sounds/en/conf-enteringno.g722", ""},
	} {
		out, err := exec.Command("ffmpeg", "-v", "error", "-f", "g722", "-i", tc.file, "-ar", "16000", "-ac", "1", "-f", "s16le", "-").Output()
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		tr, err := r.Transcribe(context.Background(), pcmOf(out), stt.Config{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		marked := strings.HasPrefix(tr.Text, "[speech in another language")
		if tc.lang != "" && (!marked || tr.DetectedLanguage != tc.lang) || tc.lang == "" && marked {
			t.Errorf("%s: %q (detected %q)", tc.file, tr.Text, tr.DetectedLanguage)
		}
	}
}
