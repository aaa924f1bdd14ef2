package api

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// SpeechProfiles records and reads the owner's voice (appliance/speaker).
type SpeechProfiles interface {
	Upload(ctx context.Context, userID, wavPath string) (*appliance.SpeechProfile, error)
	Get(ctx context.Context, userID string) (*appliance.SpeechProfile, error)
	Delete(ctx context.Context, userID string) error
}

// PolicySpeechProfile bounds profile uploads per user.
var PolicySpeechProfile = Policy{"speech:profile", 20, time.Hour}

// maxProfileBytes is the largest profile recording part: 180 s of 16 kHz
// stereo 16-bit WAV is 11.5 MB; the reference allows 50 MB.
const maxProfileBytes = 50 << 20

// POST /v3/upload-audio: a multipart `file`, a 16 kHz WAV of 5–180 s of the
// owner speaking. 200 {url}; 400 for audio that is not that; 503 when the
// voice cannot be embedded or stored.
func (s *Server) uploadSpeechProfile(c echo.Context) error {
	if c.Request().ContentLength > maxProfileBytes {
		return appliance.Errorf(appliance.ETOOLARGE, "Body too large (max %d bytes)", maxProfileBytes)
	}
	var path string
	err := s.eachPart(c, maxProfileBytes, func(p *multipart.Part) error {
		if p.FormName() != "file" || path != "" {
			return nil
		}
		var err error
		path, err = s.spoolUpload(io.LimitReader(p, maxProfileBytes))
		return err
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
	if _, err := s.profiles.Upload(c.Request().Context(), userID(c), path); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"url": s.profileAudioURL(c)})
}

func (s *Server) profileAudioURL(c echo.Context) string {
	return s.public.Base(c.Request()) + "/v3/speech-profile/audio"
}

// GET /v3/speech-profile: {has_profile}.
func (s *Server) hasSpeechProfile(c echo.Context) error {
	_, err := s.profiles.Get(c.Request().Context(), userID(c))
	if err != nil && appliance.ErrorCode(err) != appliance.ENOTFOUND {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"has_profile": err == nil})
}

// GET /v4/speech-profile: {url} of the profile's recording, null without one.
func (s *Server) speechProfileURL(c echo.Context) error {
	_, err := s.profiles.Get(c.Request().Context(), userID(c))
	switch {
	case appliance.ErrorCode(err) == appliance.ENOTFOUND:
		return c.JSON(http.StatusOK, map[string]any{"url": nil})
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"url": s.profileAudioURL(c)})
}

// GET /v3/speech-profile/status: whether there is a profile, how much
// speech it holds and which extractor made it.
func (s *Server) speechProfileStatus(c echo.Context) error {
	p, err := s.profiles.Get(c.Request().Context(), userID(c))
	switch {
	case appliance.ErrorCode(err) == appliance.ENOTFOUND:
		return c.JSON(http.StatusOK, map[string]any{"has_profile": false})
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"has_profile": true, "duration_seconds": p.Seconds,
		"extractor": p.Extractor, "updated_at": p.UpdatedAt})
}

// GET /v3/speech-profile/audio: the profile's trimmed speech, WAV.
func (s *Server) speechProfileAudio(c echo.Context) error {
	p, err := s.profiles.Get(c.Request().Context(), userID(c))
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "audio/wav", p.Audio)
}

// DELETE /v3/speech-profile: 204; live sessions no longer know the voice.
func (s *Server) deleteSpeechProfile(c echo.Context) error {
	if err := s.profiles.Delete(c.Request().Context(), userID(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
