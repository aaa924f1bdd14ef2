package speaker_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestMeasureLabelRule (HEARTH_SPEAKER_MEASURE=1) measures the tracker's
// label-level owner decision live, as TestLiveRealVoices and
// TestLiveRealVoicesCutShort run it: is_user per turn over the 8
// sessions, June's, and labels holding two people, for the promotion
// line and how much a label pools before its means decide (a line for
// giving the owner's label back by its means was measured the same way
// and not kept: docs/benchmarks.md).
func TestMeasureLabelRule(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	type rule struct {
		promote float64
		minSegs int
		minSecs float64
	}
	rules := []rule{{0, 2, 8}}
	for _, p := range []float64{0.07, 0.08, 0.083, 0.087, 0.09, 0.095} {
		rules = append(rules, rule{p, 2, 8})
	}
	for _, n := range []int{1, 2, 3} {
		for _, s := range []float64{4, 6, 8, 12, 1000} {
			rules = append(rules, rule{0.087, n, s})
		}
	}
	ex := speaker.NewBuiltin()
	type cond struct {
		halves bool
		snr    float64
	}
	type stream struct {
		turns []realTurn
		embs  [][]float32
		pcm   []int16
	}
	streams := map[cond][]stream{}
	for _, c := range []cond{{false, 0}, {false, 20}, {true, 0}, {true, 20}} {
		for _, voices := range realStreams {
			pcm, turns := realConversation(t, voices, 4, c.snr)
			if c.halves {
				turns = halved(turns)
			}
			streams[c] = append(streams[c], stream{turns, embedTurns(t, ex, pcm, turns), pcm})
		}
	}
	for _, r := range rules {
		restore := speaker.SetLabelRule(r.promote, r.minSegs, r.minSecs)
		line := ""
		for _, c := range []cond{{false, 0}, {false, 20}, {true, 0}, {true, 20}} {
			right, total, juneRight, juneTotal, merges, worst := 0, 0, 0, 0, 0, 1.0
			for si, s := range streams[c] {
				for _, owner := range realStreams[si] {
					res := liveSession(t, ex, s.pcm, s.turns, s.embs, owner)
					right, total, merges = right+res.right, total+res.turns, merges+len(res.merged)
					if realVoices[owner].name == "fr" {
						juneRight, juneTotal = juneRight+res.right, juneTotal+res.turns
					}
					worst = min(worst, float64(res.right)/float64(res.turns))
				}
			}
			line += " | " + pct(right, total) + " (June " + pct(juneRight, juneTotal) + ", worst owner " + pct(int(1000*worst), 1000) + ", merged " + itoa(merges) + ")"
		}
		restore()
		t.Logf("promote %.3f min %d segs / %4.0f s: whole clean, whole 20 dB, halves clean, halves 20 dB%s", r.promote, r.minSegs, r.minSecs, line)
	}
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + " %"
}
