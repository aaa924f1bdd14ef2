package pocketsphinx_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestLiveHearsTheBatchSidesUtterances: a live stream decodes the
// utterances a recording heard whole is cut into, not those with the
// rest of the pause that ended them. In white noise 20 dB below the
// speaker the 140 ms of noise more changed words (live AAC heard 61.5 %
// of words wrong where the same utterances cut as a recording's gave
// 56.4 %); here the same audio must give the same words either way.
func TestLiveHearsTheBatchSidesUtterances(t *testing.T) {
	r := route(t, pocketsphinx.Config{})
	pcm, _ := allison(t, 1.0, allisonPrompts[4], allisonPrompts[9], allisonPrompts[5])
	pcm = withWhiteNoise(pcm, 20)
	tr, err := r.Transcribe(context.Background(), pcm, stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := live(t, r, pcm); got != tr.Text {
		t.Errorf("live heard %q, the batch side %q in the same audio", got, tr.Text)
	}
}

// withWhiteNoise adds white noise db below pcm's speech (its loudest
// second's RMS), from a fixed seed.
func withWhiteNoise(pcm []int16, db float64) []int16 {
	loudest := 0.0
	for off := 0; off+16000 <= len(pcm); off += 8000 {
		var sum float64
		for _, v := range pcm[off : off+16000] {
			sum += float64(v) * float64(v)
		}
		loudest = max(loudest, math.Sqrt(sum/16000))
	}
	sd := loudest / math.Pow(10, db/20)
	rng := rand.New(rand.NewPCG(33, 20))
	out := make([]int16, len(pcm))
	for i, v := range pcm {
		out[i] = int16(max(min(float64(v)+rng.NormFloat64()*sd, math.MaxInt16), math.MinInt16))
	}
	return out
}
