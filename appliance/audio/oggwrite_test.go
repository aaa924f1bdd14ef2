package audio_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// newEncoder is libopus's encoder, or the test's end where the build has
// none (a failure where make test requires it).
func newEncoder(t *testing.T) audio.Encoder {
	t.Helper()
	enc, err := audio.NewOpusEncoder()
	if errors.Is(err, audio.ErrNoEncoder) {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("this build has no Opus encoder (make test links libopus)")
		}
		t.Skip("this build has no Opus encoder")
	}
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestOggOpusWriter_PlaysBackWhole: what the writer wrote decodes with
// the appliance's own Ogg Opus reader to as much audio as was written; a
// file cut in the middle of a page (a killed process) decodes up to the
// page before, and OggDuration says so.
func TestOggOpusWriter_PlaysBackWhole(t *testing.T) {
	t.Parallel()
	enc := newEncoder(t)
	pcm := make([]int16, audio.Rate*3+1234) // 3.08 s of a voice-band tone
	for i := range pcm {
		pcm[i] = int16(8000 * math.Sin(2*math.Pi*440*float64(i)/audio.Rate))
	}
	var buf bytes.Buffer
	w, err := audio.NewOggOpusWriter(&buf, enc, 7, "hearth test")
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(pcm); off += 333 { // odd sizes, as frames arrive
		if err := w.Write(pcm[off:min(off+333, len(pcm))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.ogg")
	if err := os.WriteFile(whole, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	want := time.Duration(len(pcm)) * time.Second / audio.Rate
	got := decodedDuration(t, whole)
	// The last frame is padded to 20 ms; the first 6.5 ms are the
	// encoder's look-ahead, which the decoder drops.
	if d := (got - want).Abs(); d > 20*time.Millisecond {
		t.Errorf("decoded %v of %v written", got, want)
	}
	if d, err := audio.OggDuration(whole); err != nil || d != got {
		t.Errorf("OggDuration %v (%v), want %v", d, err, want)
	}
	if kbps := float64(buf.Len()*8) / want.Seconds() / 1000; kbps > 20 {
		t.Errorf("%.1f kbps, want about 16", kbps)
	}

	// Cut 100 bytes before the end: the last page (the last 80 ms and
	// the end-of-stream page) is lost, the rest plays.
	cut := filepath.Join(dir, "cut.ogg")
	if err := os.WriteFile(cut, buf.Bytes()[:buf.Len()-100], 0o600); err != nil {
		t.Fatal(err)
	}
	got = decodedDuration(t, cut)
	if got < 3*time.Second-20*time.Millisecond || got > 3*time.Second {
		t.Errorf("a cut file decoded to %v, want 3 s (its whole pages)", got)
	}
	if d, err := audio.OggDuration(cut); err != nil || d != got {
		t.Errorf("OggDuration of the cut file %v (%v), decoded %v", d, err, got)
	}
}

func decodedDuration(t *testing.T, path string) time.Duration {
	t.Helper()
	src, err := audio.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var n int
	buf := make([]int16, 4096)
	for {
		k, err := src.Read(buf)
		n += k
		if err != nil {
			break
		}
	}
	return time.Duration(n) * time.Second / audio.Rate
}

// BenchmarkOggOpusWriter is what keeping a live session's audio costs:
// one second of speech-band audio encoded and paged per op.
func BenchmarkOggOpusWriter(b *testing.B) {
	enc, err := audio.NewOpusEncoder()
	if err != nil {
		b.Skip(err)
	}
	sec := make([]int16, audio.Rate)
	for i := range sec {
		sec[i] = int16(6000*math.Sin(2*math.Pi*220*float64(i)/audio.Rate) + 2000*math.Sin(2*math.Pi*1330*float64(i)/audio.Rate))
	}
	w, err := audio.NewOggOpusWriter(io.Discard, enc, 1, "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := w.Write(sec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.Size())*8/float64(b.N)/1000, "kbps")
}
