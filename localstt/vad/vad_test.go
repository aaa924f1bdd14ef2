package vad_test

import (
	"math"
	"testing"

	"github.com/hearth-appliance/hearth/localstt/vad"
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
