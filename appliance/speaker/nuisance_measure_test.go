package speaker_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestMeasureNuisance (HEARTH_SPEAKER_MEASURE=1) prints, for nuisance
// directions learnt from the training voices (nuisance_test.go; never the
// recorded voices measured here) and projected out of the built-in
// extractor's embedding, the equal error rates of every owner's profile
// against single recorded turns (ten a voice, clean and at 20 dB), of the
// synthetic pairs, and for the hard projections the live figures: what
// docs/benchmarks.md, "Speakers, sixth round", records.
func TestMeasureNuisance(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	type cfg struct {
		k    int
		soft float64
	}
	for _, set := range []struct {
		name   string
		o      nuisanceOptions
		centre float64 // how much of the training mean is subtracted
		cfgs   []cfg
	}{
		{"all conditions", nuisanceOptions{}, 0, []cfg{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {6, 0}, {8, 0}, {12, 0}, {0, 0.001}, {0, 0.01}, {0, 0.03}, {0, 0.1}}},
		{"white noise only", nuisanceOptions{conds: "white"}, 0, []cfg{{1, 0}, {2, 0}, {3, 0}, {0, 0.01}, {0, 0.1}}},
		{"all conditions and dull voices", nuisanceOptions{dull: true}, 0, []cfg{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {0, 0.03}, {0, 0.1}}},
		{"within-speaker (WCCN)", nuisanceOptions{bySpeaker: true}, 0, []cfg{{1, 0}, {2, 0}, {4, 0}, {0, 0.003}, {0, 0.01}, {0, 0.03}, {0, 0.1}}},
		{"all conditions, centred on the training mean", nuisanceOptions{}, 1, []cfg{{0, 0}, {1, 0}, {2, 0}, {4, 0}, {0, 0.01}, {0, 0.03}}},
		{"within-speaker, centred", nuisanceOptions{bySpeaker: true}, 1, []cfg{{0, 0.003}, {0, 0.01}, {0, 0.03}, {0, 0.1}}},
		{"a quarter of the training mean off", nuisanceOptions{}, 0.25, []cfg{{0, 0}, {1, 0}}},
		{"half the training mean off", nuisanceOptions{}, 0.5, []cfg{{0, 0}, {1, 0}}},
		{"three quarters of the training mean off", nuisanceOptions{}, 0.75, []cfg{{0, 0}, {1, 0}}},
		{"0.8 of the training mean off", nuisanceOptions{}, 0.8, []cfg{{0, 0}}},
		{"0.85 of the training mean off", nuisanceOptions{}, 0.85, []cfg{{0, 0}}},
		{"0.9 of the training mean off", nuisanceOptions{}, 0.9, []cfg{{0, 0}}},
		{"0.95 of the training mean off", nuisanceOptions{}, 0.95, []cfg{{0, 0}}},
	} {
		if f := os.Getenv("HEARTH_NUISANCE_SET"); f != "" && !strings.Contains(set.name, f) {
			continue
		}
		shares, basis, mean := nuisanceDirections(t, set.o)
		if set.centre == 0 {
			mean = nil
		}
		for i := range mean {
			mean[i] *= set.centre
		}
		t.Logf("%s: shares of the nuisance scatter %.3f", set.name, shares[:8])
		for _, c := range set.cfgs {
			ex := napExtractor{Builtin: speaker.NewBuiltin(), shares: shares, basis: basis, k: c.k, soft: c.soft, centre: mean}
			var sb strings.Builder
			for _, snr := range []float64{0, 20} {
				var allG, allI []float64
				var per []string
				for _, voices := range realStreams {
					pcm, turns := realConversation(t, voices, 10, snr)
					embs := embedTurns(t, ex, pcm, turns)
					for _, owner := range voices {
						if voices[0] == 1 && owner != 1 {
							continue
						}
						prof, err := ex.Embed(context.Background(), realProfile(t, owner))
						if err != nil {
							t.Fatal(err)
						}
						var g, im []float64
						for i, tr := range turns {
							d := speaker.Distance(prof, embs[i])
							if realVoices[tr.voice].person == realVoices[owner].person {
								g = append(g, d)
							} else {
								im = append(im, d)
							}
						}
						allG, allI = append(allG, g...), append(allI, im...)
						eer, _ := equalErrorRate(g, im)
						per = append(per, fmt.Sprintf("%s %.1f", realVoices[owner].name, 100*eer))
					}
				}
				eer, th := equalErrorRate(allG, allI)
				fmt.Fprintf(&sb, " | snr %2.0f: all %.1f %% at %.3f (%s)", snr, 100*eer, th, strings.Join(per, ", "))
			}
			clean, _ := verificationWith(t, ex, 0)
			noise, _ := verificationWith(t, ex, 20)
			t.Logf("%s, k %d soft %.3f%s | synthetic pairs %.1f / %.1f %%", set.name, c.k, c.soft, sb.String(), 100*clean, 100*noise)
			if c.soft == 0 && c.k <= 3 && set.o == (nuisanceOptions{}) && set.centre == 0 {
				for _, halves := range []bool{false, true} {
					for _, snr := range []float64{0, 20} {
						right, total, juneRight, juneTotal, merges := 0, 0, 0, 0, 0
						for _, voices := range realStreams {
							pcm, turns := realConversation(t, voices, 4, snr)
							if halves {
								turns = halved(turns)
							}
							embs := embedTurns(t, ex, pcm, turns)
							for _, owner := range voices {
								r := liveSession(t, ex, pcm, turns, embs, owner)
								right, total, merges = right+r.right, total+r.turns, merges+len(r.merged)
								if realVoices[owner].name == "fr" {
									juneRight, juneTotal = juneRight+r.right, juneTotal+r.turns
								}
							}
						}
						t.Logf("  live, halves %v, snr %2.0f: is_user %.1f %% (June as owner %.1f %%), %d labels took two people",
							halves, snr, 100*float64(right)/float64(total), 100*float64(juneRight)/float64(juneTotal), merges)
					}
				}
			}
		}
	}
}

// halved is every turn cut in two, as TestLiveRealVoicesCutShort hears them.
func halved(turns []realTurn) []realTurn {
	var hs []realTurn
	for _, tr := range turns {
		mid := (tr.start + tr.end) / 2
		hs = append(hs, realTurn{tr.voice, tr.start, mid}, realTurn{tr.voice, mid, tr.end})
	}
	return hs
}

// TestMeasureLabelDecision (HEARTH_SPEAKER_MEASURE=1) measures the fifth
// round's lead: the owner decided per live label, on the pooled cepstral
// means (the first 19 statistics, before projection) of the label's
// segments against the profile's, instead of per segment. For the tracker
// on the embedding without and with the nuisance projection, whole turns
// and halves, clean and at 20 dB: the pooled distances of the owner's own
// labels and of everyone else's, and is_user per segment with the rule at
// a few thresholds.
func TestMeasureLabelDecision(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	const means = 19
	ths := []float64{0.06, 0.07, 0.08, 0.087, 0.095, 0.11}
	shares, basis, _ := nuisanceDirections(t, nuisanceOptions{})
	for _, k := range []int{0, 1} {
		ex := napExtractor{Builtin: speaker.NewBuiltin(), shares: shares, basis: basis, k: k}
		plain := speaker.NewBuiltin()
		for _, halves := range []bool{false, true} {
			for _, snr := range []float64{0, 20} {
				ownMax, otherMin := 0.0, 2.0
				right := make([]int, len(ths))
				trackerRight, total := 0, 0
				var juneRight = make([]int, len(ths))
				juneTotal, juneTracker := 0, 0
				for _, voices := range realStreams {
					pcm, turns := realConversation(t, voices, 4, snr)
					if halves {
						turns = halved(turns)
					}
					embs := embedTurns(t, ex, pcm, turns)
					raw := make([][]float32, len(turns))
					for i, tr := range turns {
						raw[i], _ = plain.Embed(context.Background(), pcm[tr.start:tr.end])
					}
					for _, owner := range voices {
						prof, _ := ex.Embed(context.Background(), realProfile(t, owner))
						profRaw, _ := plain.Embed(context.Background(), realProfile(t, owner))
						tk := speaker.NewTracker(ex, prof)
						labels, owners := make([]int, len(turns)), make([]bool, len(turns))
						for i, tr := range turns {
							labels[i], owners[i] = tk.Add(embs[i], float64(tr.end-tr.start)/16000)
							for _, m := range tk.Moves() {
								labels[m.Segment], owners[m.Segment] = m.Label, m.Owner
							}
						}
						sums := map[int][]float32{}
						count := map[int]map[string]int{}
						for i, tr := range turns {
							l := labels[i]
							if sums[l] == nil {
								sums[l] = make([]float32, means)
								count[l] = map[string]int{}
							}
							for c := range means {
								sums[l][c] += raw[i][c]
							}
							count[l][realVoices[tr.voice].person]++
						}
						dist := map[int]float64{}
						for l, s := range sums {
							dist[l] = speaker.Distance(profRaw[:means], s)
							most, who := 0, ""
							for p, n := range count[l] {
								if n > most {
									most, who = n, p
								}
							}
							if who == realVoices[owner].person {
								ownMax = max(ownMax, dist[l])
							} else {
								otherMin = min(otherMin, dist[l])
							}
						}
						for i, tr := range turns {
							mine := realVoices[tr.voice].person == realVoices[owner].person
							total++
							if owners[i] == mine {
								trackerRight++
							}
							if realVoices[owner].name == "fr" {
								juneTotal++
								if owners[i] == mine {
									juneTracker++
								}
							}
							for j, th := range ths {
								if (dist[labels[i]] < th) == mine {
									right[j]++
									if realVoices[owner].name == "fr" {
										juneRight[j]++
									}
								}
							}
						}
					}
				}
				var sb strings.Builder
				for j, th := range ths {
					fmt.Fprintf(&sb, " %.3f: %.1f %% (June %.1f %%);", th, 100*float64(right[j])/float64(total), 100*float64(juneRight[j])/float64(juneTotal))
				}
				t.Logf("k %d halves %v snr %2.0f: own labels up to %.3f, others from %.3f; tracker %.1f %% (June %.1f %%); label rule%s",
					k, halves, snr, ownMax, otherMin, 100*float64(trackerRight)/float64(total), 100*float64(juneTracker)/float64(juneTotal), sb.String())
			}
		}
	}
}

// TestMeasureLabelMeansHeldOut (HEARTH_SPEAKER_MEASURE=1) checks the label
// rule's threshold on voices it was not read from: every training voice of
// nuisance_test.go and the synthetic test set's five as owner, a profile of
// three sentences (in quiet) against the other three sentences of each
// voice pooled as one label (clean, and each sentence in white noise at
// 20 dB), by the cepstral means alone: the owner's own pooled distance and
// the nearest other voice's, and how many pairs each threshold gets wrong,
// and of the other voices it takes, how many the per-segment rule (all 57
// numbers within the segment threshold) would take a sentence of too.
func TestMeasureLabelMeansHeldOut(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	const means = 19
	ex := speaker.NewBuiltin()
	all := append(append([]string(nil), nuisanceVoices...), "espeak-f", "espeak-m")
	embed := func(pcm []int16) []float32 {
		e, err := ex.Embed(context.Background(), pcm)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	ths := []float64{0.06, 0.07, 0.08, 0.087, 0.095}
	for _, snr := range []float64{0, 20} {
		profiles := map[string][]float32{}
		labels := map[string][]float32{}
		sentences := map[string][][]float32{} // all 57 numbers, each sentence
		for _, v := range all {
			var prof []int16
			for _, s := range nuisanceSentences[:3] {
				prof = append(prof, say(t, v, s)...)
			}
			profiles[v] = embed(prof)
			sum := make([]float32, means)
			for i, s := range nuisanceSentences[3:] {
				pcm := say(t, v, s)
				if snr > 0 {
					pcm = withNoise(pcm, whiteNoise(len(pcm), uint64(100+i)), snr)
				}
				e := embed(pcm)
				sentences[v] = append(sentences[v], e)
				for c, x := range e[:means] {
					sum[c] += x
				}
			}
			labels[v] = sum
		}
		// byTurn: another voice with a sentence the tracker's own rule
		// (all 57 numbers, within the segment threshold of the profile)
		// would take as the owner's too.
		byTurn := func(o, v string) bool {
			for _, e := range sentences[v] {
				if speaker.Distance(profiles[o], e) < ex.SegmentThreshold(4) {
					return true
				}
			}
			return false
		}
		alsoByTurn := make([]int, len(ths))
		falseReject, falseAccept := make([]int, len(ths)), make([]int, len(ths))
		pairs := 0
		for _, o := range all {
			own := speaker.Distance(profiles[o][:means], labels[o])
			nearest, who := 2.0, ""
			for _, v := range all {
				if v == o {
					continue
				}
				pairs++
				d := speaker.Distance(profiles[o][:means], labels[v])
				if d < nearest {
					nearest, who = d, v
				}
				turn := byTurn(o, v)
				for j, th := range ths {
					if d < th {
						falseAccept[j]++
						if turn {
							alsoByTurn[j]++
						}
					}
				}
			}
			for j, th := range ths {
				if own >= th {
					falseReject[j]++
				}
			}
			t.Logf("snr %2.0f owner %-24s own label %.3f, nearest other %.3f (%s)", snr, o, own, nearest, who)
		}
		for j, th := range ths {
			t.Logf("snr %2.0f threshold %.3f: %d of %d owners' own labels refused, %d of %d other voices' labels taken (%d of them with a sentence the per-segment rule takes too)",
				snr, th, falseReject[j], len(all), falseAccept[j], pairs, alsoByTurn[j])
		}
	}
}
