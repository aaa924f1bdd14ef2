package localstt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// Name is the route's name in replies and logs.
const Name = "whisper"

// Config locates the model and bounds the work.
type Config struct {
	// Model is a ggml model file; empty looks for the best one pulled
	// into ModelsDir.
	Model     string
	ModelsDir string
	// Workers is how many recordings are transcribed at once, each with
	// its own loaded model (default 1); Threads is each one's CPU threads
	// (default: all CPUs over the workers).
	Workers int
	Threads int
	// Wait bounds how long a job waits for a worker before it is refused
	// as busy (default 2 s): load sheds to the next route, never queues.
	Wait time.Duration
	// Logger receives whisper.cpp's own log (at debug level) and the
	// route's verdict on a model that hears nothing.
	Logger *slog.Logger
	// Meter, when set, adds up the model's speed on this box.
	Meter *Meter
}

// heard is a segment with its words, timed from the recording's start
// (words are empty when the engine gives no token times).
type heard struct {
	stt.Segment
	words []stt.Word
	// noSpeech is the decoder's probability that the segment's window held
	// no speech, and logProb the mean log-probability of its text tokens;
	// both are zero when the engine does not report them.
	noSpeech, logProb float64
}

// engine transcribes one recording at a time.
type engine interface {
	transcribe(pcm []float32, language string, translate bool, threads int) ([]heard, string, error)
	multilingual() bool
	close()
}

// Route is the whisper route. It is safe for concurrent use.
type Route struct {
	cfg     Config
	model   string
	english bool
	pool    chan engine
	log     *slog.Logger
	hearing hearing
	// otherLogged holds "session>heard" language pairs already logged.
	otherLogged sync.Map
	holders     holders // see retire.go
}

// preferred is the order a model is picked from the folder: the first one
// present wins (English models serve English better at the same size).
var preferred = []string{"small.en", "small", "base.en", "base", "base.en-q5_1", "base-q5_1", "tiny.en", "tiny", "tiny.en-q5_1", "tiny-q5_1"}

// FindModel returns the best model pulled into dir, or "".
func FindModel(dir string) string {
	for _, name := range preferred {
		p := filepath.Join(dir, "ggml-"+name+".bin")
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			return p
		}
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "ggml-*.bin"))
	sort.Strings(matches)
	if len(matches) > 0 {
		return matches[0]
	}
	return ""
}

// New loads the model once per worker. A build without whisper.cpp, or no
// model, is a config_error saying what to do.
func New(cfg Config) (*Route, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if !Available {
		return nil, configError("whisper.cpp is not built in: run make build with cmake and npm available (scripts/whisper.sh), or install libwhisper (Homebrew: whisper-cpp) and rebuild", nil)
	}
	if cfg.Model == "" && cfg.ModelsDir != "" {
		cfg.Model = FindModel(cfg.ModelsDir)
	}
	if cfg.Model == "" {
		return nil, configError("no whisper model: hearth models pull base.en (base for other languages)", nil)
	}
	if _, err := os.Stat(cfg.Model); err != nil {
		return nil, configError("the whisper model "+cfg.Model+" is missing: run hearth models pull base.en", err)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Threads <= 0 {
		cfg.Threads = max(runtime.NumCPU()/cfg.Workers, 1)
	}
	if cfg.Wait <= 0 {
		cfg.Wait = 2 * time.Second
	}
	logTo(cfg.Logger)
	r := &Route{cfg: cfg, model: cfg.Model, pool: make(chan engine, cfg.Workers), log: cfg.Logger}
	for range cfg.Workers {
		e, err := loadEngine(cfg.Model)
		if err != nil {
			r.Close()
			return nil, configError("the whisper model "+filepath.Base(cfg.Model)+" does not load", err)
		}
		r.english = !e.multilingual()
		r.pool <- e
	}
	return r, nil
}

// A reason with no cause behind it is the whole error: an Err made of the
// same words would print them twice in the log line.
func configError(reason string, err error) error {
	return &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: reason, Err: err}
}

// Close frees the loaded models.
func (r *Route) Close() {
	for {
		select {
		case e := <-r.pool:
			e.close()
		default:
			return
		}
	}
}

// Name implements the providers.
func (r *Route) Name() string { return Name }

// Undiarized implements stt.Undiarized: the route names no speakers.
func (r *Route) Undiarized() bool { return true }

// Model names the model file (stt_model).
func (r *Route) Model() string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(r.model), "ggml-"), ".bin")
}

// Supports implements the providers: an English model serves English; a
// multilingual one every language whisper knows and detection ("multi").
func (r *Route) Supports(language string, channels int) bool {
	if channels > 1 {
		return false
	}
	l := strings.ToLower(language)
	base, _, _ := strings.Cut(l, "-")
	if r.english {
		return base == "en"
	}
	return l == "multi" || l == "auto" || knownLanguage(base)
}

// acquire takes a free worker within the wait bound, else busy.
func (r *Route) acquire(ctx context.Context) (engine, error) {
	t := time.NewTimer(r.cfg.Wait)
	defer t.Stop()
	select {
	case e := <-r.pool:
		return e, nil
	case <-t.C:
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "busy",
			Err: errors.Join(stt.ErrBusy, errors.New("every whisper worker is busy"))}
	case <-ctx.Done():
		// No worker came free in time: this machine is busy (see ErrBusy).
		return nil, &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "timeout", Err: errors.Join(stt.ErrBusy, ctx.Err())}
	}
}

// run transcribes samples (16 kHz mono) on a worker.
func (r *Route) run(ctx context.Context, pcm []int16, language string, translate bool) ([]heard, string, error) {
	if err := r.hearing.failure(); err != nil {
		return nil, "", err
	}
	if err := r.hold(); err != nil {
		return nil, "", err
	}
	defer r.release()
	e, err := r.acquire(ctx)
	if err != nil {
		return nil, "", err
	}
	defer func() { r.pool <- e }()
	lang := strings.ToLower(language)
	if lang == "multi" || lang == "" {
		lang = "auto"
	}
	lang, _, _ = strings.Cut(lang, "-")
	f := make([]float32, len(pcm))
	for i, v := range pcm {
		f[i] = float32(v) / 32768
	}
	began := time.Now()
	segs, detected, err := e.transcribe(f, lang, translate, r.cfg.Threads)
	if err != nil {
		return nil, "", &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "decode", Err: err}
	}
	r.cfg.Meter.add(r.Model(), time.Duration(len(pcm))*time.Second/stt.SampleRate, time.Since(began))
	segs = guard(segs, pcm)
	if err := r.hearing.heard(len(segs) > 0, pcm, r.Model(), r.log); err != nil {
		return nil, "", err
	}
	if lang != "auto" && detected != "" && detected != lang && len(segs) > 0 && !translate {
		segs = r.otherLanguage(segs, lang, detected)
	}
	return segs, detected, nil
}

// otherLanguage replaces what whisper wrote of speech in another language
// than the session's by one marker segment, and logs the first time a
// language is heard in place of another.
func (r *Route) otherLanguage(segs []heard, session, heardLang string) []heard {
	if _, seen := r.otherLogged.LoadOrStore(session+">"+heardLang, true); !seen {
		r.log.Info("speech in another language than the session's: marked, not transcribed; a session opened with language=multi (or that language) transcribes it",
			"session_language", session, "heard_language", heardLang)
	}
	m := otherLanguageMarker(heardLang)
	start, end := segs[0].Start, segs[len(segs)-1].End
	return []heard{{Segment: stt.Segment{Start: start, End: end, Text: m}, words: []stt.Word{{Text: m, Start: start, End: end}}}}
}

// Unusable implements stt.Unusable: a model that yields no words on
// speech is passed over, and so is a retired route whose model is freed.
func (r *Route) Unusable() error {
	if err := r.retiredErr(); err != nil {
		return err
	}
	return r.hearing.failure()
}

// Unproven implements stt.Unproven: the model has yet to yield a word.
func (r *Route) Unproven() bool { return r.hearing.unproven() }

// errNoWordsYet is a batch job's answer from a model that has never
// yielded a word: the job goes to the next route rather than coming back
// empty from a model that may hear nothing at all.
func (r *Route) errNoWordsYet() error {
	return &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "no words from whisper model " + r.Model(),
		Err: errors.New("the whisper model has yielded no word yet, and none on this speech")}
}

// errUnheard ends a live session that drains or ends with no word on its
// speech from a model never yet proven: the session's audio goes to the
// next route (stt.HandsOverUnheard).
func (r *Route) errUnheard() error {
	return &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "no words from whisper model " + r.Model(),
		Err: fmt.Errorf("%w: none yet, and none on this session's speech", stt.ErrHearsNothing)}
}

// Transcribe implements stt.BatchProvider. The transcribe service hands
// over at most 28 s at a time, within whisper's 30 s window.
func (r *Route) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return stt.Transcript{}, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language",
			Err: fmt.Errorf("%w: %s", stt.ErrNoRoute, cfg.Language)}
	}
	segs, detected, err := r.run(ctx, pcm, cfg.Language, false)
	if err != nil {
		return stt.Transcript{}, err
	}
	if len(segs) == 0 && r.hearing.unproven() {
		return stt.Transcript{}, r.errNoWordsYet()
	}
	return transcript(segs, detected), nil
}

// TranslateToEnglish is whisper's translate task: a local translation
// route into English for any language the model knows.
func (r *Route) TranslateToEnglish(ctx context.Context, pcm []int16, language string) (stt.Transcript, error) {
	if r.english {
		return stt.Transcript{}, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "an English-only model cannot translate"}
	}
	segs, detected, err := r.run(ctx, pcm, language, true)
	if err != nil {
		return stt.Transcript{}, err
	}
	return transcript(segs, detected), nil
}

func transcript(segs []heard, detected string) stt.Transcript {
	tr := stt.Transcript{DetectedLanguage: detected}
	var texts []string
	for _, s := range segs {
		seg := s.Segment
		seg.Words = s.words
		tr.Segments = append(tr.Segments, seg)
		texts = append(texts, s.Text)
	}
	tr.Text = strings.Join(texts, " ")
	if tr.Segments == nil {
		tr.Segments = []stt.Segment{}
	}
	return tr
}

// Open implements stt.StreamingProvider (see stream.go).
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	s := &stream{r: r, language: cfg.Language, Live: vad.NewLive(vad.LiveConfig{Route: Name,
		Overloaded: "speech comes faster than it is transcribed", Queue: 500, Words: 8, Skipped: cfg.Skipped})}
	// The stream holds the route for its whole life: a retired route's
	// model stays loaded until its last stream ends.
	if err := r.hold(); err != nil {
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go s.work() // which releases the route before Words closes
	return s, nil
}
