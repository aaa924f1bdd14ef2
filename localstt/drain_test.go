package localstt_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// TestWhisperStreamDrains: speech that stops with no pause after it is
// transcribed on Drain (the generated model hears noise, so only the
// order is checked: whatever it heard, then the barrier), and the stream
// takes audio again afterwards.
func TestWhisperStreamDrains(t *testing.T) {
	needWhisper(t)
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, ok := st.(stt.Drainer)
	if !ok {
		t.Fatal("the whisper stream is not a stt.Drainer")
	}
	barrier := func() {
		t.Helper()
		timeout := time.After(2 * time.Minute)
		for {
			select {
			case ws, open := <-st.Words():
				if !open {
					t.Fatalf("words closed before the barrier: %v", st.Err())
				}
				if len(ws) == 0 {
					return
				}
			case <-timeout:
				t.Fatal("no barrier after Drain")
			}
		}
	}
	speech := jfk(t)[:3*16000] // cut mid-sentence: no pause ends it
	for off := 0; off < len(speech); off += 320 {
		if err := st.Send(speech[off:min(off+320, len(speech))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	barrier()
	if err := st.Send(make([]int16, 320)); err != nil {
		t.Fatalf("the stream refused audio after a drain: %v", err)
	}
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	barrier()
}
