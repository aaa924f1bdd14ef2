// Package stt is speech-to-text as the appliance consumes it: the
// streaming and batch provider interfaces, the outcome vocabulary every
// route reports in, and the Router that picks a provider for a session
// (ordered routes per language and channel count, connection-time retry and
// fallback, and no silent replacement once audio has flowed).
package stt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// SampleRate is what every provider is fed: 16-bit mono PCM at the
// appliance's one rate.
const SampleRate = audio.Rate

// Word is one recognised word, timed in seconds from the stream's start.
type Word struct {
	Text    string
	Start   float64
	End     float64
	Speaker int // diarised speaker number; 0 when the route does not diarise
	// Provider is the route that heard the word when it is not the one
	// the stream opened on (a stream handed over to the next route); ""
	// is the stream's own.
	Provider string
}

// Config describes a stream or a batch job.
type Config struct {
	Language string // a code such as "en", or "multi" for detection
	Channels int
	Diarize  bool
	// Skipped, when set, lets a live stream that falls behind skip to live
	// audio instead of failing: its Send returns an error wrapping
	// ErrBehind when it starts skipping (the stream stays open), and each
	// stretch it skipped is handed to Skipped once live audio is decoded
	// again (or the stream ends). The caller keeps the audio and
	// transcribes the stretch itself. Skipped is called from the route's
	// goroutine and must not block. Nil keeps the old contract: a stream
	// that falls too far behind fails as overloaded.
	Skipped func(Skip)
}

// Skip is a stretch of a live stream's audio its route did not transcribe
// because it fell behind: samples [From, To) of the stream (16 kHz).
type Skip struct {
	From, To int
}

// ErrBehind is wrapped by a live stream's Send when the route falls behind
// and starts skipping audio (see Config.Skipped): nothing failed, the
// stream goes on with live audio.
var ErrBehind = errors.New("speech route behind: skipping to live audio")

// Stream is one live transcription.
type Stream interface {
	// Send feeds PCM (16 kHz mono). It must not block for long: a provider
	// buffers or drops, never stalls the socket.
	Send(pcm []int16) error
	// Words delivers finalised words; it is closed when the stream ends.
	// After it closes, Err tells whether the stream failed.
	Words() <-chan []Word
	// Err is the terminal failure, or nil after a clean Close.
	Err() error
	// Close flushes what the provider still holds and ends the stream.
	Close() error
}

// Drainer is a stream that can hear out what it was sent without ending:
// Drain ends the utterance in progress as a pause would, and once the words
// of all audio sent before the call are on Words, an empty batch follows
// them there as a barrier (routes never send an empty batch otherwise).
// Drain does not wait for the recognizer. The local routes implement it; a
// live session drains when audio stops arriving and before its recording
// is processed, so that the last words said are never left inside the
// recognizer.
type Drainer interface {
	Drain() error
}

// Backlogged is a stream that can say how much it holds still to hear
// (audio events or utterances queued for its recognizer). Once a
// connection has ended, a session waits for a stream's last words as long
// as they keep coming or this keeps shrinking: a recognizer with a small
// share of a busy machine may need minutes for what it holds, and what it
// holds was said.
type Backlogged interface {
	Backlog() int
}

// ErrDrainBusy is returned by Drain when the stream's queue has no room
// for the end of the utterance: nothing was changed, and the words come
// as the queue empties.
var ErrDrainBusy = errors.New("stream queue full: drain later")

// StreamingProvider opens live streams.
type StreamingProvider interface {
	Name() string
	// Supports reports whether the provider serves the language with that
	// many channels.
	Supports(language string, channels int) bool
	Open(ctx context.Context, cfg Config) (Stream, error)
}

// Segment is a stretch of a batch transcript.
type Segment struct {
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Text    string  `json:"text"`
	Speaker string  `json:"speaker,omitempty"`
	// Words are the segment's words with their times, where the route
	// keeps them (the local routes do); not on the wire of
	// /v1/stt/transcribe, whose segments the reference gives without.
	Words []Word `json:"-"`
}

// Transcript is a batch result.
type Transcript struct {
	Text             string    `json:"text"`
	Segments         []Segment `json:"segments"`
	DetectedLanguage string    `json:"detected_language"`
}

// Undiarized is implemented by a provider whose words never name a speaker
// (every word is speaker 0): local recognizers and plain transcription
// servers. A live session then tells voices apart itself.
type Undiarized interface {
	Undiarized() bool
}

// BatchProvider transcribes whole recordings.
type BatchProvider interface {
	Name() string
	Supports(language string, channels int) bool
	Transcribe(ctx context.Context, pcm []int16, cfg Config) (Transcript, error)
}

// Outcome is the transcription outcome vocabulary of the contract.
type Outcome string

// Outcomes.
const (
	Success         Outcome = "success"
	ExpectedSilence Outcome = "expected_silence"
	EmptyUnexpected Outcome = "empty_unexpected"
	Timeout         Outcome = "timeout"
	UpstreamError   Outcome = "upstream_error"
	ConfigError     Outcome = "config_error"
	InvalidInput    Outcome = "invalid_input"
)

// Retryable reports whether trying again later may succeed.
func (o Outcome) Retryable() bool {
	return o == EmptyUnexpected || o == Timeout || o == UpstreamError
}

// Error is a classified provider failure. Its Reason is safe to show a
// client; Err (the provider's own error) is for the log only.
type Error struct {
	Outcome  Outcome
	Provider string
	Reason   string
	Err      error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("stt %s: %s", e.Provider, e.Outcome)
	if e.Reason != "" {
		s += " (" + e.Reason + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Classify returns err as an *Error, classifying an unclassified one as an
// upstream error of provider (a context deadline as a timeout).
func Classify(err error, provider string) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Outcome: Timeout, Provider: provider, Reason: "timeout", Err: err}
	}
	return &Error{Outcome: UpstreamError, Provider: provider, Reason: "upstream_error", Err: err}
}

// normLanguage folds the spellings clients use ("auto" means detection).
func normLanguage(l string) string {
	l = strings.ToLower(strings.TrimSpace(l))
	if l == "" {
		return "en"
	}
	if l == "auto" {
		return "multi"
	}
	return l
}

// Languages returns a Supports function for a fixed list; "multi" in the
// list serves detection.
func Languages(langs ...string) func(language string, channels int) bool {
	return func(language string, channels int) bool {
		return slices.Contains(langs, normLanguage(language))
	}
}

// ErrBusy is wrapped by a route that cannot take more work right now (its
// workers are all busy, or its model is still loading): the caller may
// answer "try again shortly" instead of waiting without bound. A local
// route whose deadline passed while it waited for a free decoder wraps it
// too (its outcome stays Timeout): the machine is busy, nothing upstream
// failed.
var ErrBusy = errors.New("speech route busy")

// OtherLanguage begins the text a local route gives an utterance in
// another language than the session's, in place of its words:
// "[speech in another language]", or "[speech in another language: fr]"
// where the route can name it.
const OtherLanguage = "[speech in another language"

// IsOtherLanguage reports whether text is one such marker.
func IsOtherLanguage(text string) bool {
	return strings.HasPrefix(text, OtherLanguage) && strings.HasSuffix(text, "]") && !strings.Contains(text[1:], "[")
}

// Modeler is a route that can name its model (stt_model in replies).
type Modeler interface {
	Model() string
}
