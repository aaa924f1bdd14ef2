package speaker_test

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Recorded human voices: the asterisk-core-sounds prompts (Debian
// asterisk-core-sounds-{en,es,fr,it,ru}-g722). Four people: Allison Smith
// recorded both the English and the Spanish prompts (the package
// descriptions say so), so en and es are one voice in two languages.
var realVoices = []struct{ name, dir, person string }{
	{"en", "en_US_f_Allison", "Allison"},
	{"es", "es_MX_f_Allison", "Allison"},
	{"fr", "fr_CA_f_June", "June"},
	{"it", "it_IT_m_Carlo", "Carlo"},
	{"ru", "ru_RU_f_IvrvoiceRU", "IvrvoiceRU"},
}

const asteriskSounds = "/usr/share/asterisk/sounds"

// The prompts a profile is recorded from (about 20 s in each language),
// and those a conversation's turns are made of (3 to 9 s each); both
// exist in every language.
var (
	profilePrompts = []string{"vm-intro", "vm-instructions", "dir-instr"}
	turnPrompts    = []string{"vm-newuser", "privacy-prompt", "agent-user", "auth-incorrect",
		"queue-periodic-announce", "vm-tempgreeting2", "ss-noservice", "agent-alreadyon",
		"agent-incorrect", "conf-invalid"}
)

var (
	promptMu sync.Mutex
	prompts  = map[string][]int16{}
)

// prompt decodes one asterisk prompt (G.722) to 16 kHz mono PCM.
func prompt(t testing.TB, dir, name string) []int16 {
	t.Helper()
	need(t, "ffmpeg")
	path := filepath.Join(asteriskSounds, dir, name+".g722")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("%s is missing (scripts/deps.sh test installs asterisk-core-sounds-*-g722)", path)
		}
		t.Skipf("%s is missing", path)
	}
	promptMu.Lock()
	defer promptMu.Unlock()
	if pcm, ok := prompts[path]; ok {
		return pcm
	}
	out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", path,
		"-f", "s16le", "-ar", "16000", "-ac", "1", "-").Output()
	if err != nil {
		t.Fatalf("decode %s: %v (scripts/deps.sh test installs asterisk-core-sounds-*-g722)", path, err)
	}
	pcm := make([]int16, len(out)/2)
	for i := range pcm {
		pcm[i] = int16(binary.LittleEndian.Uint16(out[2*i:]))
	}
	prompts[path] = pcm
	return pcm
}

// realProfile is a voice's profile recording: its profile prompts, in quiet.
func realProfile(t testing.TB, voice int) []int16 {
	var pcm []int16
	for _, p := range profilePrompts {
		pcm = append(pcm, prompt(t, realVoices[voice].dir, p)...)
	}
	return pcm
}

// realTurn is one turn of a conversation: who spoke, and where in the
// stream (samples).
type realTurn struct {
	voice      int
	start, end int
}

// realConversation is the voices taking turns, each perVoice times (a
// different prompt each time), with 2 s of silence between turns, as one
// 16 kHz stream; with snr > 0, white noise from sox at snr dB below the
// speech's level runs through the whole of it, pauses included.
func realConversation(t testing.TB, voices []int, perVoice int, snr float64) ([]int16, []realTurn) {
	t.Helper()
	const pause = 2 * 16000
	var pcm []int16
	var turns []realTurn
	for round := range perVoice {
		for k, v := range voices {
			p := prompt(t, realVoices[v].dir, turnPrompts[(round*len(voices)+k+v)%len(turnPrompts)])
			pcm = append(pcm, make([]int16, pause)...)
			turns = append(turns, realTurn{voice: v, start: len(pcm), end: len(pcm) + len(p)})
			pcm = append(pcm, p...)
		}
	}
	pcm = append(pcm, make([]int16, pause)...)
	if snr > 0 {
		pcm = withWhiteNoise(t, pcm, turns, snr)
	}
	return pcm, turns
}

// withWhiteNoise adds sox's white noise (repeatable: sox -R) at snr dB
// below the level of the turns' speech.
func withWhiteNoise(t testing.TB, pcm []int16, turns []realTurn, snr float64) []int16 {
	t.Helper()
	need(t, "sox")
	secs := float64(len(pcm))/16000 + 1
	raw, err := exec.Command("sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer",
		"-t", "raw", "-", "synth", formatSecs(secs), "whitenoise").Output()
	if err != nil {
		t.Fatalf("sox whitenoise: %v", err)
	}
	noise := make([]float64, len(raw)/2)
	var np float64
	for i := range noise {
		noise[i] = float64(int16(binary.LittleEndian.Uint16(raw[2*i:])))
		np += noise[i] * noise[i]
	}
	np /= float64(len(noise))
	var sp float64
	var n int
	for _, tr := range turns {
		for _, v := range pcm[tr.start:tr.end] {
			sp += float64(v) * float64(v)
		}
		n += tr.end - tr.start
	}
	sp /= float64(n)
	gain := math.Sqrt(sp / np / math.Pow(10, snr/10))
	out := make([]int16, len(pcm))
	for i, v := range pcm {
		out[i] = int16(max(-32768, min(32767, float64(v)+gain*noise[i])))
	}
	return out
}

func formatSecs(s float64) string {
	return itoa(int(math.Ceil(s)))
}
