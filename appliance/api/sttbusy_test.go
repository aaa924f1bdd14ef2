package api_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// timingOut is a route whose every job fails as the routes fail when a
// chunk's deadline (30 s and more, not waited out here) has passed: a
// local one (PocketSphinx, whisper.cpp) found no free decoder in time and
// says the machine is busy; a remote one's vendor did not answer in time.
type timingOut struct{ local bool }

func (r timingOut) Name() string              { return "route" }
func (r timingOut) Supports(string, int) bool { return true }
func (r timingOut) Transcribe(context.Context, []int16, stt.Config) (stt.Transcript, error) {
	err := context.DeadlineExceeded
	if r.local {
		err = errors.Join(stt.ErrBusy, err)
	}
	return stt.Transcript{}, &stt.Error{Outcome: stt.Timeout, Provider: r.Name(), Reason: "timeout", Err: err}
}

// TestSTTTranscribeTimeouts: a local route that times out is a busy box
// (503 with Retry-After, try again), a remote vendor's timeout a failure
// upstream (502); voice messages tell both as the reference's timeout.
func TestSTTTranscribeTimeouts(t *testing.T) {
	clips, err := realspeech.English(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "speech.wav")
	fw.Write(realspeech.WAV(clips[0].PCM))
	mw.Close()
	for _, tc := range []struct {
		name  string
		local bool
		code  int
		want  string
		retry string
	}{
		{"local route", true, http.StatusServiceUnavailable, "Speech recognition is busy; try again in 5 s", "5"},
		{"remote vendor", false, http.StatusBadGateway, "Transcription failed upstream", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnvDeps(t, func(d *api.Deps) {
				d.Transcriber = transcribe.New(slog.New(slog.DiscardHandler), timingOut{local: tc.local})
			})
			rec := e.upload("/v1/stt/transcribe", mw.FormDataContentType(), body.Bytes())
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.want) || rec.Header().Get("Retry-After") != tc.retry {
				t.Fatalf("%d %s (Retry-After %q), want %d %q (Retry-After %q)", rec.Code, rec.Body, rec.Header().Get("Retry-After"), tc.code, tc.want, tc.retry)
			}
			// A voice message in the same plight keeps the reference's
			// timeout outcome (504); the local route's adds Retry-After.
			rec = e.upload("/v2/voice-message/transcribe?language=en&sample_rate=16000", "application/octet-stream",
				realspeech.Bytes(clips[0].PCM))
			if rec.Code != http.StatusGatewayTimeout || !strings.Contains(rec.Body.String(), `"outcome":"timeout"`) || rec.Header().Get("Retry-After") != tc.retry {
				t.Fatalf("voice message: %d %s (Retry-After %q), want 504 timeout (Retry-After %q)", rec.Code, rec.Body, rec.Header().Get("Retry-After"), tc.retry)
			}
		})
	}
}

// upload posts body with the user's ID token.
func (e *env) upload(path, contentType string, body []byte) *httptest.ResponseRecorder {
	e.t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", bearer(e.token))
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}
