package speaker_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestMeasureRealVoices (HEARTH_SPEAKER_MEASURE=1) prints the figures
// docs/speakers.md records on the recorded voices: is_user per turn with
// the live labelling hearth used before speaker.Tracker (a segment joined
// the nearest voice within the profile threshold, 0.046, and a voice was
// judged once, on up to 10 s of its speech as soon as it had 2 s), and
// offline diarization (speaker.Cluster) of one voice alone and of the
// four-person streams: speakers found and confusion. Then each owner's
// profile against single turns (measureProfileDistances).
func TestMeasureRealVoices(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	ex := speaker.NewBuiltin()
	ctx := context.Background()
	measureProfileDistances(t, ex)
	measureLabelDistances(t, ex)
	for _, snr := range []float64{0, 20} {
		for _, voices := range [][]int{{0}, {1}, {2}, {3}, {4}} {
			pcm, turns := realConversation(t, voices, 4, snr)
			embs := embedTurns(t, ex, pcm, turns)
			der, found := offline(ex, turns, embs)
			t.Logf("snr %2.0f offline, voices %v: %d speakers found of %d, confusion %.1f %%", snr, voices, found, len(voices), 100*der)
		}
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
			der, found := offline(ex, turns, embs)
			t.Logf("snr %2.0f offline, voices %v: %d speakers found of %d, confusion %.1f %%", snr, voices, found, len(voices), 100*der)
		}
		t.Logf("snr %2.0f before: is_user right for %.1f %% of %d turns", snr, 100*float64(right)/float64(total), total)
	}
}

// measureProfileDistances prints, for every voice as owner, the distances
// from its profile (in quiet) to single turns of each voice, ten turns per
// voice (five prompts, each twice, with fresh noise), and the equal error
// rate between the owner's turns and the others': what any threshold on
// one turn against the profile can do for that owner.
func measureProfileDistances(t *testing.T, ex speaker.Extractor) {
	for _, snr := range []float64{0, 20} {
		var allG, allI []float64
		for _, voices := range realStreams {
			pcm, turns := realConversation(t, voices, 10, snr)
			embs := embedTurns(t, ex, pcm, turns)
			for _, owner := range voices {
				if voices[0] == 1 && owner != 1 { // the others were owners in the first stream
					continue
				}
				prof, err := ex.Embed(context.Background(), realProfile(t, owner))
				if err != nil {
					t.Fatal(err)
				}
				heard := map[int][]float64{}
				var g, im []float64
				for i, tr := range turns {
					d := speaker.Distance(prof, embs[i])
					heard[tr.voice] = append(heard[tr.voice], d)
					if realVoices[tr.voice].person == realVoices[owner].person {
						g = append(g, d)
					} else {
						im = append(im, d)
					}
				}
				allG, allI = append(allG, g...), append(allI, im...)
				eer, th := equalErrorRate(g, im)
				var sb strings.Builder
				for _, v := range voices {
					ds := heard[v]
					sort.Float64s(ds)
					fmt.Fprintf(&sb, " %s %.3f-%.3f", realVoices[v].name, ds[0], ds[len(ds)-1])
				}
				t.Logf("snr %2.0f profile of %s against single turns:%s; equal error rate %.1f %% at %.3f",
					snr, realVoices[owner].name, sb.String(), 100*eer, th)
			}
		}
		eer, th := equalErrorRate(allG, allI)
		t.Logf("snr %2.0f every owner: equal error rate %.1f %% at %.3f", snr, 100*eer, th)
	}
}

// measureLabelDistances prints, for every owner's live session (the
// streams of TestLiveRealVoices), each label the tracker leaves and how
// far the sum of its turns' embeddings lies from the owner's profile,
// with all 57 numbers and with the cepstral means alone (the first 19):
// whether deciding the owner per label, on pooled turns, could tell June
// from the Russian voice where single turns cannot (docs/benchmarks.md,
// "Speakers, fifth round").
func measureLabelDistances(t *testing.T, ex speaker.Extractor) {
	const means = 19
	for _, snr := range []float64{0, 20} {
		for _, voices := range realStreams {
			pcm, turns := realConversation(t, voices, 4, snr)
			embs := embedTurns(t, ex, pcm, turns)
			for _, owner := range voices {
				prof, err := ex.Embed(context.Background(), realProfile(t, owner))
				if err != nil {
					t.Fatal(err)
				}
				tk := speaker.NewTracker(ex, prof)
				labels, owners := make([]int, len(turns)), make([]bool, len(turns))
				for i, tr := range turns {
					labels[i], owners[i] = tk.Add(embs[i], float64(tr.end-tr.start)/16000)
					for _, m := range tk.Moves() {
						labels[m.Segment], owners[m.Segment] = m.Label, m.Owner
					}
				}
				sums := map[int][]float32{}
				who := map[int]string{}
				var order []int
				for i, tr := range turns {
					l := labels[i]
					if sums[l] == nil {
						sums[l] = make([]float32, len(embs[i]))
						order = append(order, l)
					}
					for k, v := range embs[i] {
						sums[l][k] += v
					}
					who[l] += realVoices[tr.voice].name[:1]
					if owners[i] {
						who[l] += "*"
					}
				}
				sort.Ints(order)
				var sb strings.Builder
				for _, l := range order {
					fmt.Fprintf(&sb, " %d %s %.3f (means %.3f);", l, who[l],
						speaker.Distance(prof, sums[l]), speaker.Distance(prof[:means], sums[l][:means]))
				}
				t.Logf("snr %2.0f owner %s, labels pooled against the profile (* is_user):%s", snr, realVoices[owner].name, sb.String())
			}
		}
	}
}
