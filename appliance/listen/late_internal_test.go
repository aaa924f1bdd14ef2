package listen

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// TestLateQueueRestructuresOnceAllStretchesAreIn: three stretches of one
// processed recording and one of another are transcribed in order; each
// recording is processed again once, after the last stretch, not once per
// stretch, and before the tape of an ended session goes.
func TestLateQueueRestructuresOnceAllStretchesAreIn(t *testing.T) {
	var (
		mu     sync.Mutex
		order  []string
		q      *lateQueue
		gate   = make(chan struct{})
		events = make(chan struct{}, 16)
	)
	note := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
		events <- struct{}{}
	}
	q = newLateQueue(func(j lateJob) {
		<-gate
		note("stretch " + j.convID)
		q.staled(j.convID)
	}, func(stale []string) {
		slices.Sort(stale)
		for _, id := range stale {
			note("restructure " + id)
		}
	}, func() { note("cleanup") })
	for i, id := range []string{"a", "a", "b", "a"} {
		q.add(lateJob{skip: stt.Skip{From: i, To: i + 1}, convID: id})
	}
	q.end()
	close(gate)
	for range 7 {
		select {
		case <-events:
		case <-time.After(10 * time.Second):
			t.Fatalf("the queue stopped at %v", order)
		}
	}
	want := []string{"stretch a", "stretch a", "stretch b", "stretch a", "restructure a", "restructure b", "cleanup"}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
}
