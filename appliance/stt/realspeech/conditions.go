package realspeech

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Conditions are what a wearable's microphone meets, by name: clean;
// Gaussian white noise 20 and 10 dB below the speech; babble (the four
// other asterisk voices talking at once) 20 and 10 dB below it; the
// speech at -45 dBFS, a quiet or distant microphone.
var Conditions = []string{"clean", "white20", "white10", "babble20", "babble10", "quiet45"}

// babblePrompts is how many prompts of each other voice the babble takes
// (looped to the stream's length).
const babblePrompts = 30

var (
	babbleOnce sync.Once
	babblers   [][]int16
	babbleErr  error
)

// loadBabblers is each of the other voices' prompts joined: read once
// per process (a hundred and twenty ffmpeg runs).
func loadBabblers(ctx context.Context) ([][]int16, error) {
	var talkers [][]int16
	for _, v := range Voices[1:] {
		clips, err := Prompts(ctx, v, babblePrompts)
		if err != nil {
			return nil, err
		}
		talkers = append(talkers, Join(clips, 0.1).PCM)
	}
	return talkers, nil
}

// Condition is s as a microphone hears it in the named condition. The
// noise is the same on every call, so the engine alone and Hearth's paths
// hear the same audio.
func Condition(ctx context.Context, s Stream, name string) (Stream, error) {
	switch name {
	case "clean":
		return s, nil
	case "white20":
		return s.WithNoise(WhiteNoise(len(s.PCM), 1), 20), nil
	case "white10":
		return s.WithNoise(WhiteNoise(len(s.PCM), 1), 10), nil
	case "babble20", "babble10":
		babbleOnce.Do(func() { babblers, babbleErr = loadBabblers(ctx) })
		if babbleErr != nil {
			return s, babbleErr
		}
		snr := map[string]float64{"babble20": 20, "babble10": 10}[name]
		return s.WithNoise(Babble(babblers, len(s.PCM)), snr), nil
	case "quiet45":
		return s.ScaledTo(-45), nil
	}
	return s, fmt.Errorf("unknown condition %q (known: %s)", name, strings.Join(Conditions, ", "))
}
