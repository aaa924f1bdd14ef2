package speaker_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestDiarizationRealVoices: offline diarization (speaker.Cluster, the
// turns' boundaries given) of recorded people taking four turns each,
// clean and with 20 dB of white noise over the stream: the number of
// speakers must be found and at most 10 % of the speech given to the
// wrong one. Measured: the right count everywhere, 0 % confusion except
// 6.3 % for three people with noise (docs/speakers.md). One person alone
// is not in it: four turns of Carlo or of the Russian voice split in two
// (docs/speakers.md).
func TestDiarizationRealVoices(t *testing.T) {
	ex := speaker.NewBuiltin()
	for _, snr := range []float64{0, 20} {
		for _, voices := range [][]int{{0, 2, 3, 4}, {1, 2, 3, 4}, {0, 2, 3}, {2, 4}, {0, 3}, {3, 4}, {1, 3}} {
			pcm, turns := realConversation(t, voices, 4, snr)
			der, found := offline(ex, turns, embedTurns(t, ex, pcm, turns))
			t.Logf("snr %2.0f, voices %v: %d speakers found of %d, confusion %.1f %%", snr, voices, found, len(voices), 100*der)
			if found != len(voices) || der > 0.10 {
				t.Errorf("snr %.0f, voices %v: %d speakers found of %d, confusion %.1f %% (floor 10 %%)", snr, voices, found, len(voices), 100*der)
			}
		}
	}
}

// offline clusters a stream's turns (speaker.Cluster, the turns'
// boundaries given): the confusion and the number of speakers found.
func offline(ex speaker.Extractor, turns []realTurn, embs [][]float32) (der float64, found int) {
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
	return confusion(speaker.Cluster(embs, w, nil, ex.Threshold()), truth, w)
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

// BenchmarkCluster is the cost of clustering a long recording's segments:
// 300 embeddings of 57 numbers from six voices (random, around six
// centres).
func BenchmarkCluster(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	centres := make([][]float32, 6)
	for c := range centres {
		centres[c] = make([]float32, 57)
		for k := range centres[c] {
			centres[c][k] = float32(r.NormFloat64())
		}
	}
	embs := make([][]float32, 300)
	weights := make([]float64, len(embs))
	for i := range embs {
		embs[i] = make([]float32, 57)
		for k := range embs[i] {
			embs[i][k] = centres[i%6][k] + 0.3*float32(r.NormFloat64())
		}
		weights[i] = 3
	}
	for b.Loop() {
		speaker.Cluster(embs, weights, nil, 0.046)
	}
}
