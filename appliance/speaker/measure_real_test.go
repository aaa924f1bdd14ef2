package speaker_test

import (
	"context"
	"os"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestMeasureRealVoices (HEARTH_SPEAKER_MEASURE=1) prints the figures
// docs/speakers.md records on the recorded voices: is_user per turn with
// the live labelling hearth used before speaker.Tracker (a segment joined
// the nearest voice within the profile threshold, 0.046, and a voice was
// judged once, on up to 10 s of its speech as soon as it had 2 s), and
// offline diarization (speaker.Cluster): speakers found and confusion.
func TestMeasureRealVoices(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	ex := speaker.NewBuiltin()
	ctx := context.Background()
	for _, snr := range []float64{0, 20} {
		right, total := 0, 0
		for _, voices := range realStreams {
			pcm, turns := realConversation(t, voices, 4, snr)
			embs := embedTurns(t, ex, pcm, turns)
			for _, owner := range voices {
				prof, _ := ex.Embed(ctx, realProfile(t, owner))
				r := 0
				var sums [][]float64
				var spans [][]realTurn
				var speech []float64
				var decided []int // -1 undecided, 0 guest, 1 owner
				labels := make([]int, len(turns))
				for i, tr := range turns {
					best, bd := -1, ex.Threshold()
					for l, s := range sums {
						c := make([]float32, len(s))
						for k, v := range s {
							c[k] = float32(v)
						}
						if d := speaker.Distance(c, embs[i]); d < bd {
							best, bd = l, d
						}
					}
					if best < 0 {
						sums = append(sums, make([]float64, len(embs[i])))
						spans, speech, decided = append(spans, nil), append(speech, 0), append(decided, -1)
						best = len(sums) - 1
					}
					secs := float64(tr.end-tr.start) / 16000
					for k, v := range embs[i] {
						sums[best][k] += secs * float64(v)
					}
					spans[best] = append(spans[best], tr)
					speech[best] += secs
					labels[i] = best
					if decided[best] < 0 && speech[best] >= 2 {
						var p []int16
						for _, sp := range spans[best] {
							p = append(p, pcm[sp.start:sp.end]...)
						}
						p = p[:min(len(p), 10*16000)]
						e, _ := ex.Embed(ctx, p)
						decided[best] = 0
						if speaker.Distance(prof, e) < ex.Threshold() {
							decided[best] = 1
						}
					}
				}
				for i, tr := range turns {
					if (decided[labels[i]] == 1) == (realVoices[tr.voice].person == realVoices[owner].person) {
						r++
					}
				}
				t.Logf("snr %2.0f before, owner %s: is_user %d/%d, %d labels", snr, realVoices[owner].name, r, len(turns), len(sums))
				right, total = right+r, total+len(turns)
			}
			w := make([]float64, len(turns))
			truth := make([]int, len(turns))
			idx := map[int]int{}
			for i, tr := range turns {
				w[i] = float64(tr.end-tr.start) / 16000
				if _, ok := idx[tr.voice]; !ok {
					idx[tr.voice] = len(idx)
				}
				truth[i] = idx[tr.voice]
			}
			labels := speaker.Cluster(embs, w, nil, ex.Threshold())
			der, found := confusion(labels, truth, w)
			t.Logf("snr %2.0f offline, voices %v: %d speakers found of %d, confusion %.1f %%", snr, voices, found, len(voices), 100*der)
		}
		t.Logf("snr %2.0f before: is_user right for %.1f %% of %d turns", snr, 100*float64(right)/float64(total), total)
	}
}

// confusion is the share of speech given to the wrong speaker under the
// best mapping of found labels to true ones, and the number found.
func confusion(labels []int, truth []int, weights []float64) (der float64, found int) {
	for _, l := range labels {
		found = max(found, l+1)
	}
	nt := 0
	for _, x := range truth {
		nt = max(nt, x+1)
	}
	best := 0.0
	var total float64
	for _, w := range weights {
		total += w
	}
	var try func(m map[int]int, used map[int]bool, l int)
	try = func(m map[int]int, used map[int]bool, l int) {
		if l == found {
			var right float64
			for i := range labels {
				if t, ok := m[labels[i]]; ok && t == truth[i] {
					right += weights[i]
				}
			}
			best = max(best, right)
			return
		}
		try(m, used, l+1)
		for s := range nt {
			if !used[s] {
				m[l], used[s] = s, true
				try(m, used, l+1)
				delete(m, l)
				used[s] = false
			}
		}
	}
	try(map[int]int{}, map[int]bool{}, 0)
	return 1 - best/total, found
}
