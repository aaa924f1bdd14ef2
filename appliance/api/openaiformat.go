package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// writeTranscript answers in the response_format the client asked for, or
// as server-sent events when it asked to stream.
func writeTranscript(c echo.Context, req audioRequest, task string, res transcribe.Result) error {
	if req.stream {
		return streamTranscript(c, res)
	}
	switch req.format {
	case "text":
		return c.String(http.StatusOK, res.Text+"\n")
	case "srt":
		return c.Blob(http.StatusOK, "application/x-subrip; charset=utf-8", []byte(srt(res.Segments)))
	case "vtt":
		return c.Blob(http.StatusOK, "text/vtt; charset=utf-8", []byte(vtt(res.Segments)))
	case "verbose_json":
		return c.JSON(http.StatusOK, verbose(task, res, req.words))
	}
	return c.JSON(http.StatusOK, map[string]any{"text": res.Text})
}

// verboseSegment is a segment of verbose_json: the fields the routes
// give. OpenAI's decoder statistics (tokens, avg_logprob…) are left out
// rather than made up.
type verboseSegment struct {
	ID    int     `json:"id"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
}

// verboseWord is a word of verbose_json's words (timestamp_granularities
// word).
type verboseWord struct {
	Word  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// verbose is verbose_json; withWords adds the words with their times, as
// far as the route that heard them kept them (the local routes do; a
// remote one that gives only segments adds none).
func verbose(task string, res transcribe.Result, withWords bool) map[string]any {
	lang := res.DetectedLanguage
	if task == taskTranslate {
		lang = "en"
	}
	out := map[string]any{
		"task":     task,
		"language": languageName(lang),
		"duration": math.Round(res.Duration.Seconds()*100) / 100,
		"text":     res.Text,
	}
	segs := make([]verboseSegment, len(res.Segments))
	words := []verboseWord{}
	for i, s := range res.Segments {
		segs[i] = verboseSegment{ID: i, Start: s.Start, End: s.End, Text: s.Text}
		for _, w := range s.Words {
			words = append(words, verboseWord{Word: w.Text, Start: math.Round(w.Start*100) / 100, End: math.Round(w.End*100) / 100})
		}
	}
	out["segments"] = segs
	if withWords {
		out["words"] = words
	}
	return out
}

// languageName is the English name OpenAI gives in verbose_json
// ("english"), for the common codes; others stay codes.
func languageName(code string) string {
	names := map[string]string{"en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian",
		"pt": "portuguese", "nl": "dutch", "ru": "russian", "ja": "japanese", "zh": "chinese", "ko": "korean", "pl": "polish"}
	base, _, _ := strings.Cut(strings.ToLower(code), "-")
	if n, ok := names[base]; ok {
		return n
	}
	return code
}

// srt is SubRip: numbered cues, HH:MM:SS,mmm.
func srt(segs []stt.Segment) string {
	var b strings.Builder
	for i, s := range segs {
		fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, cueTime(s.Start, ','), cueTime(s.End, ','), s.Text)
	}
	return b.String()
}

// vtt is WebVTT: a header, then cues with HH:MM:SS.mmm.
func vtt(segs []stt.Segment) string {
	var b strings.Builder
	b.WriteString("WEBVTT\n\n")
	for _, s := range segs {
		fmt.Fprintf(&b, "%s --> %s\n%s\n\n", cueTime(s.Start, '.'), cueTime(s.End, '.'), s.Text)
	}
	return b.String()
}

// cueTime formats seconds as HH:MM:SS followed by sep and milliseconds,
// rounded to the millisecond (hours may pass 99 on a very long file).
func cueTime(sec float64, sep byte) string {
	ms := int64(math.Round(max(sec, 0) * 1000))
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, sep, ms%1000)
}

// eventStream writes OpenAI's transcription events as server-sent events:
// a transcript.text.delta per segment, then transcript.text.done. The
// response opens at the first event, so a job that fails before any text
// still answers with a status and OpenAI's error JSON.
type eventStream struct {
	c       echo.Context
	started bool
	gone    bool // the client went away; the job runs on to its end
	n       int  // deltas sent
}

func (e *eventStream) send(ev any) {
	if e.gone {
		return
	}
	w := e.c.Response()
	if !e.started {
		e.started = true
		w.Header().Set(echo.HeaderContentType, "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
	}
	b, err := json.Marshal(ev)
	if err == nil {
		_, err = fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if err != nil {
		e.gone = true
		return
	}
	w.Flush()
}

// delta sends a segment's text, spaced from the one before.
func (e *eventStream) delta(seg stt.Segment) {
	text := seg.Text
	if e.n > 0 {
		text = " " + text
	}
	e.n++
	e.send(map[string]any{"type": "transcript.text.delta", "delta": text})
}

func (e *eventStream) done(text string) {
	e.send(map[string]any{"type": "transcript.text.done", "text": text})
}

// fail ends a stream that has started with an error event, which OpenAI's
// clients raise as an API error.
func (e *eventStream) fail(oe *openaiError) {
	e.send(map[string]any{"type": "error", "error": map[string]any{
		"message": oe.message, "type": oe.typ, "param": nullable(oe.param), "code": nullable(oe.code)}})
}

// streamTranscript streams a finished job: its segments, then the text.
func streamTranscript(c echo.Context, res transcribe.Result) error {
	e := &eventStream{c: c}
	for _, seg := range res.Segments {
		e.delta(seg)
	}
	e.done(res.Text)
	return nil
}
