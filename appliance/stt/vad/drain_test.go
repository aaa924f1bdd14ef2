package vad_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// TestUtteranceStreamDrains: a route that hears whole utterances hears
// the one in progress on Drain; its words come before the barrier (an
// empty batch), and an idle drain gives the barrier alone.
func TestUtteranceStreamDrains(t *testing.T) {
	heardSeconds := make(chan float64, 4)
	st := vad.NewStream(context.Background(), "batch", func(_ context.Context, pcm []int16) ([]stt.Word, error) {
		heardSeconds <- float64(len(pcm)) / 16000
		return []stt.Word{{Text: "heard", End: float64(len(pcm)) / 16000}}, nil
	})
	defer st.Close()
	d := st.(stt.Drainer)
	next := func() []stt.Word {
		select {
		case ws := <-st.Words():
			return ws
		case <-time.After(5 * time.Second):
			t.Fatal("nothing on Words")
			return nil
		}
	}
	if err := st.Send(signal(0.5, 1.5)); err != nil { // speech, and no pause after it
		t.Fatal(err)
	}
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	if ws := next(); len(ws) != 1 || ws[0].Text != "heard" {
		t.Fatalf("first batch %v", ws)
	}
	if sec := <-heardSeconds; sec < 1.4 {
		t.Fatalf("heard %.2f s of the 1.5 s said", sec)
	}
	if ws := next(); len(ws) != 0 {
		t.Fatalf("no barrier after the words: %v", ws)
	}
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	if ws := next(); len(ws) != 0 {
		t.Fatalf("an idle drain gave %v", ws)
	}
	st.Close()
	if err := d.Drain(); err == nil {
		t.Fatal("a closed stream drained")
	}
}
