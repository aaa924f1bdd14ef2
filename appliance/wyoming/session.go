package wyoming

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// session is one connection's state: the transcription asked for and the
// audio received so far, already 16 kHz mono.
type session struct {
	s   *Server
	ctx context.Context
	w   io.Writer

	language string
	dec      audio.Decoder
	pcm      []int16
}

// audioFormat is audio-start's and audio-chunk's data.
type audioFormat struct {
	Rate     int `json:"rate"`
	Width    int `json:"width"`
	Channels int `json:"channels"`
}

// handle answers one event; false closes the connection.
func (x *session) handle(ev Event) bool {
	switch ev.Type {
	case "describe":
		return x.send("info", x.s.info())
	case "ping":
		// Always an object: readers take a missing data as null.
		pong := map[string]json.RawMessage{}
		if text, ok := ev.Data["text"]; ok {
			pong["text"] = text
		}
		return x.send("pong", pong)
	case "transcribe":
		var d struct {
			Language string `json:"language"`
		}
		if err := ev.Decode(&d); err != nil {
			return x.fail(err.Error(), CodeMalformed)
		}
		x.reset()
		x.language = d.Language
		return true
	case "audio-start":
		var f audioFormat
		if err := ev.Decode(&f); err != nil {
			return x.fail(err.Error(), CodeMalformed)
		}
		x.dropAudio()
		return x.start(f)
	case "audio-chunk":
		if x.dec == nil {
			// A client that skips audio-start: the chunk says the format.
			var f audioFormat
			if err := ev.Decode(&f); err != nil {
				return x.fail(err.Error(), CodeMalformed)
			}
			if !x.start(f) {
				return false
			}
		}
		pcm, err := x.dec.Decode(x.pcm, ev.Payload)
		if err != nil {
			return x.fail("Audio chunk not decodable: "+err.Error(), CodeAudio)
		}
		x.pcm = pcm
		if len(x.pcm) > x.s.maxSamples() {
			return x.fail(fmt.Sprintf("Audio too long (max %s)", x.s.MaxAudio), CodeTooLarge)
		}
		return true
	case "audio-stop":
		return x.transcribe()
	}
	// Events for other services (wake words, speech synthesis) are not
	// ours to answer; the protocol lets a peer ignore them.
	return true
}

// start begins an audio stream in format f: 16-bit samples, one or two
// channels, any rate the audio package resamples from.
func (x *session) start(f audioFormat) bool {
	if f.Width != 2 {
		return x.fail(fmt.Sprintf("Sample width %d not supported (2 bytes only)", f.Width), CodeAudio)
	}
	dec, err := audio.NewDecoder(audio.Format{Codec: audio.PCM16, SampleRate: f.Rate, Channels: f.Channels})
	if err != nil {
		return x.fail("Audio format not supported: "+err.Error(), CodeAudio)
	}
	x.dec = dec
	return true
}

// transcribe runs the batch service over what came since audio-start and
// answers the transcript, or an error event and the end of the connection:
// Home Assistant reads on until a transcript or the end, so an error event
// alone would leave it waiting.
func (x *session) transcribe() bool {
	pcm, lang := x.pcm, x.language
	x.reset()
	res, err := x.s.Transcriber.Transcribe(x.ctx, &samples{pcm: pcm}, transcribe.Options{Language: lang, MaxDuration: x.s.MaxAudio})
	if err != nil {
		return x.fail(x.s.describeErr(err))
	}
	data := map[string]any{"text": res.Text}
	if res.DetectedLanguage != "" {
		data["language"] = res.DetectedLanguage
	}
	return x.send("transcript", data)
}

// describeErr maps a failed job as /v1/stt/transcribe does, to an error
// event's text and code.
func (s *Server) describeErr(err error) (string, string) {
	var e *stt.Error
	switch {
	case errors.Is(err, transcribe.ErrTooLong):
		return fmt.Sprintf("Audio too long (max %s)", s.MaxAudio), CodeTooLarge
	case errors.Is(err, stt.ErrBusy):
		return "Transcription is busy; try again shortly", CodeBusy
	case errors.Is(err, stt.ErrNoRoute):
		return "Transcription service not configured", CodeNoRoute
	case errors.As(err, &e) && e.Outcome == stt.ConfigError:
		s.Logger.Warn("speech route not usable", "provider", e.Provider, "err", err)
		return "Transcription service not configured: " + e.Reason, CodeNoRoute
	}
	s.Logger.Warn("wyoming transcription failed", "err", err)
	return "Transcription failed", CodeFailed
}

// fail sends an error event and ends the connection.
func (x *session) fail(text, code string) bool {
	x.send("error", errorData(text, code))
	return false
}

func (x *session) send(typ string, data any) bool {
	if c, ok := x.w.(interface{ SetWriteDeadline(time.Time) error }); ok {
		c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	}
	return Write(x.w, typ, data, nil) == nil
}

func (x *session) dropAudio() {
	if x.dec != nil {
		x.dec.Close()
		x.dec = nil
	}
	x.pcm = nil
}

func (x *session) reset() {
	x.dropAudio()
	x.language = ""
}

func (s *Server) maxSamples() int {
	if s.MaxAudio <= 0 {
		return int(DefaultMaxAudio.Seconds()) * audio.Rate
	}
	return int(s.MaxAudio.Seconds() * audio.Rate)
}

// DefaultMaxAudio is one transcription's audio when Server.MaxAudio is 0:
// far past a spoken command, small enough to hold in memory.
const DefaultMaxAudio = 5 * time.Minute

// samples is received audio as an audio.Source.
type samples struct {
	pcm []int16
	off int
}

func (p *samples) Read(dst []int16) (int, error) {
	if p.off >= len(p.pcm) {
		return 0, io.EOF
	}
	n := copy(dst, p.pcm[p.off:])
	p.off += n
	return n, nil
}

func (p *samples) Duration() time.Duration {
	return time.Duration(len(p.pcm)) * time.Second / audio.Rate
}
func (p *samples) Format() string { return fmt.Sprintf("wyoming pcm16 %d Hz mono", audio.Rate) }
func (p *samples) Close() error   { return nil }
