package transcribe_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// recording builds 16 kHz linear16: alternating silence and tone, seconds each.
func recording(parts ...float64) audio.Source {
	var b bytes.Buffer
	for i, sec := range parts {
		for j := range int(sec * 16000) {
			v := 0.0
			if i%2 == 1 {
				v = 7000 * math.Sin(2*math.Pi*200*float64(j)/16000)
			}
			binary.Write(&b, binary.LittleEndian, int16(v))
		}
	}
	src, err := audio.NewRawPCM(&b, 16000, 1)
	if err != nil {
		panic(err)
	}
	return src
}

func script(failure string) *scripted.Provider {
	return scripted.New(scripted.Script{Name: "scripted-" + failure, BatchFailure: failure,
		Utterances: []scripted.Utterance{{Text: "Water the tomatoes."}, {Text: "Then call Grace.", Speaker: 1}}})
}

func TestTranscribeSpeechChunksInOrder(t *testing.T) {
	t.Parallel()
	svc := transcribe.New(nil, script(""))
	res, err := svc.Transcribe(context.Background(), recording(0.5, 1.5, 1, 1, 0.5), transcribe.Options{Diarize: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != stt.Success || res.Text != "Water the tomatoes. Then call Grace." || res.Provider != "scripted-" {
		t.Fatalf("result %+v", res)
	}
	if len(res.Segments) != 2 || res.Segments[0].Speaker != "SPEAKER_00" || res.Segments[1].Speaker != "SPEAKER_01" {
		t.Fatalf("segments %+v", res.Segments)
	}
	// Times are the recording's, not the chunk's (the scripted route's
	// segment spans its chunk, which keeps 0.34 s of the pause after it).
	if s := res.Segments[1]; s.Start < 2.8 || s.Start > 3.2 || s.End < 3.8 || s.End > 4.4 {
		t.Fatalf("second segment at %.2f–%.2f s, want about 3–4.3 s", s.Start, s.End)
	}
	if res.Duration < 4400*time.Millisecond || res.DetectedLanguage != "en" {
		t.Fatalf("duration %v, language %q", res.Duration, res.DetectedLanguage)
	}

	res, err = svc.Transcribe(context.Background(), recording(0.5, 1.5, 1), transcribe.Options{Diarize: false})
	if err != nil || len(res.Segments) != 1 || res.Segments[0].Speaker != "" {
		t.Fatalf("without diarize: %+v %v", res.Segments, err)
	}
}

func TestTranscribeOutcomes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// Silence never reaches a route: this one would fail if it did.
	res, err := transcribe.New(nil, script("upstream_error")).Transcribe(ctx, recording(3), transcribe.Options{})
	if err != nil || res.Outcome != stt.ExpectedSilence || res.Text != "" || len(res.Segments) != 0 {
		t.Fatalf("silence: %+v %v", res, err)
	}
	for _, tc := range []struct {
		failure string
		want    stt.Outcome
		busy    bool
	}{
		{"empty", stt.EmptyUnexpected, false},
		{"upstream_error", stt.UpstreamError, false},
		{"config_error", stt.ConfigError, false},
		{"busy", stt.UpstreamError, true},
	} {
		_, err := transcribe.New(nil, script(tc.failure)).Transcribe(ctx, recording(0.5, 1.5, 1), transcribe.Options{})
		var e *stt.Error
		if !errors.As(err, &e) || e.Outcome != tc.want || errors.Is(err, stt.ErrBusy) != tc.busy {
			t.Errorf("%s: %v, want %s (busy %v)", tc.failure, err, tc.want, tc.busy)
		}
	}
	// No route serves the language: fail closed.
	_, err = transcribe.New(nil, script("")).Transcribe(ctx, recording(0.5, 1.5, 1), transcribe.Options{Language: "de"})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.ConfigError || !errors.Is(err, stt.ErrNoRoute) {
		t.Fatalf("unsupported language: %v", err)
	}
}

func TestTranscribeFallsBackOnlyBeforeItStarts(t *testing.T) {
	t.Parallel()
	res, err := transcribe.New(nil, script("config_error"), script("")).Transcribe(context.Background(),
		recording(0.5, 1.5, 1), transcribe.Options{})
	if err != nil || res.Provider != "scripted-" {
		t.Fatalf("fallback: %+v %v", res, err)
	}
	// A route that fails after transcribing a chunk fails the job.
	flaky := &failSecond{inner: script("")}
	_, err = transcribe.New(nil, flaky, script("")).Transcribe(context.Background(), recording(0.5, 1.5, 1, 1, 0.5), transcribe.Options{})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.UpstreamError || e.Provider != "flaky" {
		t.Fatalf("mid-job failure: %v", err)
	}
}

// failSecond is a route that breaks after its first chunk.
type failSecond struct {
	inner stt.BatchProvider
	calls int
}

func (f *failSecond) Name() string                  { return "flaky" }
func (f *failSecond) Supports(l string, c int) bool { return f.inner.Supports(l, c) }
func (f *failSecond) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	if f.calls++; f.calls > 1 {
		return stt.Transcript{}, errors.New("connection reset")
	}
	return f.inner.Transcribe(ctx, pcm, cfg)
}

// sizes records the chunks a route is given.
type sizes struct{ got []int }

func (s *sizes) Name() string              { return "sizes" }
func (s *sizes) Supports(string, int) bool { return true }
func (s *sizes) Transcribe(_ context.Context, pcm []int16, _ stt.Config) (stt.Transcript, error) {
	s.got = append(s.got, len(pcm))
	return stt.Transcript{Text: "words"}, nil
}

func TestLongMonologuesAreChunkedAndLimited(t *testing.T) {
	t.Parallel()
	route := &sizes{}
	res, err := transcribe.New(nil, route).Transcribe(context.Background(), recording(0, 95), transcribe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(route.got) < 4 {
		t.Fatalf("95 s of speech in %d chunks", len(route.got))
	}
	total := 0
	for _, n := range route.got {
		if n > 28*16000 {
			t.Fatalf("a chunk of %.1f s", float64(n)/16000)
		}
		total += n
	}
	if total < 94*16000 {
		t.Fatalf("chunks hold %.1f s of 95", float64(total)/16000)
	}
	if len(res.Segments) != len(route.got) || res.Segments[1].Start < 20 {
		t.Fatalf("segments %+v", res.Segments)
	}
	_, err = transcribe.New(nil, route).Transcribe(context.Background(), recording(0, 95), transcribe.Options{MaxDuration: time.Minute})
	if !errors.Is(err, transcribe.ErrTooLong) {
		t.Fatalf("over the limit: %v", err)
	}
}

// TestSetRoutesReachesTheNextJob: routes replaced while the service runs
// serve the next job.
func TestSetRoutesReachesTheNextJob(t *testing.T) {
	t.Parallel()
	named := func(name string) *scripted.Provider {
		return scripted.New(scripted.Script{Name: name, Utterances: []scripted.Utterance{{Text: "Water the tomatoes."}}})
	}
	svc := transcribe.New(nil, named("old"))
	svc.SetRoutes(named("new"))
	res, err := svc.Transcribe(context.Background(), recording(0.5, 1.5, 0.5), transcribe.Options{})
	if err != nil || res.Provider != "new" {
		t.Fatalf("%+v %v, want the job on the new route", res, err)
	}
}

func TestRouteKeepsTheJobToTheNamedRoute(t *testing.T) {
	t.Parallel()
	named := func(name string) *scripted.Provider {
		return scripted.New(scripted.Script{Name: name, Utterances: []scripted.Utterance{{Text: "Water the tomatoes."}}})
	}
	svc := transcribe.New(nil, named("first"), named("second"))
	for _, tc := range []struct{ route, want string }{{"", "first"}, {"first", "first"}, {"second", "second"}} {
		res, err := svc.Transcribe(context.Background(), recording(0.5, 1.5, 0.5), transcribe.Options{Route: tc.route})
		if err != nil || res.Provider != tc.want {
			t.Errorf("route %q: %+v %v, want the job on %q", tc.route, res, err, tc.want)
		}
	}
	if _, err := svc.Transcribe(context.Background(), recording(0.5, 1.5, 0.5), transcribe.Options{Route: "nope"}); !errors.Is(err, transcribe.ErrUnknownRoute) {
		t.Errorf("unknown route: %v, want ErrUnknownRoute", err)
	}
}

func TestOnSegmentHearsEachSegmentAsItsChunkIsDone(t *testing.T) {
	t.Parallel()
	var heard []string
	res, err := transcribe.New(nil, script("")).Transcribe(context.Background(), recording(0.5, 1.5, 1, 1, 0.5),
		transcribe.Options{OnSegment: func(s stt.Segment) { heard = append(heard, s.Text) }})
	if err != nil || strings.Join(heard, "|") != "Water the tomatoes.|Then call Grace." || res.Text != strings.Join(heard, " ") {
		t.Fatalf("heard %q, result %+v %v", heard, res, err)
	}
}
