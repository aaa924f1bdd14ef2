//go:build whisper && cgo

package localstt

import (
	"errors"
	"io"
	"strings"

	whisper "github.com/ggerganov/whisper.cpp/bindings/go/pkg/whisper"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Available reports whether this build has whisper.cpp.
const Available = true

// cgoEngine is one loaded model. whisper.cpp's context is not safe for two
// transcriptions at once, so the route holds one per worker.
type cgoEngine struct{ m whisper.Model }

func loadEngine(path string) (engine, error) {
	m, err := whisper.New(path)
	if err != nil {
		return nil, err
	}
	return &cgoEngine{m: m}, nil
}

func (e *cgoEngine) multilingual() bool { return e.m.IsMultilingual() }

func (e *cgoEngine) close() { e.m.Close() }

func (e *cgoEngine) transcribe(pcm []float32, language string, translate bool, threads int) ([]heard, string, error) {
	ctx, err := e.m.NewContext()
	if err != nil {
		return nil, "", err
	}
	// An English-only model takes no language (the bindings refuse one).
	if e.m.IsMultilingual() {
		if err := ctx.SetLanguage(language); err != nil {
			return nil, "", err
		}
	}
	ctx.SetTranslate(translate)
	ctx.SetThreads(uint(threads))
	ctx.SetTokenTimestamps(true)
	ctx.SetMaxContext(0) // no text carried in: each call stands alone
	ctx.SetTemperature(0)
	if err := ctx.Process(pcm, nil, nil, nil); err != nil {
		return nil, "", err
	}
	var segs []heard
	for {
		s, err := ctx.NextSegment()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, "", err
		}
		segs = append(segs, heard{Segment: stt.Segment{Start: s.Start.Seconds(), End: s.End.Seconds(), Text: strings.TrimSpace(s.Text)},
			words: tokenWords(ctx, s.Tokens)})
	}
	return segs, ctx.DetectedLanguage(), nil
}

// tokenWords joins a segment's text tokens into words with whisper's
// token times: a token that starts with a space starts a word.
func tokenWords(ctx whisper.Context, tokens []whisper.Token) []stt.Word {
	var out []stt.Word
	for _, t := range tokens {
		if !ctx.IsText(t) || t.Text == "" {
			continue
		}
		if n := len(out); n > 0 && !strings.HasPrefix(t.Text, " ") {
			out[n-1].Text += t.Text
			out[n-1].End = t.End.Seconds()
			continue
		}
		out = append(out, stt.Word{Text: strings.TrimSpace(t.Text), Start: t.Start.Seconds(), End: t.End.Seconds()})
	}
	return out
}
