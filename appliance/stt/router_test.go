package stt_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
	"github.com/hearth-appliance/hearth/localstt"
)

func script(name string, mod func(*scripted.Script)) *scripted.Provider {
	s := scripted.Script{Name: name, Utterances: []scripted.Utterance{{Text: "hello there"}, {Text: "second one", Speaker: 1}}}
	if mod != nil {
		mod(&s)
	}
	return scripted.New(s)
}

func TestRouterOrderRetryAndFallback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		providers  []stt.StreamingProvider
		lang       string
		want       string
		wantReason string
		wantErr    stt.Outcome
	}{
		{"first serves", []stt.StreamingProvider{script("a", nil), script("b", nil)}, "en", "a", "", ""},
		{"retried at connection time", []stt.StreamingProvider{script("a", func(s *scripted.Script) { s.OpenFailures = 2 }), script("b", nil)}, "en", "a", "", ""},
		{"falls back after retries", []stt.StreamingProvider{script("a", func(s *scripted.Script) { s.OpenFailures = 9 }), script("b", nil)}, "en", "b", "fallback_from_a", ""},
		{"misconfigured route is skipped at once", []stt.StreamingProvider{script("a", func(s *scripted.Script) { s.ConfigError = true }), script("b", nil)}, "en", "b", "fallback_from_a", ""},
		{"language routes", []stt.StreamingProvider{script("a", nil), script("b", func(s *scripted.Script) { s.Languages = []string{"de"} })}, "de", "b", "", ""},
		{"auto means multi", []stt.StreamingProvider{script("a", func(s *scripted.Script) { s.Languages = []string{"multi"} })}, "auto", "a", "", ""},
		{"fails closed", []stt.StreamingProvider{script("a", nil)}, "xx", "", "", stt.ConfigError},
		{"every route down", []stt.StreamingProvider{script("a", func(s *scripted.Script) { s.OpenFailures = 9 })}, "en", "", "", stt.UpstreamError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := stt.NewRouter(nil, tc.providers...).WithRetry(3, time.Millisecond)
			s, sel, err := r.Open(ctx, stt.Config{Language: tc.lang})
			if tc.wantErr != "" {
				var se *stt.Error
				if !errors.As(err, &se) || se.Outcome != tc.wantErr {
					t.Fatalf("err %v, want outcome %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if sel.Provider != tc.want || sel.Reason() != tc.wantReason {
				t.Fatalf("selected %+v (%q), want %s %q", sel, sel.Reason(), tc.want, tc.wantReason)
			}
		})
	}
}

func burst(seconds float64, speech bool) []int16 {
	n := int(seconds * stt.SampleRate)
	out := make([]int16, n)
	if speech {
		for i := range out {
			out[i] = int16(6000 * math.Sin(2*math.Pi*220*float64(i)/stt.SampleRate))
		}
	}
	return out
}

func TestScriptedHearsBurstsAndFailsOnCue(t *testing.T) {
	t.Parallel()
	p := script("s", func(s *scripted.Script) { s.FailAfterUtterances = 2 })
	s, err := p.Open(context.Background(), stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(burst(0.5, false))
	s.Send(burst(1.0, true)) // 0.5–1.5 s
	s.Send(burst(0.6, false))
	got := <-s.Words()
	if len(got) != 2 || got[0].Text != "hello" || math.Abs(got[0].Start-0.5) > 0.03 || math.Abs(got[1].End-1.5) > 0.03 {
		t.Fatalf("first utterance %+v", got)
	}
	s.Send(burst(0.4, true))
	err = s.Send(burst(0.6, false))
	second := <-s.Words()
	if len(second) != 2 || second[0].Speaker != 1 {
		t.Fatalf("second utterance %+v", second)
	}
	if _, open := <-s.Words(); open {
		t.Fatal("stream still open after its scripted failure")
	}
	var se *stt.Error
	if !errors.As(s.Err(), &se) || se.Reason != "connection_lost" || !se.Outcome.Retryable() || err == nil {
		t.Fatalf("failure %v / send %v", s.Err(), err)
	}
}

// TestRouterPassesOverAnUnusableRoute: a route that says it cannot serve
// (whisper without a model) is skipped without a fallback reason, and its
// reason is the answer when nothing else serves the session.
func TestRouterPassesOverAnUnusableRoute(t *testing.T) {
	t.Parallel()
	missing := localstt.Missing{Reason: "no whisper model: hearth models pull base.en"}
	r := stt.NewRouter(nil, missing, script("b", nil)).WithRetry(3, time.Millisecond)
	s, sel, err := r.Open(context.Background(), stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if sel.Provider != "b" || sel.Reason() != "" {
		t.Fatalf("selected %+v", sel)
	}
	// Audio a session skipped goes to the first usable batch side.
	if b := r.Batch("en"); b == nil || b.Name() != "b" {
		t.Fatalf("batch side for skipped audio: %v", b)
	}
	alone := stt.NewRouter(nil, missing)
	if !alone.Serves("en", 1) || alone.Serves("xx", 1) {
		t.Fatal("an unusable route's languages")
	}
	if b := alone.Batch("en"); b != nil {
		t.Fatalf("an unusable route's batch side was chosen: %v", b.Name())
	}
	_, _, err = alone.Open(context.Background(), stt.Config{Language: "en"})
	var se *stt.Error
	if !errors.As(err, &se) || se.Outcome != stt.ConfigError || se.Reason != missing.Reason || errors.Is(err, stt.ErrNoRoute) {
		t.Fatalf("alone: %v", err)
	}
}

// TestRouterSetReachesNewSessionsAndPinKeepsOld: replaced providers serve
// the next Open at once; a router pinned before keeps the old ones, and
// Serves follows what is in place.
func TestRouterSetReachesNewSessionsAndPinKeepsOld(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := stt.NewRouter(nil, script("a", nil)).WithRetry(1, time.Millisecond)
	pinned := r.Pin()
	r.Set(script("b", func(s *scripted.Script) { s.Languages = []string{"de"} }))
	for _, tc := range []struct {
		name   string
		router *stt.Router
		lang   string
		want   string
	}{
		{"new sessions", r, "de", "b"},
		{"a pinned session", pinned, "en", "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, sel, err := tc.router.Open(ctx, stt.Config{Language: tc.lang})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			if sel.Provider != tc.want {
				t.Fatalf("opened on %s, want %s", sel.Provider, tc.want)
			}
		})
	}
	if r.Serves("en", 1) || !pinned.Serves("en", 1) {
		t.Fatal("Serves does not follow the providers in place")
	}
	var none *stt.Router
	if none.Pin() != nil {
		t.Fatal("a nil router pinned to a router")
	}
}
