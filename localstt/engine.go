//go:build whisper && cgo

package localstt

/*
#include <whisper.h>
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"strings"
	"unsafe"

	whisper "github.com/ggerganov/whisper.cpp/bindings/go"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Available reports whether this build has whisper.cpp.
const Available = true

// cgoEngine is one loaded model. whisper.cpp's context is not safe for two
// transcriptions at once, so the route holds one per worker. It uses the
// bindings' low-level package: the high-level one hides the context, and
// with it each segment's no-speech probability, which the guard needs.
type cgoEngine struct{ ctx *whisper.Context }

func loadEngine(path string) (engine, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	ctx := whisper.Whisper_init(path)
	if ctx == nil {
		return nil, fmt.Errorf("whisper.cpp could not load %s", path)
	}
	return &cgoEngine{ctx: ctx}, nil
}

func (e *cgoEngine) multilingual() bool { return e.ctx.Whisper_is_multilingual() != 0 }

func (e *cgoEngine) close() { e.ctx.Whisper_free() }

func (e *cgoEngine) transcribe(pcm []float32, language string, translate bool, threads int) ([]heard, string, error) {
	if len(pcm) == 0 {
		return nil, "", nil
	}
	p := e.ctx.Whisper_full_default_params(whisper.SAMPLING_GREEDY)
	// An English-only model takes no language.
	if e.multilingual() {
		id := -1 // auto
		if language != "auto" {
			if id = e.ctx.Whisper_lang_id(language); id < 0 {
				return nil, "", fmt.Errorf("whisper does not know the language %q", language)
			}
		}
		if err := p.SetLanguage(id); err != nil {
			return nil, "", err
		}
	}
	p.SetTranslate(translate)
	p.SetThreads(max(threads, 1))
	p.SetTokenTimestamps(true)
	p.SetMaxContext(0) // no text carried in: each call stands alone
	p.SetNoContext(true)
	p.SetTemperature(0)
	p.SetPrintProgress(false)
	p.SetPrintRealtime(false)
	p.SetPrintTimestamps(false)
	if err := e.ctx.Whisper_full(p, pcm, nil, nil, nil); err != nil {
		return nil, "", err
	}
	n := e.ctx.Whisper_full_n_segments()
	segs := make([]heard, 0, n)
	for i := range n {
		// Segment and token times are in centiseconds.
		s := heard{Segment: stt.Segment{
			Start: float64(e.ctx.Whisper_full_get_segment_t0(i)) / 100,
			End:   float64(e.ctx.Whisper_full_get_segment_t1(i)) / 100,
			Text:  strings.TrimSpace(e.ctx.Whisper_full_get_segment_text(i)),
		}}
		s.noSpeech = e.noSpeechProb(i)
		s.words, s.logProb = e.words(i)
		segs = append(segs, s)
	}
	detected := ""
	if id := e.ctx.Whisper_full_lang_id(); id >= 0 {
		detected = whisper.Whisper_lang_str(id)
	}
	// Told a language, whisper reports that language: ask the model what
	// it hears (one more pass of the encoder, only when there is text).
	if e.multilingual() && language != "auto" && len(segs) > 0 {
		if probs, err := e.ctx.Whisper_lang_auto_detect(0, max(threads, 1)); err == nil {
			if other := otherLanguage(probs, language, whisper.Whisper_lang_str); other != "" {
				detected = other
			}
		}
	}
	return segs, detected, nil
}

// noSpeechProb is the decoder's probability that segment i holds no
// speech at all (its <|nospeech|> token at the window's start).
func (e *cgoEngine) noSpeechProb(i int) float64 {
	c := (*C.struct_whisper_context)(unsafe.Pointer(e.ctx))
	return float64(C.whisper_full_get_segment_no_speech_prob(c, C.int(i)))
}

// words joins segment i's text tokens into words with whisper's token
// times (a token that starts with a space starts a word), and returns the
// mean log-probability of those tokens.
func (e *cgoEngine) words(i int) ([]stt.Word, float64) {
	eot := e.ctx.Whisper_token_eot()
	var out []stt.Word
	var sum float64
	var n int
	for k := range e.ctx.Whisper_full_n_tokens(i) {
		d := e.ctx.Whisper_full_get_token_data(i, k)
		if d.Id() >= eot { // special tokens: timestamps, sot, eot, language
			continue
		}
		sum += math.Log(max(float64(e.ctx.Whisper_full_get_token_p(i, k)), 1e-10))
		n++
		text := e.ctx.Whisper_full_get_token_text(i, k)
		if text == "" {
			continue
		}
		start, end := float64(d.T0())/100, float64(d.T1())/100
		if m := len(out); m > 0 && !strings.HasPrefix(text, " ") {
			out[m-1].Text += text
			out[m-1].End = end
			continue
		}
		out = append(out, stt.Word{Text: strings.TrimSpace(text), Start: start, End: end})
	}
	if n == 0 {
		return out, 0
	}
	return out, sum / float64(n)
}
