package main

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"
)

// asteriskWAV decodes asterisk prompts (recorded human voices, Debian
// asterisk-core-sounds-*-g722) into one 16 kHz WAV, each prompt followed
// by pause seconds of silence.
func asteriskWAV(t *testing.T, dir string, pause float64, prompts ...string) string {
	t.Helper()
	tmp := t.TempDir()
	var parts []string
	for i, p := range prompts {
		src := filepath.Join("/usr/share/asterisk/sounds", dir, p+".g722")
		if _, err := os.Stat(src); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is missing (scripts/deps.sh test installs asterisk-core-sounds-*-g722)", src)
			}
			t.Skipf("%s is missing", src)
		}
		raw, padded := filepath.Join(tmp, "r"+strconv.Itoa(i)+".wav"), filepath.Join(tmp, "p"+strconv.Itoa(i)+".wav")
		mustRun(t, "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", src, "-ar", "16000", "-ac", "1", raw)
		mustRun(t, "sox", raw, "-b", "16", padded, "pad", "0", strconv.FormatFloat(pause, 'f', 1, 64))
		parts = append(parts, padded)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	all := filepath.Join(tmp, "all.wav")
	mustRun(t, "sox", append(parts, all)...)
	return all
}

// TestLiveRecordedOwnerOnPocketSphinx: on a route that names no speakers,
// with a speech profile of a recorded person (Allison, asterisk's English
// prompts), a live session marks her turns is_user, the first one
// included, and never a recorded man's (Carlo, the Italian prompts) who
// takes turns with her; each keeps one speaker id.
func TestLiveRecordedOwnerOnPocketSphinx(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	const allison, carlo = "en_US_f_Allison", "it_IT_m_Carlo"
	turns := []struct{ dir, prompt string }{
		{allison, "vm-newuser"}, {carlo, "agent-user"}, {allison, "auth-incorrect"}, {carlo, "queue-periodic-announce"},
	}
	all, starts := recordedTurns(t, 2, turns)

	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_STT_ROUTES=pocketsphinx")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Allison")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	profile := asteriskWAV(t, allison, 0.5, "vm-intro", "vm-instructions", "dir-instr")
	if code, body, _ := upload(t, srv.base+"/v3/upload-audio", token, map[string]string{"file": profile}, nil); code != 200 {
		t.Fatalf("profile: %d %s", code, body)
	}
	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(encodeFrames(t, "pcm16", all), 1.5)
	byID := map[string]map[string]any{}
	c.until(120*time.Second, "a segment in the last turn", func(m wsMsg) bool {
		for _, s := range segmentsOf(m) {
			byID[s["id"].(string)] = s
		}
		// Conversation time starts at the first segment: the last turn
		// begins (starts[3]-starts[0]) seconds after the first.
		for _, s := range byID {
			if s["start"].(float64) >= starts[3]-starts[0]-0.5 {
				return true
			}
		}
		return false
	})
	segs := make([]map[string]any, 0, len(byID))
	for _, s := range byID {
		segs = append(segs, s)
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i]["start"].(float64) < segs[j]["start"].(float64) })
	if len(segs) == 0 {
		t.Fatal("no segments")
	}
	offset := starts[0] - segs[0]["start"].(float64) // conversation time to stream time, near enough
	turnOf := func(s map[string]any) int {
		mid := (s["start"].(float64)+s["end"].(float64))/2 + offset
		k := 0
		for i, st := range starts {
			if mid >= st {
				k = i
			}
		}
		return k
	}
	ids := map[string]map[float64]bool{}
	heard := map[int]bool{}
	for _, s := range segs {
		k := turnOf(s)
		heard[k] = true
		isUser, _ := s["is_user"].(bool)
		owner := turns[k].dir == allison
		t.Logf("turn %d (%s) speaker %v is_user %v at %.1f–%.1f: %v", k, turns[k].dir, s["speaker_id"], isUser, s["start"], s["end"], s["text"])
		if isUser != owner {
			t.Errorf("turn %d (%s): is_user %v", k, turns[k].dir, isUser)
		}
		if ids[turns[k].dir] == nil {
			ids[turns[k].dir] = map[float64]bool{}
		}
		ids[turns[k].dir][s["speaker_id"].(float64)] = true
	}
	if !heard[0] || !heard[2] {
		t.Errorf("Allison's turns heard: %v", heard)
	}
	for dir, set := range ids {
		if len(set) != 1 {
			t.Errorf("%s: speaker ids %v, want one", dir, set)
		}
	}
	for id := range ids[allison] {
		if ids[carlo][id] {
			t.Errorf("Allison and Carlo share speaker %v", id)
		}
	}
}

// wavSeconds is the length of a 16 kHz mono 16-bit WAV written by sox.
func wavSeconds(t *testing.T, path string) float64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return float64(st.Size()-44) / 32000
}

// recordedTurns joins asterisk prompts, each followed by pause seconds of
// silence, into one WAV, and gives where each turn starts in it (seconds),
// to place the segments heard.
func recordedTurns(t *testing.T, pause float64, turns []struct{ dir, prompt string }) (string, []float64) {
	t.Helper()
	var wavs []string
	for _, tr := range turns {
		wavs = append(wavs, asteriskWAV(t, tr.dir, pause, tr.prompt))
	}
	all := filepath.Join(t.TempDir(), "all.wav")
	mustRun(t, "sox", append(wavs, all)...)
	var starts []float64
	var at float64
	for _, w := range wavs {
		starts = append(starts, at)
		at += wavSeconds(t, w)
	}
	return all, starts
}
