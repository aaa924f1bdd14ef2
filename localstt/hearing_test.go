package localstt_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestAModelThatHearsNothingIsPassedOver: the generated model yields no
// words on real speech. Each batch job is handed on until it has missed
// three stretches of speech; then the route is unusable, says why, and
// has said so in the log once. whisper.cpp's own log is in slog too.
func TestAModelThatHearsNothingIsPassedOver(t *testing.T) {
	needWhisper(t)
	var log bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all := jfk(t)
	speech := all[:3*stt.SampleRate]
	// The same stretch again is not another miss.
	for range 2 {
		if _, err := r.Transcribe(context.Background(), speech, stt.Config{Language: "en"}); err == nil || errors.Is(err, stt.ErrHearsNothing) {
			t.Fatalf("the same stretch twice: %v", err)
		}
	}
	for i := range 3 {
		speech = all[i*3*stt.SampleRate : (i+1)*3*stt.SampleRate]
		if r.Unusable() != nil {
			t.Fatalf("unusable after %d stretches", i)
		}
		_, err := r.Transcribe(context.Background(), speech, stt.Config{Language: "en"})
		var e *stt.Error
		if !errors.As(err, &e) || e.Outcome != stt.UpstreamError {
			t.Fatalf("job %d: %v", i+1, err)
		}
		if i < 2 && (!strings.Contains(e.Reason, "no words") || errors.Is(err, stt.ErrHearsNothing)) {
			t.Fatalf("job %d before the verdict: %v", i+1, err)
		}
		if i == 2 {
			if !errors.Is(err, stt.ErrHearsNothing) || !strings.Contains(e.Reason, "hearth models pull") {
				t.Fatalf("job 3, the verdict: %v", err)
			}
			break
		}
	}
	if err := r.Unusable(); !errors.Is(err, stt.ErrHearsNothing) {
		t.Fatalf("after the verdict: %v", err)
	}
	// Passed over at once from now on, without a word more in the log.
	if _, err := r.Transcribe(context.Background(), speech, stt.Config{Language: "en"}); !errors.Is(err, stt.ErrHearsNothing) {
		t.Fatalf("a job after the verdict: %v", err)
	}
	if n := strings.Count(log.String(), "yields no words on speech"); n != 1 {
		t.Fatalf("the verdict is logged %d times:\n%s", n, log.String())
	}
	if !strings.Contains(log.String(), `"level":"DEBUG","msg":"whisper.cpp","line":"whisper_model_load`) {
		t.Fatalf("whisper.cpp's log is not in slog:\n%.2000s", log.String())
	}
}

// TestAnUnheardSessionAsksToBeHandedOver: a live stream on the generated
// model, sent one stretch of speech and drained or closed, is far from the
// three misses of the verdict. Asked to (stt.HandsOverUnheard, which the
// router does when a next route exists), it ends there with
// ErrHearsNothing so that its audio goes to that route; not asked, it
// drains or ends as any stream does.
func TestAnUnheardSessionAsksToBeHandedOver(t *testing.T) {
	needWhisper(t)
	speech := append(jfk(t)[:3*stt.SampleRate], make([]int16, stt.SampleRate)...)
	for _, tc := range []struct {
		name        string
		hand, close bool
	}{
		{"asked, drained", true, false},
		{"asked, closed", true, true},
		{"not asked, drained", false, false},
		{"not asked, closed", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny)})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			s, err := r.Open(context.Background(), stt.Config{Language: "en"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.(stt.HandsOverUnheard).HandOverUnheard(tc.hand)
			if err := s.Send(speech); err != nil {
				t.Fatal(err)
			}
			if tc.close {
				s.Close()
			} else if err := s.(stt.Drainer).Drain(); err != nil {
				t.Fatal(err)
			}
			ws, open := <-s.Words()
			switch {
			case tc.hand && (open || !errors.Is(s.Err(), stt.ErrHearsNothing)):
				t.Fatalf("words %v (open %v), err %v: want the stream ended as hearing nothing", ws, open, s.Err())
			case !tc.hand && tc.close && (open || s.Err() != nil):
				t.Fatalf("words %v (open %v), err %v: want the stream ended with no words and no error", ws, open, s.Err())
			case !tc.hand && !tc.close && (!open || len(ws) != 0 || s.Err() != nil):
				t.Fatalf("words %v (open %v), err %v: want the drain's empty batch", ws, open, s.Err())
			}
			if r.Unusable() != nil {
				t.Fatalf("one stretch judged the route deaf: %v", r.Unusable())
			}
		})
	}
}

// TestAnUnheardSessionEndsWithTheNextRoutesWords: through the router, a
// session of one stretch of speech on the generated model, closed without
// a drain (the connection ended), ends with PocketSphinx's words on the
// replayed audio instead of none.
func TestAnUnheardSessionEndsWithTheNextRoutesWords(t *testing.T) {
	needWhisper(t)
	deaf, err := localstt.New(localstt.Config{Model: model(t, ggmltest.Tiny)})
	if err != nil {
		t.Fatal(err)
	}
	defer deaf.Close()
	ps, err := pocketsphinx.New(pocketsphinx.Config{Decoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	s, sel, err := stt.NewRouter(nil, deaf, ps).Open(context.Background(), stt.Config{Language: "en"})
	if err != nil || sel.Provider != localstt.Name {
		t.Fatalf("opened on %v: %v", sel, err)
	}
	if err := s.Send(append(jfk(t)[:3*stt.SampleRate], make([]int16, stt.SampleRate)...)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var heard []string
	for ws := range s.Words() {
		for _, w := range ws {
			heard = append(heard, w.Text)
			if w.Provider != pocketsphinx.Name {
				t.Errorf("word %q from %q, want %s", w.Text, w.Provider, pocketsphinx.Name)
			}
		}
	}
	if len(heard) < 2 || s.Err() != nil {
		t.Fatalf("heard %q, err %v: want the next route's words", heard, s.Err())
	}
	if deaf.Unusable() != nil {
		t.Fatalf("one stretch judged the route deaf: %v", deaf.Unusable())
	}
}
