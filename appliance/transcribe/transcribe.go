// Package transcribe is batch transcription: a whole recording (an
// upload, a voice message) becomes a transcript through the speech
// routes. The recording is read in pieces and cut into speech chunks at
// pauses, so memory stays flat however long it is, and stretches of
// silence never reach a route. Routes are tried in order: one that fails
// before it has transcribed anything hands over to the next; one that
// fails afterwards fails the job, classified, never papered over.
package transcribe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Options of one job.
type Options struct {
	Language string // a code, or "multi"; empty is English
	Diarize  bool   // label segments with speakers
	// MaxDuration refuses longer recordings (ErrTooLong); 0 is no limit.
	MaxDuration time.Duration
	// Route, when set, keeps the job to the routes of that name or model
	// (a client that names one, as OpenAI's API does); none is
	// ErrUnknownRoute.
	Route string
	// OnSegment, when set, is given each segment as soon as its chunk is
	// transcribed, on the job's goroutine (a client streaming the text);
	// speaker labels come only with the result.
	OnSegment func(stt.Segment)
}

// Result is a finished job.
type Result struct {
	stt.Transcript
	Outcome  stt.Outcome // Success or ExpectedSilence
	Provider string      // the route that transcribed ("" for silence)
	Model    string
	Duration time.Duration // of the audio read
}

// ErrTooLong is returned for a recording over Options.MaxDuration.
var ErrTooLong = errors.New("recording is longer than allowed")

// ErrUnknownRoute is returned when no route has Options.Route's name or
// model.
var ErrUnknownRoute = errors.New("no speech route of that name")

// Service runs batch jobs over routes, in order of preference. The routes
// can be replaced while it serves (SetRoutes): a job keeps those it
// started with.
type Service struct {
	routes   atomic.Pointer[[]stt.BatchProvider]
	log      *slog.Logger
	diarizer Diarizer // nil: speakers only as the route gives them
}

// New returns a service over routes.
func New(logger *slog.Logger, routes ...stt.BatchProvider) *Service {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{log: logger}
	s.routes.Store(&routes)
	return s
}

// SetRoutes replaces the routes for every job from now on.
func (s *Service) SetRoutes(routes ...stt.BatchProvider) { s.routes.Store(&routes) }

// Serves reports whether a route serves language.
func (s *Service) Serves(language string) bool {
	routes, unusable := s.candidates(language)
	return len(routes) > 0 || unusable != nil
}

// Hears reports whether a route that can serve now serves language: what
// a client may be offered, leaving out what a model not yet pulled would
// serve (Serves counts those).
func (s *Service) Hears(language string) bool {
	routes, _ := s.candidates(language)
	return len(routes) > 0
}

// candidates are the routes that serve language (stt.Ready, the live
// router's rule), and the reason of the first one that would but cannot
// now, which is passed over. A job then falls back along them until one
// has transcribed a chunk.
func (s *Service) candidates(language string) ([]stt.BatchProvider, error) {
	var out []stt.BatchProvider
	var unusable error
	for _, r := range *s.routes.Load() {
		if ok, why := stt.Ready(r, language, 1); !ok {
			unusable = cmp.Or(unusable, why)
			continue
		}
		out = append(out, r)
	}
	return out, unusable
}

// has reports whether a route has name as its name or model.
func (s *Service) has(name string) bool {
	return slices.ContainsFunc(*s.routes.Load(), func(r stt.BatchProvider) bool { return named(r, name) })
}

func named(r stt.BatchProvider, name string) bool {
	if r.Name() == name {
		return true
	}
	m, ok := r.(stt.Modeler)
	return ok && m.Model() == name
}

// chunkTimeout bounds one route call: generous against real time, so that
// only a stuck route times out.
func chunkTimeout(samples int) time.Duration {
	return 30*time.Second + 4*time.Duration(samples)*time.Second/audio.Rate
}

// Transcribe reads src to the end and transcribes its speech. A failure is
// an *stt.Error (or wraps ErrTooLong, audio.ErrInvalidAudio, stt.ErrBusy).
func (s *Service) Transcribe(ctx context.Context, src audio.Source, opt Options) (Result, error) {
	lang := strings.ToLower(strings.TrimSpace(opt.Language))
	if lang == "" {
		lang = "en"
	}
	if lang == "auto" {
		lang = "multi"
	}
	routes, unusable := s.candidates(lang)
	if opt.Route != "" {
		if !s.has(opt.Route) {
			return Result{}, fmt.Errorf("%w: %s", ErrUnknownRoute, opt.Route)
		}
		routes = slices.DeleteFunc(routes, func(r stt.BatchProvider) bool { return !named(r, opt.Route) })
	}
	if len(routes) == 0 && unusable != nil {
		return Result{}, unusable // a route that says why it cannot serve
	}
	if len(routes) == 0 {
		return Result{}, &stt.Error{Outcome: stt.ConfigError, Reason: "unsupported_language",
			Err: fmt.Errorf("%w: %s", stt.ErrNoRoute, lang)}
	}
	if opt.MaxDuration > 0 && src.Duration() > opt.MaxDuration {
		return Result{}, fmt.Errorf("%w: %s of audio, at most %s", ErrTooLong, src.Duration().Round(time.Second), opt.MaxDuration)
	}
	res := Result{Transcript: stt.Transcript{Segments: []stt.Segment{}}}
	cfg := stt.Config{Language: lang, Channels: 1, Diarize: opt.Diarize}
	ch := newChunker(src)
	route := 0         // the route serving the job
	committed := false // a route has transcribed something: no more fallback
	var texts []string
	spoke := false
	var vs *voices
	if opt.Diarize && s.diarizer != nil {
		vs = &voices{}
	}
	for {
		c, err := ch.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Result{}, fmt.Errorf("read the recording: %w", err)
		}
		if opt.MaxDuration > 0 && time.Duration(ch.total)*time.Second/audio.Rate > opt.MaxDuration {
			return Result{}, fmt.Errorf("%w: at most %s", ErrTooLong, opt.MaxDuration)
		}
		spoke = true
		for {
			p := routes[route]
			cctx, cancel := context.WithTimeout(ctx, chunkTimeout(len(c.pcm)))
			tr, err := p.Transcribe(cctx, c.pcm, cfg)
			cancel()
			if err == nil {
				committed = true
				res.Provider = p.Name()
				if m, ok := p.(stt.Modeler); ok {
					res.Model = m.Model()
				}
				if res.DetectedLanguage == "" {
					res.DetectedLanguage = tr.DetectedLanguage
				}
				for _, seg := range tr.Segments {
					seg.Start += c.offset
					seg.End += c.offset
					seg.Words = shiftWords(seg.Words, c.offset)
					seg.Text = strings.TrimSpace(seg.Text)
					if seg.Text == "" {
						continue
					}
					seg.Speaker = speakerLabel(seg.Speaker, opt.Diarize)
					if vs != nil {
						vs.add(ctx, s.diarizer, seg, c.pcm, c.offset)
					}
					res.Segments = append(res.Segments, seg)
					texts = append(texts, seg.Text)
					if opt.OnSegment != nil {
						opt.OnSegment(seg)
					}
				}
				if len(tr.Segments) == 0 && strings.TrimSpace(tr.Text) != "" {
					// A route that returns only text still counts.
					end := c.offset + float64(len(c.pcm))/audio.Rate
					seg := stt.Segment{Start: c.offset, End: end, Text: strings.TrimSpace(tr.Text), Speaker: speakerLabel("", opt.Diarize)}
					if vs != nil {
						vs.add(ctx, s.diarizer, seg, c.pcm, c.offset)
					}
					res.Segments = append(res.Segments, seg)
					texts = append(texts, strings.TrimSpace(tr.Text))
					if opt.OnSegment != nil {
						opt.OnSegment(seg)
					}
				}
				break
			}
			e := stt.Classify(err, p.Name())
			if ctx.Err() != nil || committed || route == len(routes)-1 || errors.Is(err, stt.ErrBusy) && route == len(routes)-1 {
				return Result{}, errWith(e, err)
			}
			s.log.Warn("speech route failed; trying the next", "provider", p.Name(), "err", err)
			route++
		}
	}
	res.Duration = time.Duration(ch.total) * time.Second / audio.Rate
	res.Text = strings.Join(texts, " ")
	if vs != nil {
		vs.label(res.Segments, s.diarizer.Threshold())
	}
	switch {
	case !spoke:
		res.Outcome = stt.ExpectedSilence
	case res.Text == "":
		return res, &stt.Error{Outcome: stt.EmptyUnexpected, Provider: res.Provider, Reason: "empty_unexpected",
			Err: errors.New("speech was detected but the route returned no words")}
	default:
		res.Outcome = stt.Success
	}
	if res.DetectedLanguage == "" && lang != "multi" {
		res.DetectedLanguage = lang
	}
	return res, nil
}

// errWith keeps ErrBusy visible through the classification.
func errWith(e *stt.Error, cause error) error {
	if errors.Is(cause, stt.ErrBusy) && !errors.Is(e, stt.ErrBusy) {
		return fmt.Errorf("%w: %w", stt.ErrBusy, e)
	}
	return e
}

// speakerLabel labels a segment: a route's own diarised label, else one
// speaker (which the Diarizer, when there is one, then tells apart by
// voice); none without diarize.
func speakerLabel(label string, diarize bool) string {
	if !diarize {
		return ""
	}
	if label == "" {
		return "SPEAKER_00"
	}
	return label
}

// shiftWords is words moved by offset seconds (a chunk's place in the
// recording), in a new slice: the route's own stays as it gave it.
func shiftWords(words []stt.Word, offset float64) []stt.Word {
	if len(words) == 0 {
		return nil
	}
	out := make([]stt.Word, len(words))
	for i, w := range words {
		w.Start += offset
		w.End += offset
		out[i] = w
	}
	return out
}
