package speaker_test

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// equalErrorRate is the rate at which false accepts equal false rejects
// over genuine (same voice) and impostor (different voices) distances,
// and the threshold where they meet.
func equalErrorRate(genuine, impostor []float64) (eer, threshold float64) {
	cands := append(append([]float64(nil), genuine...), impostor...)
	sort.Float64s(cands)
	best := 2.0
	for _, th := range cands {
		var fr, fa int
		for _, d := range genuine {
			if d > th {
				fr++
			}
		}
		for _, d := range impostor {
			if d <= th {
				fa++
			}
		}
		frr, far := float64(fr)/float64(len(genuine)), float64(fa)/float64(len(impostor))
		if gap := abs(frr - far); gap < best {
			best, eer, threshold = gap, (frr+far)/2, th
		}
	}
	return eer, threshold
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// noisy adds white noise at snr dB below the speech's level (a
// deterministic generator, so the figures repeat).
func noisy(pcm []int16, snr float64) []int16 {
	var p float64
	for _, v := range pcm {
		p += float64(v) * float64(v)
	}
	sd := math.Sqrt(p/float64(len(pcm))) / math.Pow(10, snr/20)
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]int16, len(pcm))
	for i, v := range pcm {
		x := float64(v) + r.NormFloat64()*sd
		out[i] = int16(max(-32768, min(32767, x)))
	}
	return out
}

// TestBuiltinTellsVoicesApart measures owner verification on the test set:
// every pair of sentences, same voice (genuine) or not (impostor), clean
// and with noise at 20 dB SNR on one side. The floors are set just above
// what was measured (docs/speakers.md).
func TestBuiltinTellsVoicesApart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		snr   float64 // 0: clean
		floor float64
	}{{"clean", 0, 0.04}, {"noise 20 dB", 20, 0.07}} {
		t.Run(tc.name, func(t *testing.T) {
			eer, th := verification(t, tc.snr)
			t.Logf("equal error rate %.1f %% at distance %.3f", 100*eer, th)
			if eer > tc.floor {
				t.Fatalf("equal error rate %.1f %%, floor %.0f %%", 100*eer, 100*tc.floor)
			}
		})
	}
}

func verification(t *testing.T, snr float64) (eer, threshold float64) {
	return verificationWith(t, speaker.NewBuiltin(), snr)
}

func verificationWith(t *testing.T, ex speaker.Extractor, snr float64) (eer, threshold float64) {
	emb := map[string][][]float32{}
	for _, v := range voices {
		for _, s := range sentences {
			pcm := say(t, v, s)
			if snr > 0 && len(emb[v])%2 == 1 { // every other sentence noisy
				pcm = noisy(pcm, snr)
			}
			e, err := ex.Embed(context.Background(), pcm)
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			emb[v] = append(emb[v], e)
		}
	}
	var genuine, impostor []float64
	for i, a := range voices {
		for j, b := range voices {
			if j < i {
				continue
			}
			var sum float64
			n := 0
			for x := range emb[a] {
				for y := range emb[b] {
					if a == b && y <= x {
						continue
					}
					d := speaker.Distance(emb[a][x], emb[b][y])
					sum += d
					n++
					if a == b {
						genuine = append(genuine, d)
					} else {
						impostor = append(impostor, d)
					}
				}
			}
			t.Logf("%-8s %-8s mean distance %.3f", a, b, sum/float64(n))
		}
	}
	return equalErrorRate(genuine, impostor)
}

// BenchmarkBuiltinEmbed is the extraction cost per second of audio.
func BenchmarkBuiltinEmbed(b *testing.B) {
	pcm := say(b, "slt", sentences[0])
	ex := speaker.NewBuiltin()
	for b.Loop() {
		if _, err := ex.Embed(context.Background(), pcm); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/(float64(len(pcm))/16000), "ms/audio-s")
}

// TestThresholdSeparatesTheOwner is is_user accuracy: an embedding of
// three sentences (a profile, recorded in quiet) against each voice's
// other sentences, clean and with 20 dB of noise, owner when within the
// threshold. The two male diphone voices (kal, ked, one synthesizer) are
// the hard pair. Measured: 98.7 % clean, 97.3 % with noise (docs/speakers.md
// has the sweep over thresholds).
func TestThresholdSeparatesTheOwner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		snr   float64
		floor float64
	}{{"clean", 0, 0.95}, {"20 dB noise", 20, 0.95}} {
		t.Run(tc.name, func(t *testing.T) {
			acc := isUserAccuracy(t, tc.snr)
			t.Logf("is_user accuracy %.1f %%", 100*acc)
			if acc < tc.floor {
				t.Fatalf("is_user accuracy %.1f %%, floor %.0f %%", 100*acc, 100*tc.floor)
			}
		})
	}
}

func isUserAccuracy(t *testing.T, snr float64) float64 {
	ex := speaker.NewBuiltin()
	right, total := 0, 0
	for _, owner := range voices {
		var profile []int16
		for _, s := range sentences[:3] {
			profile = append(profile, say(t, owner, s)...)
		}
		p, err := ex.Embed(context.Background(), profile)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range voices {
			for _, s := range sentences[3:] {
				pcm := say(t, v, s)
				if snr > 0 {
					pcm = noisy(pcm, snr)
				}
				e, err := ex.Embed(context.Background(), pcm)
				if err != nil {
					t.Fatal(err)
				}
				d := speaker.Distance(p, e)
				total++
				if same := d < ex.Threshold(); same == (v == owner) {
					right++
				} else {
					t.Logf("profile of %s against %s %q: distance %.3f (threshold %.3f)", owner, v, s, d, ex.Threshold())
				}
			}
		}
	}
	return float64(right) / float64(total)
}
