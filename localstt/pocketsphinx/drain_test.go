package pocketsphinx_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestDrainHearsOutTheUtteranceInProgress: speech that stops with no pause
// after it (a released button) is decoded on Drain, its words come before
// the barrier (an empty batch), and the stream goes on afterwards.
func TestDrainHearsOutTheUtteranceInProgress(t *testing.T) {
	r := route(t, pocketsphinx.Config{})
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, ok := st.(stt.Drainer)
	if !ok {
		t.Fatal("the PocketSphinx stream is not a stt.Drainer")
	}
	send := func(pcm []int16) {
		for off := 0; off < len(pcm); off += 320 {
			if err := st.Send(pcm[off:min(off+320, len(pcm))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// heard reads batches until the barrier and returns the words before it.
	heard := func() string {
		var words []string
		timeout := time.After(30 * time.Second)
		for {
			select {
			case ws, open := <-st.Words():
				if !open {
					t.Fatal("words closed before the barrier")
				}
				if len(ws) == 0 {
					return strings.Join(words, " ")
				}
				for _, w := range ws {
					words = append(words, w.Text)
				}
			case <-timeout:
				t.Fatal("no barrier after Drain")
			}
		}
	}
	send(append(make([]int16, 8000), trimmed(speech(t, sentences[0], 16000))...))
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	if got := heard(); got != sentences[0] {
		t.Fatalf("drained %q, want %q", got, sentences[0])
	}
	// With nothing in progress, a drain answers with the barrier alone.
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	if got := heard(); got != "" {
		t.Fatalf("an idle drain gave %q", got)
	}
	send(append(trimmed(speech(t, sentences[2], 16000)), make([]int16, 16000)...))
	if err := d.Drain(); err != nil {
		t.Fatal(err)
	}
	if got := heard(); got != sentences[2] {
		t.Fatalf("after the drain the stream heard %q, want %q", got, sentences[2])
	}
}

// trimmed drops the quiet tail Festival leaves after the last word, but
// for 100 ms (the last consonant's release): far less than the pause that
// ends an utterance.
func trimmed(pcm []int16) []int16 {
	end := len(pcm)
	for end > 0 && pcm[end-1] < 300 && pcm[end-1] > -300 {
		end--
	}
	return pcm[:min(end+1600, len(pcm))]
}
