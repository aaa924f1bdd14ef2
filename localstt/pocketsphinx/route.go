package pocketsphinx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// Name is the route's name in replies and logs.
const Name = "pocketsphinx"

// DefaultModelDir is where Debian's pocketsphinx-en-us installs the model.
const DefaultModelDir = "/usr/share/pocketsphinx/model/en-us"

// Config locates the model and bounds the work.
type Config struct {
	// ModelDir holds en-us/ (the acoustic model), en-us.lm.bin and
	// cmudict-en-us.dict.
	ModelDir string
	// Decoders is how many utterances are decoded at once (default: one
	// per CPU); each holds its own copy of the model, about 80 MB (the
	// library offers no way to share one: see hs_init). The pool loads
	// them as they are needed (see acquire), not all at once.
	Decoders int
	// GrowAfter is how long an utterance waits for a busy decoder before
	// another is loaded for it. Zero (the default) never loads one for a
	// wait alone, only when more utterances wait than there are decoders:
	// a waiter waits at most one decode, and two live sessions share one
	// model.
	GrowAfter time.Duration
	// MaxStreams bounds the live streams: past it, Open fails as busy so
	// that the router falls back, instead of every session falling behind
	// (default: 4 per decoder).
	MaxStreams int
	// IdleAfter frees a decoder nobody has used for this long (default 5
	// minutes): each holds the whole model, about 80 MB, and an appliance
	// is idle most of the day. The next stream or utterance loads one
	// again.
	IdleAfter time.Duration
	// Logger is where the route says, once, that it marks speech in
	// another language (default slog.Default()).
	Logger *slog.Logger
}

// Route is the PocketSphinx speech route. It is safe for concurrent use.
type Route struct {
	cfg     Config
	pool    chan idle // idle decoders
	mu      sync.Mutex
	made    int           // decoders loaded or loading, at most cfg.Decoders
	loading int           // loads under way
	waiting int           // utterances waiting for a decoder
	changed chan struct{} // closed (and replaced) when a load ends or decoders are freed
	streams int
	stop    chan struct{}
	reaped  sync.WaitGroup
	lang    languageLog
}

// idle is a decoder waiting in the pool, and since when.
type idle struct {
	d     decoder
	since time.Time
}

// decoder decodes one utterance (16 kHz mono), given whole, into words
// timed from its start. PocketSphinx then normalises the utterance's
// cepstra by its own mean, and each utterance starts from the decoder's
// state as loaded: the same audio gives the same words whichever pooled
// decoder hears it and whatever that decoder heard before (a batch job
// or another session's stream).
type decoder interface {
	decode(pcm []int16) (utterance, error)
	close()
}

// New checks that the model is installed, without loading it: a missing
// model or a build without PocketSphinx is a config_error at start-up. A
// decoder holds about 80 MB; loading one only to check it made start-up
// take a second of CPU, and glibc kept ~11 MB of the freed model for the
// life of the process (other threads' allocations pin its pages). A live
// stream's Open loads a decoder in the background while the speaker's
// first words arrive; a model that is present but unreadable fails that
// load, and the router falls back as for any failing route.
func New(cfg Config) (*Route, error) {
	if cfg.ModelDir == "" {
		cfg.ModelDir = DefaultModelDir
	}
	if cfg.Decoders <= 0 {
		// A decoder is held while an utterance is decoded, which is all
		// CPU: a second one per core would let two utterances that end
		// together start together, but each would then run at half speed
		// and finish no sooner than in turn, for another ~80 MB held (two
		// per CPU made four live sessions on 2 cores hold 433 MiB).
		cfg.Decoders = runtime.NumCPU()
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = 4 * cfg.Decoders
	}
	if !Available {
		return nil, configError("PocketSphinx is not built in: install libpocketsphinx-dev and pocketsphinx-en-us and run make build", nil)
	}
	if err := checkModel(cfg.ModelDir); err != nil {
		return nil, configError(fmt.Sprintf("the PocketSphinx English model is missing in %s: install pocketsphinx-en-us", cfg.ModelDir), err)
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = 5 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &Route{cfg: cfg, pool: make(chan idle, cfg.Decoders), changed: make(chan struct{}), stop: make(chan struct{}),
		lang: languageLog{log: cfg.Logger}}
	r.reaped.Add(1)
	go r.reapIdle()
	return r, nil
}

// modelFiles are the files a decoder reads, relative to the model
// directory (Debian's pocketsphinx-en-us layout).
var modelFiles = []string{"en-us.lm.bin", "cmudict-en-us.dict", "en-us/mdef", "en-us/means", "en-us/variances",
	"en-us/transition_matrices", "en-us/feat.params", "en-us/noisedict"}

// checkModel reports the first model file that is missing, empty or not
// a regular file.
func checkModel(dir string) error {
	for _, f := range modelFiles {
		path := filepath.Join(dir, f)
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		if !st.Mode().IsRegular() || st.Size() == 0 {
			return fmt.Errorf("%s: not a model file (empty or not a regular file)", path)
		}
	}
	return nil
}

// warm loads a decoder in the background when none is loaded, so that a
// stream that has just opened finds one ready by the end of its first
// utterance (a load takes about a second of CPU) instead of waiting for
// it then.
func (r *Route) warm() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.made == 0 {
		r.grow()
	}
}

// grow starts loading another decoder in the background, into the pool;
// false when it may not (cfg.Decoders are loaded or loading, or the route
// is closed). The caller holds mu.
func (r *Route) grow() bool {
	if r.made >= r.cfg.Decoders {
		return false
	}
	select {
	case <-r.stop: // Close waits for the loads it has seen start
		return false
	default:
	}
	r.made++
	r.loading++
	r.reaped.Add(1)
	go func() {
		defer r.reaped.Done()
		// A failed load is reported by the next utterance that finds
		// none loaded, as it loads one itself.
		r.load(true)
	}()
	return true
}

// load loads a decoder that made and loading already count, timing it,
// and into the pool when pooled; a failed load is uncounted. Either way
// the waiters look again, once the decoder is in the pool (else one
// could see neither it there nor a load under way, and load another).
func (r *Route) load(pooled bool) (decoder, error) {
	d, err := newDecoder(r.cfg.ModelDir)
	if err == nil && pooled {
		r.release(d)
	}
	r.mu.Lock()
	r.loading--
	if err != nil {
		r.made--
	}
	r.signal()
	r.mu.Unlock()
	return d, err
}

// signal wakes the waiters to look again. The caller holds mu.
func (r *Route) signal() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// reapIdle frees decoders left idle for cfg.IdleAfter, until Close.
func (r *Route) reapIdle() {
	defer r.reaped.Done()
	tick := time.NewTicker(max(r.cfg.IdleAfter/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-r.stop:
			return
		case now := <-tick.C:
			r.freeIdle(now)
		}
	}
}

// freeIdle closes the pool's decoders idle since before now-IdleAfter and
// puts the others back.
func (r *Route) freeIdle(now time.Time) {
	// Under mu: acquire looks at the pool and the count under it too, so
	// it never waits on a pool this has just emptied of decoders it frees.
	r.mu.Lock()
	defer r.mu.Unlock()
	var keep []idle
	freed := 0
	for done := false; !done; {
		select {
		case it := <-r.pool:
			if now.Sub(it.since) >= r.cfg.IdleAfter {
				it.d.close()
				freed++
			} else {
				keep = append(keep, it)
			}
		default:
			done = true
		}
	}
	r.made -= freed
	if freed > 0 {
		r.signal()
	}
	for _, it := range keep {
		r.pool <- it
	}
}

// Loaded reports how many decoders hold the model now.
func (r *Route) Loaded() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.made
}

func configError(reason string, err error) error {
	if err == nil {
		err = errors.New(reason)
	}
	return &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: reason, Err: err}
}

// Name implements stt.StreamingProvider and stt.BatchProvider.
func (r *Route) Name() string { return Name }

// Undiarized implements stt.Undiarized: the route names no speakers.
func (r *Route) Undiarized() bool { return true }

// Model names the model for replies (stt_model).
func (r *Route) Model() string { return "en-us" }

// Supports implements the providers: English, one channel. (The model is
// wideband; narrow-band audio reaches it upsampled to 16 kHz.)
func (r *Route) Supports(language string, channels int) bool {
	l := strings.ToLower(language)
	return channels <= 1 && (l == "en" || strings.HasPrefix(l, "en-"))
}

// MaxStreams is how many live streams the route runs at once: the
// sessions' stream accounting keeps one of them for the owner.
func (r *Route) MaxStreams() int { return r.cfg.MaxStreams }

// Close frees the decoders.
func (r *Route) Close() {
	// Under mu: warm checks stop under it before it starts a load, so no
	// load begins after this and r.reaped.Wait sees every one.
	r.mu.Lock()
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	r.mu.Unlock()
	r.reaped.Wait()
	for {
		select {
		case it := <-r.pool:
			it.d.close()
		default:
			return
		}
	}
}

// acquire takes an idle decoder; when none is idle, it waits for one
// rather than load another. A decoder holds about 80 MB until it idles
// out, and a waiter waits at most the one decode in progress (a quarter
// to a third of the utterance's length on a free core): so two live
// sessions share one decoder, their segments at worst one decode late
// when their phrases end together. Another is loaded (up to
// cfg.Decoders) when more utterances wait than there are decoders loaded
// and loading, since some would then wait two decodes or more (a third
// session, a batch upload's utterances using the cores), or when one has
// waited cfg.GrowAfter, for an owner who would rather spend the memory.
// With none loaded, the utterance loads one itself and reports a load
// that fails.
func (r *Route) acquire(ctx context.Context) (decoder, error) {
	select {
	case it := <-r.pool:
		return it.d, nil
	default:
	}
	since := time.Now()
	r.mu.Lock()
	waiting := false // counted in r.waiting
	defer func() {
		if waiting {
			r.mu.Lock()
			r.waiting--
			r.mu.Unlock()
		}
	}()
	for {
		select {
		case it := <-r.pool:
			r.mu.Unlock()
			return it.d, nil
		default:
		}
		if r.made == 0 {
			if waiting {
				waiting = false
				r.waiting--
			}
			r.made++
			r.loading++
			r.mu.Unlock()
			d, err := r.load(false)
			if err != nil {
				var e *stt.Error
				if errors.As(err, &e) { // the library is missing: config_error
					return nil, err
				}
				return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "decoder", Err: err}
			}
			return d, nil
		}
		if !waiting {
			waiting = true
			r.waiting++
		}
		// More wait than there are decoders loaded and loading: some
		// would wait two decodes.
		for r.waiting > r.made && r.grow() {
		}
		var timer *time.Timer
		var timeout <-chan time.Time
		if grow := r.cfg.GrowAfter; grow > 0 {
			if left := grow - time.Since(since); left > 0 {
				timer = time.NewTimer(left)
				timeout = timer.C
			} else if r.loading == 0 {
				// A load under way is as near as any new one: waiting
				// long loads no second one beside it.
				r.grow()
			}
		}
		changed := r.changed
		r.mu.Unlock()
		select {
		case it := <-r.pool:
			stopTimer(timer)
			return it.d, nil
		case <-changed:
		case <-timeout:
		case <-ctx.Done():
			stopTimer(timer)
			// No decoder came free in time: this machine is busy, which
			// is no fault of the route's; callers answer "try again".
			return nil, &stt.Error{Outcome: stt.Timeout, Provider: Name, Reason: "timeout", Err: errors.Join(stt.ErrBusy, ctx.Err())}
		}
		stopTimer(timer)
		r.mu.Lock()
	}
}

func stopTimer(t *time.Timer) {
	if t != nil {
		t.Stop()
	}
}

func (r *Route) release(d decoder) { r.pool <- idle{d, time.Now()} }

// decodeUtterance decodes one utterance and shifts its words to stream
// time.
func (r *Route) decodeUtterance(ctx context.Context, u vad.Utterance, lang *language) ([]stt.Word, error) {
	d, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	heard, err := d.decode(u.PCM)
	r.release(d)
	if err != nil {
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "decode", Err: err}
	}
	words := r.heard(heard, lang)
	off := float64(u.Start) / stt.SampleRate
	for i := range words {
		words[i].Start += off
		words[i].End += off
	}
	return words, nil
}

// Transcribe implements stt.BatchProvider: the recording's utterances, one
// segment each.
func (r *Route) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return stt.Transcript{}, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language",
			Err: fmt.Errorf("%w: %s", stt.ErrNoRoute, cfg.Language)}
	}
	var v vad.VAD
	utts := v.Push(pcm)
	if u, ok := v.Flush(); ok {
		utts = append(utts, u)
	}
	tr := stt.Transcript{DetectedLanguage: "en", Segments: []stt.Segment{}}
	var (
		texts []string
		lang  language
	)
	for _, u := range utts {
		words, err := r.decodeUtterance(ctx, u, &lang)
		if err != nil {
			return stt.Transcript{}, err
		}
		if len(words) == 0 {
			continue
		}
		seg := stt.Segment{Start: words[0].Start, End: words[len(words)-1].End, Text: text(words), Words: words}
		tr.Segments = append(tr.Segments, seg)
		texts = append(texts, seg.Text)
	}
	tr.Text = strings.Join(texts, " ")
	return tr, nil
}
