package vad_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// signal is seconds of silence and 200 Hz tone, alternating.
func signal(parts ...float64) []int16 {
	var out []int16
	for i, sec := range parts {
		for j := range int(sec * 16000) {
			v := 0.0
			if i%2 == 1 {
				v = 5000 * math.Sin(2*math.Pi*200*float64(j)/16000)
				if j%8000 < 1600 { // syllables: a dip every half second
					v /= 20
				}
			} else {
				v = 30 * math.Sin(float64(j)) // a quiet room, not digital silence
			}
			out = append(out, int16(v))
		}
	}
	return out
}

func TestUtterancesAreCutAtPauses(t *testing.T) {
	var v vad.VAD
	utts := v.Push(signal(0.5, 1.0, 1.0, 2.0, 1.0))
	if len(utts) != 2 {
		t.Fatalf("%d utterances, want 2", len(utts))
	}
	for i, want := range []float64{0.5, 2.5} {
		start := float64(utts[i].Start) / 16000
		if start > want || start < want-0.3 {
			t.Errorf("utterance %d starts at %.2f s, want just before %.1f s", i, start, want)
		}
	}
	if d := float64(len(utts[1].PCM)) / 16000; d < 2.0 || d > 2.8 {
		t.Errorf("second utterance lasts %.2f s", d)
	}
	if _, ok := v.Flush(); ok {
		t.Error("silence at the end flushed an utterance")
	}
}

func TestMonologuesAreCutAndEventsBalance(t *testing.T) {
	var v vad.VAD
	events := v.Events(signal(0.3, 45))
	events = append(events, v.FlushEvents()...)
	starts, ends, open := 0, 0, false
	for _, e := range events {
		switch e.Kind {
		case vad.Start:
			if open {
				t.Fatal("an utterance opened inside another")
			}
			starts, open = starts+1, true
		case vad.End:
			ends, open = ends+1, false
		case vad.Audio:
			if !open {
				t.Fatal("audio outside an utterance")
			}
		}
	}
	if starts < 3 || starts != ends {
		t.Fatalf("%d starts and %d ends for 45 s of speech (cut every 20 s)", starts, ends)
	}
}

// TestFlushPadsTheCutUtterance: an utterance the stream ends mid-speech
// keeps its last, partial frame and gets silence after it, as a pause
// would have given it; timings of later audio are unchanged.
func TestFlushPadsTheCutUtterance(t *testing.T) {
	var v vad.VAD
	speech := signal(0.3, 1.0)
	speech = speech[:len(speech)-100] // not a whole number of frames
	v.Events(speech)
	evs := v.FlushEvents()
	if len(evs) != 2 || evs[0].Kind != vad.Audio || evs[1].Kind != vad.End {
		t.Fatalf("flush events %+v", evs)
	}
	tail := evs[0].PCM
	if len(tail) != 220+300*16 {
		t.Fatalf("the last partial frame and 300 ms of silence: %d samples", len(tail))
	}
	for _, x := range tail[220:] {
		if x != 0 {
			t.Fatal("the padding is not silence")
		}
	}
	if evs := v.FlushEvents(); evs != nil {
		t.Fatalf("a second flush gave %+v", evs)
	}
	var u vad.VAD
	u.Push(speech)
	utt, ok := u.Flush()
	if !ok || len(utt.PCM) < len(speech)-int(0.3*16000) || float64(utt.Start)/16000 > 0.3 {
		t.Fatalf("flushed utterance of %d samples from %d", len(utt.PCM), utt.Start)
	}
}

// scaled is pcm at db decibels (negative: quieter).
func scaled(pcm []int16, db float64) []int16 {
	g := math.Pow(10, db/20)
	out := make([]int16, len(pcm))
	for i, s := range pcm {
		out[i] = int16(math.Round(float64(s) * g))
	}
	return out
}

// TestQuietSpeechIsHeardAsLoudSpeechIs: the floor follows the speaker's
// level, so a quiet microphone's utterances open and close where a normal
// one's do (a fixed floor of -42 dBFS lost them), and they reach the
// recognizer as they came, quiet or not (an amplified quiet utterance was
// heard worse than the same audio as it came).
func TestQuietSpeechIsHeardAsLoudSpeechIs(t *testing.T) {
	// A stream starts at the old fixed floor, which fades to the
	// speaker's level over its first seconds (-45 dB here is -64 dBFS).
	audio := signal(6, 1.0, 1.0, 2.0, 1.0, 0.7, 1.0)
	var ref vad.VAD
	want := ref.Push(audio)
	if len(want) != 3 {
		t.Fatalf("%d utterances at a normal level, want 3", len(want))
	}
	for _, db := range []float64{0, -25, -35, -45} {
		t.Run(fmt.Sprintf("%.0f dB", db), func(t *testing.T) {
			quiet := scaled(audio, db)
			var v vad.VAD
			got := v.Push(quiet)
			if len(got) != len(want) {
				t.Fatalf("%d utterances, want %d", len(got), len(want))
			}
			for i := range got {
				// At -45 dB the signal's first 100 ms, a syllable 26 dB
				// below the rest, is under a silent line's floor: the
				// utterance may open that much later.
				if d := got[i].Start - want[i].Start; d < -frame || d > 6*frame {
					t.Errorf("utterance %d starts at sample %d, at a normal level %d", i, got[i].Start, want[i].Start)
				}
				if d := len(got[i].PCM) - len(want[i].PCM); d < -7*frame || d > 2*frame {
					t.Errorf("utterance %d holds %d samples, at a normal level %d", i, len(got[i].PCM), len(want[i].PCM))
				}
				if g := gainOf(t, quiet[got[i].Start:got[i].Start+len(got[i].PCM)], got[i].PCM); g != 1 {
					t.Errorf("utterance %d at %.0f dB amplified %.2f times", i, db, g)
				}
			}
			// Live: the same utterances, as they came.
			var l vad.VAD
			evs := l.Events(quiet)
			var starts []int
			var heard []int16
			at := 0
			for _, e := range append(evs, l.FlushEvents()...) {
				switch e.Kind {
				case vad.Start:
					starts, heard, at = append(starts, e.At), e.PCM, e.At
				case vad.Audio:
					heard = append(heard, e.PCM...)
				case vad.End:
					n := min(len(heard), len(quiet)-at)
					if g := gainOf(t, quiet[at:at+n], heard[:n]); g != 1 {
						t.Errorf("live: the utterance at sample %d amplified %.2f times", at, g)
					}
				}
			}
			if len(starts) != len(want) {
				t.Fatalf("live: %d utterances, want %d", len(starts), len(want))
			}
		})
	}
}

const frame = 320

// gainOf is the one factor that turns in into out, failing when samples
// disagree with it by more than rounding and clipping allow.
func gainOf(t *testing.T, in, out []int16) float64 {
	t.Helper()
	if len(in) != len(out) {
		t.Fatalf("%d samples in, %d out", len(in), len(out))
	}
	big := 0
	for i := range in {
		if abs(in[i]) > abs(in[big]) {
			big = i
		}
	}
	if in[big] == 0 {
		return 1
	}
	g := float64(out[big]) / float64(in[big])
	for i := range in {
		if want := float64(in[i]) * g; math.Abs(want) < 32000 && math.Abs(float64(out[i])-want) > 1+g/2 {
			t.Fatalf("sample %d: %d became %d, not %.2f times it", i, in[i], out[i], g)
		}
	}
	return g
}

func abs(x int16) int { return max(int(x), -int(x)) }

// TestSilenceAndSteadyNoiseAreNotSpeech: a silent line, dither, a hum and
// white noise at any level open no utterance, though the floor now
// follows the level down to -72 dBFS.
func TestSilenceAndSteadyNoiseAreNotSpeech(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(rms float64) []int16 {
		out := make([]int16, 20*16000)
		for i := range out {
			out[i] = int16(max(-32768, min(32767, math.Round(rng.NormFloat64()*rms))))
		}
		return out
	}
	hum := make([]int16, 20*16000)
	for i := range hum {
		hum[i] = int16(2000 * math.Sin(2*math.Pi*50*float64(i)/16000))
	}
	for name, pcm := range map[string][]int16{
		"silence": make([]int16, 20*16000), "dither": noise(0.7), "hum": hum,
		"noise -70 dBFS": noise(10), "noise -50 dBFS": noise(100), "noise -30 dBFS": noise(1000), "noise -10 dBFS": noise(10000),
	} {
		var v vad.VAD
		if utts := v.Push(pcm); len(utts) != 0 {
			t.Errorf("%s: %d utterances", name, len(utts))
		}
		if _, ok := v.Flush(); ok {
			t.Errorf("%s: an utterance at the end", name)
		}
		var l vad.VAD
		if evs := l.Events(pcm); len(evs) != 0 {
			t.Errorf("%s: %d live events", name, len(evs))
		}
	}
}
