package speaker_test

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The test set the tests make: sentences spoken by clearly different
// synthetic voices. Festival's HTS voice (slt, female) and its two male
// diphone voices (kal, ked), and espeak-ng variants for more speakers.
var voices = []string{"slt", "kal", "ked", "espeak-f", "espeak-m"}

var sentences = []string{
	"good morning today i will call the plumber about the kitchen sink",
	"please send a report to my manager tomorrow morning",
	"we should book the flights before the prices go up in june",
	"remember to water the tomatoes in the garden tonight",
	"the meeting about the budget moved to thursday afternoon",
	"can you pick up bread and coffee on your way home",
}

// need fails under make test (which installs every tool) and skips
// elsewhere.
func need(t testing.TB, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err == nil {
		return
	}
	if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatalf("%s is missing (scripts/deps.sh test installs it)", tool)
	}
	t.Skipf("%s is missing", tool)
}

var (
	synthMu  sync.Mutex
	synthDir string
	synthed  = map[string][]int16{}
)

// say synthesises text in a voice as 16 kHz mono PCM (cached per run).
func say(t testing.TB, voice, text string) []int16 {
	t.Helper()
	need(t, "text2wave")
	need(t, "espeak-ng")
	need(t, "sox")
	synthMu.Lock()
	defer synthMu.Unlock()
	key := voice + "\x00" + text
	if pcm, ok := synthed[key]; ok {
		return pcm
	}
	if synthDir == "" {
		d, err := os.MkdirTemp("", "hearth-voices-*")
		if err != nil {
			t.Fatal(err)
		}
		synthDir = d
	}
	n := len(synthed)
	raw, wav := filepath.Join(synthDir, "raw"+itoa(n)+".wav"), filepath.Join(synthDir, "v"+itoa(n)+".wav")
	txt := filepath.Join(synthDir, "t"+itoa(n)+".txt")
	os.WriteFile(txt, []byte(text), 0o600)
	var cmd *exec.Cmd
	switch voice {
	case "slt":
		cmd = exec.Command("text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw, txt)
	case "kal":
		cmd = exec.Command("text2wave", "-F", "16000", "-eval", "(voice_kal_diphone)", "-o", raw, txt)
	case "ked":
		cmd = exec.Command("text2wave", "-F", "16000", "-eval", "(voice_ked_diphone)", "-o", raw, txt)
	case "espeak-f":
		cmd = exec.Command("espeak-ng", "-v", "en-us+f3", "-s", "150", "-w", raw, text)
	case "espeak-m":
		cmd = exec.Command("espeak-ng", "-v", "en-gb+m3", "-s", "160", "-w", raw, text)
	default:
		// "espeak:VARIANT": any espeak-ng voice (the nuisance generator's
		// training voices).
		v, ok := strings.CutPrefix(voice, "espeak:")
		if !ok {
			t.Fatalf("no voice %q", voice)
		}
		cmd = exec.Command("espeak-ng", "-v", v, "-s", "155", "-w", raw, text)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", voice, err, out)
	}
	if out, err := exec.Command("sox", raw, "-r", "16000", "-c", "1", "-b", "16", wav).CombinedOutput(); err != nil {
		t.Fatalf("sox: %v\n%s", err, out)
	}
	pcm := readWAV(t, wav)
	synthed[key] = pcm
	return pcm
}

func readWAV(t testing.TB, path string) []int16 {
	t.Helper()
	b, err := os.ReadFile(path)
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

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if synthDir != "" {
		os.RemoveAll(synthDir)
	}
	os.Exit(code)
}
