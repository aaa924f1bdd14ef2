package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// safeFailure is the voice endpoints' failure object: what went wrong, in
// the outcome vocabulary, with nothing of the route's own error in it.
type safeFailure struct {
	Error     string `json:"error"`
	Outcome   string `json:"outcome"`
	Provider  string `json:"provider"`
	Retryable bool   `json:"retryable"`
	Message   string `json:"message"`
}

// failureError carries a safe failure to the error handler with its status.
type failureError struct {
	status int
	body   safeFailure
}

func (e *failureError) Error() string { return e.body.Error }

// failures is each failure outcome's status, error name and message.
var failures = map[stt.Outcome]struct {
	status  int
	name    string
	message string
}{
	stt.EmptyUnexpected: {http.StatusBadGateway, "stt_empty_unexpected", "Speech was detected, but the transcription provider returned no transcript."},
	stt.Timeout:         {http.StatusGatewayTimeout, "stt_timeout", "The transcription provider timed out."},
	stt.UpstreamError:   {http.StatusBadGateway, "stt_upstream_error", "The transcription provider could not complete the request."},
	stt.ConfigError:     {http.StatusServiceUnavailable, "stt_provider_configuration_error", "The transcription provider is temporarily unavailable."},
	stt.InvalidInput:    {http.StatusBadRequest, "stt_invalid_input", "The audio input is invalid."},
}

// failureProviders are the provider names a failure may carry, as the
// Omi app knows them; any other route is "unknown".
var failureProviders = []string{"deepgram", "modulate", "parakeet", "soniox", "deepgram_cloud"}

func newFailure(o stt.Outcome, provider string) *failureError {
	f, ok := failures[o]
	if !ok {
		o, f = stt.UpstreamError, failures[stt.UpstreamError]
	}
	if !slices.Contains(failureProviders, provider) {
		provider = "unknown"
	}
	return &failureError{status: f.status, body: safeFailure{Error: f.name, Outcome: string(o), Provider: provider,
		Retryable: o.Retryable(), Message: f.message}}
}

// voiceFailure classifies a failed voice-message job.
func (s *Server) voiceFailure(c echo.Context, err error) error {
	var e *stt.Error
	switch {
	case errors.Is(err, audio.ErrInvalidAudio), errors.Is(err, transcribe.ErrTooLong):
		return newFailure(stt.InvalidInput, "")
	case errors.Is(err, stt.ErrBusy):
		// The reference's outcomes have no "busy": a local route that
		// timed out waiting for a decoder stays a timeout, any other
		// busy route an upstream error, each with a time to retry.
		c.Response().Header().Set("Retry-After", strconv.Itoa(busyRetryAfter))
		if errors.As(err, &e) && e.Outcome == stt.Timeout {
			return newFailure(stt.Timeout, "")
		}
		return newFailure(stt.UpstreamError, "")
	case errors.As(err, &e):
		s.log.Warn("voice message transcription failed", "provider", e.Provider, "outcome", e.Outcome, "err", err)
		return newFailure(e.Outcome, e.Provider)
	}
	return err
}

// voiceJob is what a voice-message request asks for.
type voiceJob struct {
	language string
	files    []string     // spooled uploads, in order (multipart)
	raw      audio.Source // raw PCM streamed from the body
}

func (j *voiceJob) cleanup() {
	for _, f := range j.files {
		os.Remove(f)
	}
	if j.raw != nil {
		j.raw.Close()
	}
}

// voiceTranscribe serves POST /v2/voice-message/transcribe: raw linear16
// PCM (application/octet-stream, with language, keywords, encoding,
// sample_rate and channels in the query) or multipart `files`. It answers
// {transcript, language?, stt_provider, stt_model, outcome}; silence is a
// 200 with an empty transcript and outcome expected_silence.
func (s *Server) voiceTranscribe(c echo.Context) error {
	job, err := s.voiceRequest(c, true)
	if err != nil {
		return err
	}
	defer job.cleanup()
	res, err := s.runVoice(c, job)
	if err != nil {
		return err
	}
	out := map[string]any{"transcript": res.Text, "stt_provider": res.Provider, "stt_model": res.Model, "outcome": string(res.Outcome)}
	if res.Outcome == stt.Success && res.DetectedLanguage != "" && job.language == "" {
		out["language"] = res.DetectedLanguage
	}
	return c.JSON(http.StatusOK, out)
}

// voiceMessages serves POST /v2/voice-messages: multipart `files` and an
// optional `language`, answered as a server-sent event stream: one
// "message: <base64 JSON>" frame with the transcribed message, an
// "error: <safe failure>" frame when transcription fails, or nothing at
// all for silence. Failures found before transcribing are plain non-2xx
// replies.
func (s *Server) voiceMessages(c echo.Context) error {
	job, err := s.voiceRequest(c, false)
	if err != nil {
		return err
	}
	defer job.cleanup()
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	w.Flush()
	res, err := s.runVoice(c, job)
	if err != nil {
		var fe *failureError
		if !errors.As(err, &fe) {
			s.log.Error("voice message", "err", err)
			fe = newFailure(stt.UpstreamError, "")
		}
		b, _ := json.Marshal(fe.body)
		io.WriteString(w, "error: "+string(b)+"\n\n")
		w.Flush()
		return nil
	}
	if res.Outcome == stt.ExpectedSilence {
		return nil
	}
	msg, _ := json.Marshal(map[string]any{"id": uuid.NewString(), "text": res.Text, "created_at": s.now().UTC(),
		"sender": "human", "type": "text", "memories_id": []string{}, "plugin_id": nil, "from_external_integration": false})
	io.WriteString(w, "message: "+base64.StdEncoding.EncodeToString(msg)+"\n\n")
	w.Flush()
	return nil
}

// runVoice checks the daily budget, transcribes the job's recordings in
// order, and charges what was heard.
func (s *Server) runVoice(c echo.Context, job *voiceJob) (transcribe.Result, error) {
	ctx := c.Request().Context()
	opt := transcribe.Options{Language: job.language, MaxDuration: s.cfg.STTMaxDuration}
	var sources []func() (audio.Source, error)
	if job.raw != nil {
		sources = append(sources, func() (audio.Source, error) { return job.raw, nil })
	}
	for _, f := range job.files {
		sources = append(sources, func() (audio.Source, error) { return audio.OpenFile(f) })
	}
	total := transcribe.Result{Outcome: stt.ExpectedSilence}
	var texts []string
	for _, open := range sources {
		src, err := open()
		if err != nil {
			return total, s.voiceFailure(c, err)
		}
		res, err := s.transcriber.Transcribe(ctx, src, opt)
		if src != job.raw {
			src.Close()
		}
		if err != nil {
			return total, s.voiceFailure(c, err)
		}
		total.Duration += res.Duration
		if res.Outcome == stt.Success {
			total.Outcome, total.Provider, total.Model = stt.Success, res.Provider, res.Model
			total.DetectedLanguage = res.DetectedLanguage
			texts = append(texts, res.Text)
		}
	}
	total.Text = strings.Join(texts, " ")
	if err := s.voiceBudget.Charge(context.WithoutCancel(ctx), userID(c), total.Duration); err != nil {
		s.log.Error("charge the transcription budget", "err", err)
	}
	return total, nil
}

// voiceRequest reads a voice-message request: the budget first, then raw
// PCM (when raw is allowed and the body is application/octet-stream) or
// multipart files.
func (s *Server) voiceRequest(c echo.Context, raw bool) (*voiceJob, error) {
	if s.transcriber == nil {
		return nil, newFailure(stt.ConfigError, "")
	}
	if err := s.voiceBudget.Check(c.Request().Context(), userID(c)); errors.Is(err, transcribe.ErrBudgetExhausted) {
		return nil, appliance.Errorf(appliance.ERATELIMIT, "Daily transcription budget exhausted")
	} else if err != nil {
		return nil, err
	}
	if c.Request().ContentLength > maxUploadBytes {
		return nil, tooLarge()
	}
	s.allowLongRequest(c)
	ct := c.Request().Header.Get(echo.HeaderContentType)
	if raw && strings.HasPrefix(ct, "application/octet-stream") {
		return s.rawVoice(c)
	}
	if !strings.HasPrefix(ct, echo.MIMEMultipartForm) {
		if raw {
			return nil, errBadRequest("Send raw PCM as application/octet-stream or files as multipart/form-data")
		}
		return nil, errBadRequest("Expected a multipart/form-data body")
	}
	job := &voiceJob{language: c.QueryParam("language")}
	err := s.eachPart(c, maxUploadBytes, func(p *multipart.Part) error {
		switch p.FormName() {
		case "files":
			if p.FileName() == "" {
				return errBadRequest("Each uploaded file must have a filename")
			}
			path, err := s.spoolUpload(p)
			if err != nil {
				return err
			}
			job.files = append(job.files, path)
		case "language":
			v, err := io.ReadAll(io.LimitReader(p, 32))
			if err != nil {
				return errBadRequest("Malformed multipart body")
			}
			job.language = strings.TrimSpace(string(v))
		}
		return nil
	})
	if err != nil {
		job.cleanup()
		return nil, err
	}
	if len(job.files) == 0 {
		return nil, errBadRequest("No files provided")
	}
	return job, nil
}

// rawVoice reads the query of a raw PCM voice message; the body is
// streamed into the recognizer as it arrives.
func (s *Server) rawVoice(c echo.Context) (*voiceJob, error) {
	ve := &appliance.ValidationError{}
	q := c.QueryParams()
	rate, channels := 16000, 1
	if v := q.Get("sample_rate"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 8000 || n > 48000 {
			ve.Add("value_error", "sample_rate must be between 8000 and 48000", "query", "sample_rate")
		}
		rate = n
	}
	if v := q.Get("channels"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 2 {
			ve.Add("value_error", "channels must be 1 or 2", "query", "channels")
		}
		channels = n
	}
	if enc := q.Get("encoding"); enc != "" && enc != "linear16" {
		ve.Add("value_error", "encoding must be linear16", "query", "encoding")
	}
	if kw := q.Get("keywords"); kw != "" {
		var seen []string
		for _, k := range strings.Split(kw, ",") {
			k = strings.TrimSpace(k)
			if len(k) < 2 || len(k) > 80 {
				ve.Add("value_error", "each keyword must be 2 to 80 characters", "query", "keywords")
				break
			}
			if !slices.Contains(seen, k) {
				seen = append(seen, k)
			}
		}
		if len(seen) > 100 {
			ve.Add("value_error", "at most 100 keywords", "query", "keywords")
		}
	}
	if len(ve.Fields) > 0 {
		return nil, ve
	}
	// Peek: an empty body is refused before anything is transcribed.
	body := http.MaxBytesReader(c.Response(), c.Request().Body, maxUploadBytes)
	first := make([]byte, 2)
	n, err := io.ReadFull(body, first)
	if n == 0 {
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, bodyError(err)
		}
		return nil, errBadRequest("No audio data provided")
	}
	src, err := audio.NewRawPCM(io.MultiReader(bytes.NewReader(first[:n]), maxBytesAsTooLarge{body}), rate, channels)
	if err != nil {
		return nil, newFailure(stt.InvalidInput, "")
	}
	return &voiceJob{language: q.Get("language"), raw: src}, nil
}

// maxBytesAsTooLarge reports a body over the limit as invalid audio input,
// mid-stream, where no status can be chosen any more.
type maxBytesAsTooLarge struct{ r io.Reader }

func (m maxBytesAsTooLarge) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return n, errors.Join(audio.ErrInvalidAudio, err)
	}
	return n, err
}

// noBudget is no daily budget.
type noBudget struct{}

func (noBudget) Check(context.Context, string) error                 { return nil }
func (noBudget) Charge(context.Context, string, time.Duration) error { return nil }
