package vad

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPitchFollowsOneVoice: a voiced sound (a 120 Hz pulse train through
// a vowel-like resonance, its pitch gliding as speech does) is one voice
// from its second frame on; four such voices at once, each at its own
// pitch, and white noise are not, at any level.
func TestPitchFollowsOneVoice(t *testing.T) {
	voice := func(f0, glide float64, seed uint64) []float64 {
		rng := rand.New(rand.NewPCG(seed, 1))
		out := make([]float64, 50*frameLen)
		phase, y1, y2 := rng.Float64(), 0.0, 0.0
		for i := range out {
			f := f0 * (1 + glide*float64(i)/float64(len(out)))
			phase += f / 16000
			x := 0.0
			if phase >= 1 {
				phase--
				x = 1000
			}
			// a resonance at 700 Hz
			y := x + 2*0.97*math.Cos(2*math.Pi*700/16000)*y1 - 0.97*0.97*y2
			y2, y1 = y1, y
			out[i] = y
		}
		return out
	}
	toPCM := func(x []float64, gain float64) []int16 {
		out := make([]int16, len(x))
		for i, v := range x {
			out[i] = int16(max(-32768, min(32767, v*gain)))
		}
		return out
	}
	mixed := make([]float64, 50*frameLen)
	for k, f0 := range []float64{105, 140, 190, 230} {
		for i, v := range voice(f0, 0.3*float64(k%2*2-1), uint64(k)) {
			mixed[i] += v
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	noise := make([]float64, 50*frameLen)
	for i := range noise {
		noise[i] = 3000 * rng.NormFloat64()
	}
	for _, tc := range []struct {
		name  string
		sound []float64
		voice bool
	}{
		{"one voice", voice(120, 0.2, 9), true},
		{"four voices", mixed, false},
		{"white noise", noise, false},
	} {
		for _, gain := range []float64{0.05, 1} {
			var p pitch
			pcm := toPCM(tc.sound, gain)
			longest := 0
			for at := 0; at+frameLen <= len(pcm); at += frameLen {
				longest = max(longest, p.next(pcm[at:at+frameLen], true))
			}
			if got := longest >= voiceFrames; got != tc.voice {
				t.Errorf("%s at gain %v: one voice %v (longest run of one pitch %d frames), want %v", tc.name, gain, got, longest, tc.voice)
			}
		}
	}
}

// BenchmarkPitch is the voice rule's cost per 20 ms frame of speech (it
// runs only on frames the gate takes for speech): at 50 frames a second,
// ns/op × 50 is its share of a core per live stream.
func BenchmarkPitch(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	frames := make([][]int16, 50)
	for k := range frames {
		frames[k] = make([]int16, frameLen)
		for i := range frames[k] {
			frames[k][i] = int16(3000*math.Sin(2*math.Pi*150*float64(k*frameLen+i)/16000) + 300*rng.NormFloat64())
		}
	}
	var p pitch
	b.ResetTimer()
	for i := range b.N {
		p.next(frames[i%len(frames)], true)
	}
}

// BenchmarkVADSecond is the whole VAD's cost per second of speech-like
// audio (gate, room level, pitch), for comparison with a recognizer's
// (PocketSphinx: about 0.25 CPU-s per audio-s on the test machine).
func BenchmarkVADSecond(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	sec := make([]int16, 16000)
	for i := range sec {
		sec[i] = int16(30 * rng.NormFloat64())
		if i < 12800 { // 800 ms of a voice, then a pause
			sec[i] += int16(3000 * math.Sin(2*math.Pi*150*float64(i)/16000))
		}
	}
	var v VAD
	b.ResetTimer()
	for range b.N {
		v.Push(sec)
	}
}
