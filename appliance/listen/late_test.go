package listen

import (
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// TestLateQueueHoldsLiveWordsBriefly: while a skipped stretch is being
// transcribed, live words from its start on wait for it (the app never
// reorders what it gets), but not longer than three times the
// stretches' length (at least lateHoldMin), and not once every stretch
// is in.
func TestLateQueueHoldsLiveWordsBriefly(t *testing.T) {
	release := make(chan struct{})
	started := make(chan lateJob, 2)
	q := newLateQueue(func(j lateJob) { started <- j; <-release }, func([]string) {}, func() {})
	now := time.Now()

	if _, ok := q.holdsFrom(now); ok {
		t.Fatal("an idle queue holds live words")
	}
	q.add(lateJob{skip: stt.Skip{From: 3 * stt.SampleRate, To: 9 * stt.SampleRate}})
	q.add(lateJob{skip: stt.Skip{From: 12 * stt.SampleRate, To: 15 * stt.SampleRate}})
	<-started
	if from, ok := q.holdsFrom(now); !ok || from != 3*stt.SampleRate {
		t.Errorf("holdsFrom while the first stretch is heard = %d, %v; want %d, true", from, ok, 3*stt.SampleRate)
	}
	// 9 s of stretches: held for 27 s, longer than the 10 s minimum.
	if _, ok := q.holdsFrom(now.Add(26 * time.Second)); !ok {
		t.Error("live words not held 26 s after 9 s of stretches began")
	}
	if _, ok := q.holdsFrom(now.Add(28 * time.Second)); ok {
		t.Error("live words still held 28 s after 9 s of stretches began")
	}
	release <- struct{}{}
	<-started
	if from, ok := q.holdsFrom(now); !ok || from != 12*stt.SampleRate {
		t.Errorf("holdsFrom while the second stretch is heard = %d, %v; want %d, true", from, ok, 12*stt.SampleRate)
	}
	release <- struct{}{}
	if !q.wait(5 * time.Second) {
		t.Fatal("the queue did not drain")
	}
	if _, ok := q.holdsFrom(now); ok {
		t.Error("live words held once every stretch is in")
	}
}
