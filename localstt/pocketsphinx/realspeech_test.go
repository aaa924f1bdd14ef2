package pocketsphinx_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// Recorded human speech: Allison Smith's prompts from Debian's
// asterisk-core-sounds-en-g722 (16 kHz G.722), their text from
// asterisk-core-sounds-en.
const (
	allisonDir   = "/usr/share/asterisk/sounds/en_US_f_Allison"
	allisonTexts = "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz"
)

// allisonPrompts are prompts without digits or symbols in their text, so
// that what was said is what the text says.
var allisonPrompts = []string{
	"conf-placeintoconf", "cannot-complete-as-dialed", "followme/pls-hold-while-try",
	"confbridge-lock-no-join", "dir-nomore", "feature-not-avail-line",
	"conf-waitforleader", "confbridge-removed", "check-number-dial-again", "demo-nomatch",
}

// allison is the prompts read one after another with pause seconds of
// digital silence before, between and after them, as 16 kHz mono PCM, and
// the words said.
func allison(t testing.TB, pause float64, names ...string) ([]int16, string) {
	t.Helper()
	need(t, "ffmpeg", tool("ffmpeg"))
	texts := promptTexts(t)
	gap := make([]int16, int(pause*16000))
	pcm := append([]int16(nil), gap...)
	var said []string
	for _, n := range names {
		text, ok := texts[n]
		if !ok {
			t.Fatalf("no text for prompt %s", n)
		}
		out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "g722",
			"-i", filepath.Join(allisonDir, n+".g722"), "-ar", "16000", "-ac", "1", "-f", "s16le", "-").Output()
		if err != nil {
			t.Fatalf("ffmpeg %s: %v", n, err)
		}
		for i := 0; i+1 < len(out); i += 2 {
			pcm = append(pcm, int16(binary.LittleEndian.Uint16(out[i:])))
		}
		pcm = append(pcm, gap...)
		said = append(said, text)
	}
	return pcm, strings.Join(said, " ")
}

// promptTexts reads core-sounds-en.txt: "name: text" a line.
func promptTexts(t testing.TB) map[string]string {
	t.Helper()
	f, err := os.Open(allisonTexts)
	need(t, "asterisk-core-sounds-en (the prompts' texts)", err == nil)
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		name, text, ok := strings.Cut(sc.Text(), ": ")
		if ok && !strings.HasPrefix(name, ";") {
			texts[name] = text
		}
	}
	if _, err := os.Stat(filepath.Join(allisonDir, allisonPrompts[0]+".g722")); err != nil {
		need(t, "asterisk-core-sounds-en-g722 (Allison's recorded voice)", false)
	}
	return texts
}

// atLevel scales pcm so that its speech (the frames above a hundredth of
// the loudest) has an RMS of dbfs.
func atLevel(pcm []int16, dbfs float64) []int16 {
	peak := 0.0
	for _, s := range pcm {
		peak = max(peak, math.Abs(float64(s)))
	}
	var sum float64
	n := 0
	for off := 0; off+320 <= len(pcm); off += 320 {
		var e float64
		for _, s := range pcm[off : off+320] {
			e += float64(s) * float64(s)
		}
		if math.Sqrt(e/320) > peak/100 {
			sum, n = sum+e, n+320
		}
	}
	gain := 32768 * math.Pow(10, dbfs/20) / math.Sqrt(sum/float64(n))
	out := make([]int16, len(pcm))
	for i, s := range pcm {
		out[i] = int16(max(-32768, min(32767, math.Round(float64(s)*gain))))
	}
	return out
}

// engineAlone is what Debian's pocketsphinx_continuous, with its own
// voice activity detection, hears of the audio: the recognizer without
// the route.
func engineAlone(t testing.TB, pcm []int16) string {
	t.Helper()
	need(t, "pocketsphinx_continuous (Debian pocketsphinx)", tool("pocketsphinx_continuous"))
	wav := filepath.Join(t.TempDir(), "a.wav")
	writeWAV(t, wav, pcm)
	out, err := exec.Command("pocketsphinx_continuous", "-infile", wav, "-logfn", "/dev/null").Output()
	if err != nil {
		t.Fatalf("pocketsphinx_continuous: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// live is what a stream of the route hears of pcm sent in 20 ms frames,
// at twice real time (the stream fails when audio comes faster than a
// decoder keeps up with, and the machine is shared).
func live(t testing.TB, r *pocketsphinx.Route, pcm []int16) string {
	t.Helper()
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ws := range st.Words() {
			for _, w := range ws {
				words = append(words, w.Text)
			}
		}
	}()
	for off := 0; off < len(pcm); off += 320 {
		if err := st.Send(pcm[off:min(off+320, len(pcm))]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	st.Close()
	<-done
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(words, " ")
}

func wer(said, heard string) float64 {
	e, n := stt.WordErrors(said, heard)
	return 100 * float64(e) / float64(n)
}

// TestMeasureRealSpeechLevels prints the word error rate of the engine
// alone, the batch route and a live stream on ten of Allison's prompts
// with 2 s pauses at several levels (HEARTH_MEASURE_REALSPEECH=1; the
// figures in docs/benchmarks.md). Each level gets a fresh route.
func TestMeasureRealSpeechLevels(t *testing.T) {
	if os.Getenv("HEARTH_MEASURE_REALSPEECH") == "" {
		t.Skip("a measurement: HEARTH_MEASURE_REALSPEECH=1")
	}
	pcm, said := allison(t, 2, allisonPrompts...)
	for _, db := range []float64{-20, -45, -55} {
		r := route(t, pocketsphinx.Config{Decoders: 2})
		a := atLevel(pcm, db)
		eng := engineAlone(t, a)
		tr, err := r.Transcribe(context.Background(), a, stt.Config{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		lv := live(t, r, a)
		t.Logf("%.0f dBFS: engine %.1f %%, batch %.1f %% (%d segments), live %.1f %%", db, wer(said, eng), wer(said, tr.Text), len(tr.Segments), wer(said, lv))
		t.Logf("  engine %q\n  batch  %q\n  live   %q", eng, tr.Text, lv)
	}
}

// TestQuietMicrophoneIsHeard: Allison's recorded prompts at -45 dBFS
// (a quiet microphone) are heard by the batch route and by a live stream
// within 2 points of word error rate of the engine alone on the same
// audio (with a fixed floor of -42 dBFS the route lost most of them:
// 65 % against 25 %); attenuated by 25 dB, no prompt is lost.
func TestQuietMicrophoneIsHeard(t *testing.T) {
	r := route(t, pocketsphinx.Config{Decoders: 1})
	prompts := allisonPrompts[:4]
	pcm, said := allison(t, 1, prompts...)
	quiet := atLevel(pcm, -45)
	engine := wer(said, engineAlone(t, quiet))
	tr, err := r.Transcribe(context.Background(), quiet, stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	batch := wer(said, tr.Text)
	t.Logf("-45 dBFS: engine alone %.1f %%, batch %.1f %% (%q)", engine, batch, tr.Text)
	if batch > engine+2 {
		t.Errorf("batch at -45 dBFS: %.1f %% of words wrong, the engine alone %.1f %%", batch, engine)
	}
	// A fresh route: the live decoder's running normalisation starts from
	// the model's, as a new session's may.
	lr := route(t, pocketsphinx.Config{Decoders: 1})
	heard := live(t, lr, quiet)
	lv := wer(said, heard)
	t.Logf("-45 dBFS: live %.1f %% (%q)", lv, heard)
	if lv > engine+2 {
		t.Errorf("live at -45 dBFS: %.1f %% of words wrong, the engine alone %.1f %%", lv, engine)
	}
	tr, err = r.Transcribe(context.Background(), scaledBy(pcm, -25), stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Segments) != len(prompts) {
		t.Errorf("attenuated by 25 dB: %d segments for %d prompts: %+v", len(tr.Segments), len(prompts), tr.Segments)
	}
	if e := wer(said, tr.Text); e > engine+2 {
		t.Errorf("attenuated by 25 dB: %.1f %% of words wrong (%q)", e, tr.Text)
	}
}

// scaledBy is pcm at db decibels.
func scaledBy(pcm []int16, db float64) []int16 {
	g := math.Pow(10, db/20)
	out := make([]int16, len(pcm))
	for i, s := range pcm {
		out[i] = int16(math.Round(float64(s) * g))
	}
	return out
}
