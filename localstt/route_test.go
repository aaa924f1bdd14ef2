package localstt_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

func needWhisper(t testing.TB) {
	t.Helper()
	if localstt.Available {
		return
	}
	if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatal("whisper.cpp is not built in (make build builds it with scripts/whisper.sh)")
	}
	t.Skip("whisper.cpp is not built in")
}

// model writes a generated random-weight model: it loads and runs, and
// hears nothing in particular.
func model(t testing.TB, shape ggmltest.Shape) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ggml-test.bin")
	if err := ggmltest.Write(path, shape, 1); err != nil {
		t.Fatal(err)
	}
	return path
}

// jfk is the 11 s of real speech the whisper.cpp Go bindings ship.
func jfk(t testing.TB) []int16 {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ggerganov/whisper.cpp/bindings/go").Output()
	if err != nil {
		t.Fatalf("find the bindings: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "samples", "jfk.wav"))
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

func TestGeneratedModelLoadsAndRuns(t *testing.T) {
	needWhisper(t)
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.Supports("en", 1) || r.Supports("de", 1) || r.Supports("en", 2) || r.Model() != "test" {
		t.Fatal("an English model's languages")
	}
	t0 := time.Now()
	// The random model hears no words: a batch job is handed on (an
	// upstream error before the model has ever yielded a word).
	_, err = r.Transcribe(context.Background(), jfk(t), stt.Config{Language: "en"})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.UpstreamError || !strings.Contains(e.Reason, "no words") {
		t.Fatalf("11 s of speech through the random model: %v", err)
	}
	t.Logf("11 s of speech through the random model in %v", time.Since(t0))
	if _, err := r.TranslateToEnglish(context.Background(), jfk(t), "en"); err == nil {
		t.Fatal("an English-only model translated")
	}

	multi := ggmltest.Tiny
	multi.Vocab = 51865
	m, err := localstt.New(localstt.Config{Model: model(t, multi)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !m.Supports("de", 1) || !m.Supports("multi", 1) || m.Supports("xx", 1) {
		t.Fatal("a multilingual model's languages")
	}
	if _, err := m.TranslateToEnglish(context.Background(), jfk(t)[:16000*3], "multi"); err != nil {
		t.Fatal(err)
	}
	// A fixed language on a multilingual model: the model is asked what
	// it hears too (the random one is sure of nothing, and hears no words).
	if _, err := m.Transcribe(context.Background(), jfk(t)[:16000*3], stt.Config{Language: "de"}); !errors.As(err, &e) || !strings.Contains(e.Reason, "no words") {
		t.Fatalf("a German job on the random multilingual model: %v", err)
	}
}

func TestWorkersAreBounded(t *testing.T) {
	needWhisper(t)
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny), Workers: 1, Wait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	audio := jfk(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = r.Transcribe(context.Background(), audio, stt.Config{Language: "en"})
		}()
	}
	wg.Wait()
	busy := 0
	for _, err := range errs {
		var e *stt.Error
		if errors.Is(err, stt.ErrBusy) {
			busy++
		} else if err != nil && !(errors.As(err, &e) && strings.Contains(e.Reason, "no words")) { // the random model hears nothing
			t.Fatal(err)
		}
	}
	if busy == 0 {
		t.Fatal("three jobs on one worker with no wait: none was refused as busy")
	}
}

func TestStreamingWithTheGeneratedModel(t *testing.T) {
	needWhisper(t)
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	audio := append(jfk(t), make([]int16, 16000)...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range st.Words() {
		}
	}()
	for off := 0; off < len(audio); off += 320 {
		if err := st.Send(audio[off:min(off+320, len(audio))]); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the stream never ended")
	}
	// The random model hears nothing: after a few stretches of speech the
	// stream says so, and the route is passed over from then on.
	if err := st.Err(); !errors.Is(err, stt.ErrHearsNothing) {
		t.Fatalf("the stream ended with %v, want the model to be found deaf", err)
	}
	if r.Unusable() == nil {
		t.Fatal("a deaf model's route is still usable")
	}
}

func TestConfigErrorsSayWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		cfg  localstt.Config
		want string
	}{
		{localstt.Config{ModelsDir: t.TempDir()}, "hearth models pull"},
		{localstt.Config{Model: filepath.Join(t.TempDir(), "missing.bin")}, "hearth models pull"},
	} {
		_, err := localstt.New(tc.cfg)
		var e *stt.Error
		if !errors.As(err, &e) || e.Outcome != stt.ConfigError {
			t.Fatalf("%+v: %v", tc.cfg, err)
		}
		if localstt.Available && !strings.Contains(e.Reason, tc.want) {
			t.Fatalf("%+v: %q", tc.cfg, e.Reason)
		}
		// The log line says what to do once, not twice.
		if strings.Count(err.Error(), e.Reason) != 1 {
			t.Fatalf("%+v: the reason repeated: %q", tc.cfg, err)
		}
	}
	if !localstt.Available {
		return
	}
	junk := filepath.Join(t.TempDir(), "ggml-junk.bin")
	os.WriteFile(junk, []byte("not a model"), 0o600)
	_, err := localstt.New(localstt.Config{Model: junk})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.ConfigError || !strings.Contains(e.Reason, "does not load") {
		t.Fatalf("a junk model: %v", err)
	}
	dir := t.TempDir()
	for _, n := range []string{"ggml-tiny.bin", "ggml-base.en.bin"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600)
	}
	if got := localstt.FindModel(dir); filepath.Base(got) != "ggml-base.en.bin" {
		t.Fatalf("picked %s", got)
	}
}

// TestARetiredRouteServesItsStreamsToTheEnd: a route the settings
// replaced keeps its model for the stream still on it, frees it when that
// stream ends, and is passed over from then on; the meter keeps the
// model's measured speed.
func TestARetiredRouteServesItsStreamsToTheEnd(t *testing.T) {
	needWhisper(t)
	meter := &localstt.Meter{}
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny), Meter: meter})
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	r.Retire()
	speech := jfk(t)[:3*16000]
	var e *stt.Error
	if err := r.Unusable(); err != nil {
		t.Fatalf("retired with a stream on it: %v", err)
	}
	// The random model hears no words, but it runs: the job is measured.
	if _, err := r.Transcribe(context.Background(), speech, stt.Config{Language: "en"}); !errors.As(err, &e) || !strings.Contains(e.Reason, "no words") {
		t.Fatalf("a job on a retired route with a stream on it: %v", err)
	}
	if sp, ok := meter.Speed("test"); !ok || sp.Audio != 3*time.Second || sp.Compute <= 0 || sp.RTF() <= 0 {
		t.Fatalf("measured %+v %v, want 3 s of audio", sp, ok)
	}
	st.Close()
	for range st.Words() {
	}
	if err := r.Unusable(); !errors.As(err, &e) || e.Outcome != stt.ConfigError || !strings.Contains(e.Reason, "replaced") {
		t.Fatalf("retired and its last stream ended: %v", err)
	}
	if _, err := r.Transcribe(context.Background(), speech, stt.Config{Language: "en"}); !errors.As(err, &e) || e.Outcome != stt.ConfigError {
		t.Fatalf("a job on a freed route: %v", err)
	}
	if _, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1}); err == nil {
		t.Fatal("a freed route opened a stream")
	}
	if _, ok := meter.Speed("base.en"); ok {
		t.Fatal("a model that never ran has a speed")
	}
}
