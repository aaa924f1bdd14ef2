package pocketsphinx_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestStreamBehindSkipsToLiveAudio: audio sent far faster than it decodes
// (all of it at once, as a phone does with what it buffered offline) no
// longer fails the stream. Send says it is behind, the stream goes on with
// live audio, and the stretches it skipped, transcribed afterwards, fill
// the gaps: every word said is heard once, in order.
func TestStreamBehindSkipsToLiveAudio(t *testing.T) {
	r := route(t, pocketsphinx.Config{})
	var said []string
	var pcm []int16
	for range 2 { // about 25 s: more than the 10 s a stream queues
		for _, s := range sentences {
			said = append(said, s)
			pcm = append(pcm, speech(t, s, 16000)...)
		}
	}
	var (
		mu    sync.Mutex
		skips []stt.Skip
	)
	st, err := r.Open(context.Background(), stt.Config{Language: "en", Skipped: func(s stt.Skip) {
		mu.Lock()
		skips = append(skips, s)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	behind := 0
	for off := 0; off < len(pcm); off += 320 {
		err := st.Send(pcm[off:min(off+320, len(pcm))])
		switch {
		case errors.Is(err, stt.ErrBehind):
			behind++
		case err != nil:
			t.Fatalf("send at %.1f s: %v", float64(off)/16000, err)
		}
	}
	st.Close()
	var heard []stt.Word
	for ws := range st.Words() {
		heard = append(heard, ws...)
	}
	if err := st.Err(); err != nil {
		t.Fatalf("the stream failed: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if behind == 0 || len(skips) == 0 {
		t.Fatalf("25 s sent at once: Send said behind %d times, %d stretches skipped", behind, len(skips))
	}
	for i, s := range skips {
		if s.From >= s.To || s.To > len(pcm) || (i > 0 && s.From < skips[i-1].To) {
			t.Fatalf("skips %+v: stretch %d is not a stretch of the audio after the one before", skips, i)
		}
		for _, w := range heard {
			if at := int(w.Start * 16000); at >= s.From && at < s.To {
				t.Errorf("%q at %.2f s was heard live inside skipped stretch %.2f–%.2f s", w.Text, w.Start,
					float64(s.From)/16000, float64(s.To)/16000)
			}
		}
		tr, err := r.Transcribe(context.Background(), pcm[s.From:s.To], stt.Config{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		for _, seg := range tr.Segments {
			for _, f := range strings.Fields(seg.Text) {
				heard = append(heard, stt.Word{Text: f, Start: seg.Start + float64(s.From)/16000})
			}
		}
	}
	slices.SortStableFunc(heard, func(a, b stt.Word) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	var got []string
	for _, w := range heard {
		got = append(got, w.Text)
	}
	// Word for word but for the engine's own slips: a decoder's state
	// carries over from one utterance to the next, so the same sentence is
	// not always heard the same (a lost stretch would be 20 words and more).
	want := strings.Join(said, " ")
	if e, n := stt.WordErrors(want, strings.Join(got, " ")); e > 3 {
		t.Fatalf("live and skipped together, %d of %d words wrong:\n got %q\nwant %q\nskips %+v", e, n, strings.Join(got, " "), want, skips)
	}
}
