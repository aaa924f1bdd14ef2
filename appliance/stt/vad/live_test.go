package vad_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// TestLiveFullQueue: a live stream whose worker does not keep up fails as
// overloaded when the consumer keeps no audio, and says it is behind when
// it does; either way Send returns at once, and the route's slot is freed
// once.
func TestLiveFullQueue(t *testing.T) {
	for _, tc := range []struct {
		name     string
		skipped  func(stt.Skip)
		wantErr  func(error) bool
		failed   bool // Err reports the failure and the queue is closed
		wantShut int  // OnShut calls before Close
	}{
		{name: "no skipping", wantErr: func(err error) bool {
			var e *stt.Error
			return errors.As(err, &e) && e.Outcome == stt.Timeout && e.Reason == "overloaded" && e.Provider == "route" &&
				strings.Contains(err.Error(), "route: too slow")
		}, failed: true, wantShut: 1},
		{name: "skipping", skipped: func(stt.Skip) {}, wantErr: func(err error) bool { return errors.Is(err, stt.ErrBehind) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shut := 0
			l := vad.NewLive(vad.LiveConfig{Route: "route", Overloaded: "too slow", Queue: 4, Words: 1,
				Skipped: tc.skipped, OnShut: func() { shut++ }})
			// An utterance is far more than 4 events of 20 ms; no worker reads them.
			err := l.Send(signal(0.5, 1, 0.6))
			if !tc.wantErr(err) {
				t.Fatalf("send: %v", err)
			}
			if got := l.Err(); (got != nil) != tc.failed {
				t.Fatalf("Err %v, failed %v", got, tc.failed)
			}
			if shut != tc.wantShut {
				t.Fatalf("OnShut ran %d times before Close, want %d", shut, tc.wantShut)
			}
			if tc.failed {
				if err := l.Send(signal(0.1)); err == nil || !strings.Contains(err.Error(), "route: stream closed") {
					t.Fatalf("send after the failure: %v", err)
				}
			}
			l.Close()
			l.Close()
			if shut != 1 {
				t.Fatalf("OnShut ran %d times, want once", shut)
			}
			n := 0
			for range l.Events() { // the queue is closed: this ends
				n++
			}
			if n == 0 || n > 4 {
				t.Fatalf("%d events were queued, want 1 to 4", n)
			}
		})
	}
}

// TestLiveWorkerRoundTrip: what a route's worker sees and sends. Each
// utterance comes as Start, Audio and End; a drain's Mark follows the
// utterance in progress; Close ends Events; a worker's failure is Err.
func TestLiveWorkerRoundTrip(t *testing.T) {
	l := vad.NewLive(vad.LiveConfig{Route: "route", Overloaded: "too slow", Queue: 500, Words: 8})
	done := make(chan []vad.Kind)
	go func() {
		defer close(l.Out())
		var kinds []vad.Kind
		for e := range l.Events() {
			kinds = append(kinds, e.Kind)
			switch e.Kind {
			case vad.End:
				l.Out() <- []stt.Word{{Text: "heard"}}
			case vad.Mark:
				l.Out() <- vad.Barrier()
				l.Fail(errors.New("decoder lost")) // empties the queue until Close
			}
		}
		done <- kinds
	}()
	if err := l.Send(signal(0.5, 1, 0.6, 1)); err != nil { // one utterance ended, one in progress
		t.Fatal(err)
	}
	if err := l.Drain(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for ws := range l.Words() {
		if len(ws) == 0 {
			got = append(got, "barrier")
			break
		}
		got = append(got, ws[0].Text)
	}
	if strings.Join(got, " ") != "heard heard barrier" {
		t.Fatalf("words %v, want both utterances then the barrier", got)
	}
	l.Close()
	kinds := <-done
	if _, open := <-l.Words(); open {
		t.Fatal("Words still open after the worker ended")
	}
	if err := l.Err(); err == nil || err.Error() != "decoder lost" {
		t.Fatalf("Err %v, want the worker's failure", err)
	}
	if kinds[0] != vad.Start || kinds[len(kinds)-1] != vad.Mark {
		t.Fatalf("events %v: want an utterance's Start first and the drain's Mark last", kinds)
	}
	if err := l.Send(signal(0.1)); err == nil {
		t.Fatal("send after Close succeeded")
	}
}
