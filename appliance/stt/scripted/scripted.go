// Package scripted is a speech route for tests: it hears where speech is
// (by energy) but not what is said, and "recognises" each burst of speech
// as the next utterance of a script, timed to the burst. It makes the
// session, fallback and failure paths testable end to end with real audio
// and no model. It is wired only when HEARTH_STT_SCRIPT names a script.
package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Script is what the route says and how it misbehaves.
type Script struct {
	// Name is the provider name reported to clients (default "scripted").
	Name string `json:"name"`
	// Languages it serves (default ["en"]).
	Languages []string `json:"languages"`
	// Utterances are recognised in order, one per burst of speech; after
	// the last, the script starts again.
	Utterances []Utterance `json:"utterances"`
	// OpenFailures: the first n Open calls fail (connection-time errors).
	OpenFailures int `json:"open_failures"`
	// ConfigError makes every Open fail as not deployable (config_error).
	ConfigError bool `json:"config_error"`
	// FailAfterUtterances: after recognising n utterances the stream fails
	// (a provider lost mid-session); 0 never fails.
	FailAfterUtterances int `json:"fail_after_utterances"`
	// BatchFailure makes every batch job fail as: timeout, upstream_error,
	// config_error, busy, or empty (speech heard, no words returned).
	BatchFailure string `json:"batch_failure"`
	// HearDelayMS makes a live stream a recognizer slower than the audio:
	// each utterance's words (and a drain's barrier) come this long after
	// the ones before, from a queue, as a busy machine's would.
	HearDelayMS int `json:"hear_delay_ms"`
	// QueueRoom bounds a live stream's heard batches not yet handed on
	// (0: 64). A drain that finds no room for what it adds says
	// stt.ErrDrainBusy, as the local routes do when their queue is full.
	QueueRoom int `json:"queue_room"`
}

// Utterance is one recognised stretch of speech.
type Utterance struct {
	Text    string `json:"text"`
	Speaker int    `json:"speaker"`
}

// Load reads a script from a JSON file.
func Load(path string) (*Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read stt script: %w", err)
	}
	var s Script
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("parse stt script %s: %w", path, err)
	}
	if len(s.Utterances) == 0 {
		return nil, fmt.Errorf("stt script %s has no utterances", path)
	}
	return &s, nil
}

// Provider implements stt.StreamingProvider.
type Provider struct {
	s     Script
	mu    sync.Mutex
	opens int
	said  int // utterances recognised by batch jobs: a recording's chunks continue the script
}

// New returns a provider that follows s.
func New(s Script) *Provider {
	if s.Name == "" {
		s.Name = "scripted"
	}
	if len(s.Languages) == 0 {
		s.Languages = []string{"en"}
	}
	return &Provider{s: s}
}

// Name implements stt.StreamingProvider.
func (p *Provider) Name() string { return p.s.Name }

// Supports implements stt.StreamingProvider.
func (p *Provider) Supports(language string, channels int) bool {
	return slices.Contains(p.s.Languages, language)
}

// Open implements stt.StreamingProvider.
func (p *Provider) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	return p.open(true)
}

// open opens a stream; a live one hears as slowly as the script says.
func (p *Provider) open(live bool) (stt.Stream, error) {
	if p.s.ConfigError {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: p.s.Name, Reason: "not_deployable", Err: errors.New("scripted config error")}
	}
	p.mu.Lock()
	p.opens++
	fail := p.opens <= p.s.OpenFailures
	p.mu.Unlock()
	if fail {
		return nil, &stt.Error{Outcome: stt.UpstreamError, Provider: p.s.Name, Reason: "connect_failed", Err: errors.New("scripted connection failure")}
	}
	room := 64
	if p.s.QueueRoom > 0 && live {
		room = p.s.QueueRoom
	}
	st := &stream{p: p, words: make(chan []stt.Word, room)}
	st.out = st.words
	if d := time.Duration(p.s.HearDelayMS) * time.Millisecond; live && d > 0 {
		st.out = make(chan []stt.Word)
		go st.slowly(d)
	}
	return st, nil
}

// slowly hands each batch on d after the one before.
func (s *stream) slowly(d time.Duration) {
	defer close(s.out)
	for ws := range s.words {
		time.Sleep(d)
		s.out <- ws
	}
}

// Transcribe implements stt.BatchProvider: the recording is fed through a
// stream, and each burst of sound is the script's next utterance.
func (p *Provider) Transcribe(ctx context.Context, pcm []int16, cfg stt.Config) (stt.Transcript, error) {
	if err := p.batchFailure(ctx); err != nil {
		return stt.Transcript{}, err
	}
	st, err := p.open(false)
	if err != nil {
		return stt.Transcript{}, err
	}
	s := st.(*stream)
	s.words = make(chan []stt.Word, len(pcm)/block+2) // room for every burst
	p.mu.Lock()
	s.said = p.said
	p.mu.Unlock()
	if err := s.Send(pcm); err != nil {
		return stt.Transcript{}, err
	}
	s.Close()
	p.mu.Lock()
	p.said = s.said
	p.mu.Unlock()
	tr := stt.Transcript{DetectedLanguage: cfg.Language}
	var texts []string
	for ws := range s.words {
		if len(ws) == 0 {
			continue
		}
		var text []string
		for _, w := range ws {
			text = append(text, w.Text)
		}
		seg := stt.Segment{Start: ws[0].Start, End: ws[len(ws)-1].End, Text: strings.Join(text, " ")}
		if cfg.Diarize {
			seg.Speaker = fmt.Sprintf("SPEAKER_%02d", ws[0].Speaker)
		}
		tr.Segments = append(tr.Segments, seg)
		texts = append(texts, seg.Text)
	}
	tr.Text = strings.Join(texts, " ")
	if p.s.BatchFailure == "empty" {
		return stt.Transcript{DetectedLanguage: cfg.Language}, nil
	}
	return tr, s.Err()
}

func (p *Provider) batchFailure(ctx context.Context) error {
	e := &stt.Error{Provider: p.s.Name, Reason: p.s.BatchFailure}
	switch p.s.BatchFailure {
	case "", "empty":
		return nil
	case "timeout":
		<-ctx.Done() // as a route that never answers
		e.Outcome, e.Err = stt.Timeout, ctx.Err()
	case "upstream_error":
		e.Outcome, e.Err = stt.UpstreamError, errors.New("scripted upstream error")
	case "config_error":
		e.Outcome, e.Err = stt.ConfigError, errors.New("scripted config error")
	case "busy":
		e.Outcome, e.Err = stt.UpstreamError, fmt.Errorf("scripted: %w", stt.ErrBusy)
	default:
		e.Outcome, e.Err = stt.UpstreamError, fmt.Errorf("unknown batch_failure %q", p.s.BatchFailure)
	}
	return e
}

// Energy detection over 20 ms blocks at 16 kHz.
const (
	block        = stt.SampleRate / 50
	speechRMS    = 500.0 // int16 units: well above the synthesiser's silence
	minSpeechBlk = 5     // 100 ms of speech makes a burst
	endSilentBlk = 20    // 400 ms of silence ends it
)

// stream hears bursts in Send itself, not on a worker behind a queue as
// the real local routes do (vad.Live): a test then knows that the words
// of a burst, and a scripted failure, come from the Send that ended it.
type stream struct {
	p       *Provider
	words   chan []stt.Word // what it heard
	out     chan []stt.Word // Words: words, or words HearDelayMS late
	mu      sync.Mutex
	pending []int16
	pos     int // samples consumed
	inBurst bool
	start   int // burst start, samples
	speech  int // speech blocks in the burst
	silent  int // silent blocks since the last speech
	said    int // utterances recognised
	err     error
	closed  bool
}

func (s *stream) Send(pcm []int16) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("stream closed")
	}
	if s.err != nil {
		return s.err
	}
	s.pending = append(s.pending, pcm...)
	for len(s.pending) >= block {
		s.step(rms(s.pending[:block]))
		s.pending = s.pending[block:]
		s.pos += block
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

func (s *stream) step(level float64) {
	if level >= speechRMS {
		if !s.inBurst {
			s.inBurst, s.start, s.speech = true, s.pos, 0
		}
		s.speech++
		s.silent = 0
		return
	}
	if !s.inBurst {
		return
	}
	s.silent++
	if s.silent >= endSilentBlk {
		s.emit(s.pos - (s.silent-1)*block)
	}
}

// emit recognises the burst that ended at end (samples).
func (s *stream) emit(end int) {
	s.inBurst = false
	if s.speech < minSpeechBlk {
		return
	}
	u := s.p.s.Utterances[s.said%len(s.p.s.Utterances)]
	s.said++
	fields := strings.Fields(u.Text)
	t0, t1 := float64(s.start)/stt.SampleRate, float64(end)/stt.SampleRate
	per := (t1 - t0) / float64(max(len(fields), 1))
	ws := make([]stt.Word, len(fields))
	for i, f := range fields {
		ws[i] = stt.Word{Text: f, Start: t0 + float64(i)*per, End: t0 + float64(i+1)*per, Speaker: u.Speaker}
	}
	select {
	case s.words <- ws:
	default: // a consumer that stopped reading loses words, as a network would
	}
	if n := s.p.s.FailAfterUtterances; n > 0 && s.said >= n {
		s.err = &stt.Error{Outcome: stt.UpstreamError, Provider: s.p.s.Name, Reason: "connection_lost", Err: errors.New("scripted mid-stream failure")}
		s.finish()
	}
}

func (s *stream) finish() {
	if !s.closed {
		s.closed = true
		close(s.words)
	}
}

func (s *stream) Words() <-chan []stt.Word { return s.out }

// Backlog implements stt.Backlogged: batches heard and not handed on yet.
func (s *stream) Backlog() int { return len(s.words) }

func (s *stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Drain implements stt.Drainer: a burst in progress is recognised now,
// and an empty batch follows its words.
func (s *stream) Drain() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return errors.New("stream closed")
	}
	need := 1 // the barrier
	if s.inBurst {
		need++
	}
	if cap(s.words)-len(s.words) < need {
		return stt.ErrDrainBusy
	}
	if s.inBurst {
		s.emit(s.pos)
		if s.closed { // the script failed the stream on this utterance
			return s.err
		}
	}
	s.words <- []stt.Word{}
	return nil
}

func (s *stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inBurst && s.err == nil {
		s.emit(s.pos)
	}
	s.finish()
	return nil
}

func rms(x []int16) float64 {
	var sum float64
	for _, v := range x {
		sum += float64(v) * float64(v)
	}
	return math.Sqrt(sum / float64(len(x)))
}
