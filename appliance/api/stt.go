package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// Transcriber turns whole recordings into transcripts (appliance/transcribe).
type Transcriber interface {
	Transcribe(ctx context.Context, src audio.Source, opt transcribe.Options) (transcribe.Result, error)
}

// VoiceBudget is the per-user daily allowance of voice-message audio.
type VoiceBudget interface {
	Check(ctx context.Context, userID string) error
	Charge(ctx context.Context, userID string, d time.Duration) error
}

// Upload limits. An upload is streamed to a file under DATA/tmp, never
// held whole in memory.
const (
	maxUploadBytes = 200_000_000
	// uploadTimeout is how long an upload's body may take: 200 MB over a
	// slow home link (2 Mbit/s) takes about 13 minutes.
	uploadTimeout = 20 * time.Minute
	// busyRetryAfter is what a client is told to wait while a speech
	// route is busy or loading its model.
	busyRetryAfter = 5
)

// Per-user rate policies of the transcription endpoints (the reference's).
var (
	PolicySTTTranscribe   = Policy{"stt:transcribe", 60, time.Hour}
	PolicyVoiceTranscribe = Policy{"voice:transcribe", 60, time.Hour}
	PolicyVoiceMessage    = Policy{"voice:message", 60, time.Hour}
)

// sttTranscribe serves POST /v1/stt/transcribe: a multipart `file` (WAV or
// Ogg Opus; other containers where the build reads them) and `diarize`
// (default true). It answers {text, segments, detected_language}.
func (s *Server) sttTranscribe(c echo.Context) error {
	if s.transcriber == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "Transcription service not configured")
	}
	if c.Request().ContentLength > maxUploadBytes {
		return tooLarge()
	}
	s.allowLongRequest(c)
	diarize := true
	var path string
	err := s.eachPart(c, maxUploadBytes, func(p *multipart.Part) error {
		switch p.FormName() {
		case "file":
			if path != "" {
				return nil // one recording per request; later ones are ignored
			}
			var err error
			path, err = s.spoolUpload(p)
			return err
		case "diarize":
			v, err := io.ReadAll(io.LimitReader(p, 16))
			if err != nil {
				return errBadRequest("Malformed multipart body")
			}
			b, err := strconv.ParseBool(strings.TrimSpace(string(v)))
			if err != nil {
				return errUnprocessable("bool_parsing", "Input should be a valid boolean, unable to interpret input", "body", "diarize")
			}
			diarize = b
		}
		return nil
	})
	if path != "" {
		defer os.Remove(path)
	}
	if err != nil {
		return err
	}
	if path == "" {
		return errUnprocessable("missing", "Field required", "body", "file")
	}
	if st, err := os.Stat(path); err == nil && st.Size() == 0 {
		return errBadRequest("No audio data provided")
	}
	src, err := audio.OpenFile(path)
	if err != nil {
		return audioError(err)
	}
	defer src.Close()
	res, err := s.transcriber.Transcribe(c.Request().Context(), src,
		transcribe.Options{Diarize: diarize, MaxDuration: s.cfg.STTMaxDuration})
	if err != nil {
		return s.batchError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"text": res.Text, "segments": res.Segments, "detected_language": res.DetectedLanguage})
}

// eachPart streams a multipart body part by part, refusing it with 413
// once more than limit bytes have been read: a chunked body has no
// Content-Length to check up front, and a per-part cap would let many
// parts add up past it.
func (s *Server) eachPart(c echo.Context, limit int64, fn func(*multipart.Part) error) error {
	r := c.Request()
	r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
	mr, err := r.MultipartReader()
	if err != nil {
		return errBadRequest("Expected a multipart/form-data body")
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return bodyError(err)
		}
		err = fn(p)
		p.Close()
		if err != nil {
			return err
		}
	}
}

// spoolUpload copies one part to a private temporary file, at most
// maxUploadBytes of it.
func (s *Server) spoolUpload(p io.Reader) (string, error) {
	dir := filepath.Join(s.cfg.DataDir, "tmp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("make upload folder: %w", err)
	}
	f, err := os.CreateTemp(dir, "upload-*") // 0600
	if err != nil {
		return "", fmt.Errorf("make upload file: %w", err)
	}
	n, err := io.Copy(f, io.LimitReader(p, maxUploadBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		os.Remove(f.Name())
		return "", bodyError(err)
	case n > maxUploadBytes:
		os.Remove(f.Name())
		return "", tooLarge()
	}
	return f.Name(), nil
}

// allowLongRequest gives an upload its own body deadline and room to be
// transcribed, beyond the server-wide bounds meant for JSON requests.
func (s *Server) allowLongRequest(c echo.Context) {
	rc := http.NewResponseController(c.Response().Writer)
	rc.SetReadDeadline(time.Now().Add(uploadTimeout))
	rc.SetWriteDeadline(time.Now().Add(uploadTimeout + s.cfg.STTMaxDuration + time.Minute))
}

func tooLarge() error {
	return appliance.Errorf(appliance.ETOOLARGE, "Body too large (max %d bytes)", maxUploadBytes)
}

// bodyError is a body that could not be read: a client that went away or
// trickled past its deadline.
func bodyError(err error) error {
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		return appliance.Errorf(appliance.ETOOLARGE, "Body too large (max %d bytes)", mbe.Limit)
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return echo.NewHTTPError(http.StatusRequestTimeout)
	}
	return errBadRequest("Malformed multipart body")
}

func audioError(err error) error {
	if errors.Is(err, audio.ErrInvalidAudio) {
		return errBadRequest("Invalid audio file: " + strings.TrimPrefix(err.Error(), audio.ErrInvalidAudio.Error()+": "))
	}
	return err
}

// batchError maps a failed job of /v1/stt/transcribe to its status: 413
// over the duration limit, 503 (with Retry-After) while a route is busy (a
// local route that found no free decoder before its deadline too) or when
// none is configured, 502 when a route failed.
func (s *Server) batchError(c echo.Context, err error) error {
	var e *stt.Error
	switch {
	case errors.Is(err, transcribe.ErrTooLong):
		return appliance.Errorf(appliance.ETOOLARGE, "Audio too long (max %s)", s.cfg.STTMaxDuration)
	case errors.Is(err, audio.ErrInvalidAudio):
		return audioError(err)
	case errors.Is(err, stt.ErrBusy):
		// Before the route's own error: a local route that timed out
		// waiting for a decoder says so with ErrBusy, and the box being
		// busy is no upstream failure.
		c.Response().Header().Set("Retry-After", strconv.Itoa(busyRetryAfter))
		return appliance.Errorf(appliance.EUNAVAILABLE, "Speech recognition is busy; try again in %d s", busyRetryAfter)
	case errors.Is(err, stt.ErrNoRoute):
		return appliance.Errorf(appliance.EUNAVAILABLE, "Transcription service not configured")
	case errors.As(err, &e) && e.Outcome == stt.ConfigError:
		s.log.Warn("speech route not usable", "provider", e.Provider, "err", err)
		return appliance.Errorf(appliance.EUNAVAILABLE, "Transcription service not configured: %s", e.Reason)
	case errors.Is(err, stt.ErrHearsNothing) && errors.As(err, &e):
		return appliance.Errorf(appliance.EUPSTREAM, "Transcription failed upstream: %s", e.Reason)
	case errors.As(err, &e):
		s.log.Warn("transcription failed", "provider", e.Provider, "outcome", e.Outcome, "err", err)
		return appliance.Errorf(appliance.EUPSTREAM, "Transcription failed upstream")
	}
	return err
}
