package speaker_test

import (
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// extraGuests are recorded (and Festival) voices the label rule's line was
// not set on, as guests of the asterisk owners: pocketsphinx-testdata's
// LibriVox reader, CMU cards speaker and its other clips (goforward,
// numbers, something, a TIDIGITS string), alsa-utils' channel names, and
// Festival's three voices.
func extraGuests(t testing.TB) map[string][][]int16 {
	t.Helper()
	const ps = "/usr/share/pocketsphinx/test/data"
	load := func(path string, raw bool) []int16 {
		args := []string{path}
		if raw {
			args = []string{"-t", "raw", "-r", "16000", "-e", "signed-integer", "-b", "16", "-c", "1", path}
		}
		args = append(args, "-t", "raw", "-r", "16000", "-e", "signed-integer", "-b", "16", "-c", "1", "-")
		out, err := exec.Command("sox", args...).Output()
		if err != nil {
			t.Fatalf("sox %s: %v", path, err)
		}
		pcm := make([]int16, len(out)/2)
		for i := range pcm {
			pcm[i] = int16(binary.LittleEndian.Uint16(out[2*i:]))
		}
		return pcm
	}
	g := map[string][][]int16{}
	for _, f := range []string{"0870", "0880", "0890", "0920", "0930"} {
		g["librivox"] = append(g["librivox"], load(filepath.Join(ps, "librivox/sense_and_sensibility_01_austen_64kb-"+f+".wav"), false))
	}
	for _, f := range []string{"001", "002", "003", "004", "005"} {
		g["cards"] = append(g["cards"], load(filepath.Join(ps, "cards", f+".wav"), false))
	}
	for _, f := range []string{"goforward.raw", "numbers.raw", "something.raw", "tidigits/dhd.2934z.raw"} {
		g["ps-clips"] = append(g["ps-clips"], load(filepath.Join(ps, f), true))
	}
	alsa, _ := filepath.Glob("/usr/share/sounds/alsa/*.wav")
	for _, f := range alsa {
		if !strings.Contains(f, "Noise") {
			g["alsa"] = append(g["alsa"], load(f, false))
		}
	}
	for _, v := range []string{"slt", "kal", "ked"} {
		for _, s := range nuisanceSentences[:4] {
			g[v] = append(g[v], say(t, v, s))
		}
	}
	return g
}

// TestMeasureLabelRuleExtraVoices (HEARTH_SPEAKER_MEASURE=1): every asterisk
// voice as owner (its clean profile) with each extra guest in a two-person
// session (owner's turn, guest's turn, in turn, 2 s pauses; the guest's
// clips that are left at the end), clean and in 20 dB of white noise: the
// guest's turns marked is_user and guest labels made the owner's (false
// accepts), the owner's turns not marked (false rejects), with the label
// rule and with the per-segment rule alone.
func TestMeasureLabelRuleExtraVoices(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	ex := speaker.NewBuiltin()
	guests := extraGuests(t)
	for _, snr := range []float64{0, 20} {
		for _, rule := range []struct {
			name    string
			promote float64
		}{{"per segment", 0}, {"label 0.083", 0.083}, {"label 0.087", 0.087}, {"label 0.090", 0.090}} {
			restore := speaker.SetLabelRule(rule.promote, 2, 8)
			fa, faLabels, fr, gTurns, oTurns, sessions := 0, 0, 0, 0, 0, 0
			nearest, nearestWho := 2.0, "" // a guest's turns pooled, by the means
			var detail []string
			for owner := range realVoices {
				prof, err := ex.Embed(context.Background(), realProfile(t, owner))
				if err != nil {
					t.Fatal(err)
				}
				for name, clips := range guests {
					var pcm []int16
					var turns []realTurn // voice 0 the owner, 1 the guest
					add := func(v int, p []int16) {
						pcm = append(pcm, make([]int16, 2*16000)...)
						turns = append(turns, realTurn{voice: v, start: len(pcm), end: len(pcm) + len(p)})
						pcm = append(pcm, p...)
					}
					for k := range max(4, len(clips)) {
						if k < 4 {
							add(0, prompt(t, realVoices[owner].dir, turnPrompts[(k+owner)%len(turnPrompts)]))
						}
						if k < len(clips) {
							add(1, clips[k])
						}
					}
					pcm = append(pcm, make([]int16, 2*16000)...)
					if snr > 0 {
						pcm = withWhiteNoise(t, pcm, turns, snr)
					}
					tk := speaker.NewTracker(ex, prof)
					pool := make([]float32, 19)
					labels, owners := make([]int, len(turns)), make([]bool, len(turns))
					for i, tr := range turns {
						e, err := ex.Embed(context.Background(), pcm[tr.start:tr.end])
						if err != nil {
							labels[i] = -1
							continue
						}
						labels[i], owners[i] = tk.Add(e, float64(tr.end-tr.start)/16000)
						if tr.voice == 1 {
							for c, x := range ex.MeansOf(e) {
								pool[c] += x
							}
						}
						for _, m := range tk.Moves() {
							labels[m.Segment], owners[m.Segment] = m.Label, m.Owner
						}
					}
					if d := speaker.Distance(ex.MeansOf(prof), pool); d < nearest {
						nearest, nearestWho = d, realVoices[owner].name+"+"+name
					}
					guestLabels := map[int]bool{}
					sfa := 0
					for i, tr := range turns {
						if labels[i] < 0 {
							continue
						}
						if tr.voice == 1 {
							gTurns++
							if owners[i] {
								fa++
								sfa++
								guestLabels[labels[i]] = true
							}
						} else {
							oTurns++
							if !owners[i] {
								fr++
							}
						}
					}
					faLabels += len(guestLabels)
					sessions++
					if sfa > 0 {
						detail = append(detail, realVoices[owner].name+"+"+name+" "+itoa(sfa))
					}
				}
			}
			restore()
			t.Logf("snr %2.0f %-12s: %d sessions; guest turns marked is_user %d of %d (labels %d; %v); owner turns not marked %d of %d; nearest guest's pooled means %.3f (%s)",
				snr, rule.name, sessions, fa, gTurns, faLabels, detail, fr, oTurns, nearest, nearestWho)
		}
	}
}
