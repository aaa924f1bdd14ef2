package api

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
)

// sttSurface is OpenAI's speech API on the appliance: a device key of the
// stt family, or the owner's ID token. OpenAI clients always send
// "Bearer KEY".
var sttSurface = surface{
	accepts: []appliance.PrincipalKind{appliance.PrincipalSTT, appliance.PrincipalIDToken},
	missing: msgMissingBearer, invalid: msgInvalidKey,
	wrongFamily: map[appliance.PrincipalKind]string{
		appliance.PrincipalDev: msgDevKeyUsage + " " + msgNeedsSTTKey,
		appliance.PrincipalMCP: msgMCPKeyUsage + " " + msgNeedsSTTKey,
	},
}

const msgNeedsSTTKey = "This endpoint requires a speech key (hearth keys create --kind stt)."

// defaultModels are the model names OpenAI clients send by default; they
// mean the appliance's routes in their configured order.
var defaultModels = []string{"whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe", "default"}

// openaiAudioRoutes registers OpenAI's transcription and translation
// endpoints, with the rules of /v1/stt/transcribe (size, rate, busy).
func (s *Server) openaiAudioRoutes(e *echo.Echo) {
	for path, task := range map[string]string{"/v1/audio/transcriptions": taskTranscribe, "/v1/audio/translations": taskTranslate} {
		e.POST(path, s.openaiAudio(task), s.openaiErrors, s.require(sttSurface, ""), s.limit(PolicySTTTranscribe))
	}
}

const (
	taskTranscribe = "transcribe"
	taskTranslate  = "translate"
)

// audioRequest is a parsed request of OpenAI's speech API.
type audioRequest struct {
	path, model, language, prompt string
	format                        string
	stream                        bool
	words                         bool // timestamp_granularities[] names word
}

func (s *Server) openaiAudio(task string) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.transcriber == nil {
			return appliance.Errorf(appliance.EUNAVAILABLE, "Transcription service not configured")
		}
		if c.Request().ContentLength > maxUploadBytes {
			return tooLarge()
		}
		s.allowLongRequest(c)
		req, err := s.parseAudioRequest(c)
		if req.path != "" {
			defer os.Remove(req.path)
		}
		if err != nil {
			return err
		}
		src, err := audio.OpenFile(req.path)
		if err != nil {
			return audioError(err)
		}
		defer src.Close()
		opt := transcribe.Options{Language: req.language, MaxDuration: s.cfg.STTMaxDuration}
		if !slices.Contains(defaultModels, req.model) {
			opt.Route = req.model
		}
		var res transcribe.Result
		var live *eventStream
		if task == taskTranslate {
			// Not streamed as heard: the language is known only at the end.
			res, err = s.translate(c, src, opt)
		} else {
			if req.stream {
				live = &eventStream{c: c}
				opt.OnSegment = live.delta
			}
			res, err = s.transcriber.Transcribe(c.Request().Context(), src, opt)
		}
		if oe := (*openaiError)(nil); err != nil && !errors.As(err, &oe) {
			err = s.openaiBatchError(c, err)
		}
		switch {
		case err != nil && live != nil && live.started:
			live.fail(s.asOpenAIError(err, c))
			return nil
		case err != nil:
			return err
		case live != nil:
			live.done(res.Text)
			return nil
		}
		return writeTranscript(c, req, task, res)
	}
}

// translate answers with English text. No route translates, so English
// speech is transcribed, and speech a route hears as another language is
// refused rather than passed off as a translation.
func (s *Server) translate(c echo.Context, src audio.Source, opt transcribe.Options) (transcribe.Result, error) {
	opt.Language = "multi" // a route that detects the language tells us what it heard
	res, err := s.transcriber.Transcribe(c.Request().Context(), src, opt)
	if errors.Is(err, stt.ErrNoRoute) {
		// Only English routes: nothing was read yet, so the same source
		// goes to them.
		opt.Language = "en"
		res, err = s.transcriber.Transcribe(c.Request().Context(), src, opt)
	}
	if err != nil {
		return res, err
	}
	if l := strings.ToLower(res.DetectedLanguage); l != "" && l != "multi" && l != "en" && !strings.HasPrefix(l, "en-") && l != "english" {
		return res, &openaiError{status: http.StatusBadRequest, typ: typeInvalidRequest, param: "file", code: "unsupported_language",
			message: "The speech is in " + res.DetectedLanguage + " and no speech route of this appliance translates; " +
				"only English speech can be answered here. Use /v1/audio/transcriptions for a transcript in its own language."}
	}
	return res, nil
}

// openaiBatchError maps a failed job as /v1/stt/transcribe does, and an
// unknown model to OpenAI's model error.
func (s *Server) openaiBatchError(c echo.Context, err error) error {
	if errors.Is(err, transcribe.ErrUnknownRoute) {
		return &openaiError{status: http.StatusBadRequest, typ: typeInvalidRequest, param: "model", code: "model_not_found",
			message: "The model does not exist here: name a speech route or its model, or whisper-1 for the routes in their order."}
	}
	return s.batchError(c, err)
}

// parseAudioRequest reads the multipart form, spooling the file.
func (s *Server) parseAudioRequest(c echo.Context) (audioRequest, error) {
	req := audioRequest{format: "json"}
	var grains []string
	var temperature string
	err := s.eachPart(c, maxUploadBytes, func(p *multipart.Part) error {
		name := p.FormName()
		if name == "file" {
			if req.path != "" {
				return nil
			}
			var err error
			req.path, err = s.spoolUpload(p)
			return err
		}
		v, err := io.ReadAll(io.LimitReader(p, 4096))
		if err != nil {
			return errBadRequest("Malformed multipart body")
		}
		val := strings.TrimSpace(string(v))
		switch name {
		case "model":
			req.model = val
		case "language":
			req.language = val
		case "prompt":
			req.prompt = val // accepted; no route takes a prompt
		case "temperature":
			temperature = val
		case "response_format":
			req.format = val
		case "timestamp_granularities[]", "timestamp_granularities":
			grains = append(grains, val)
		case "stream":
			req.stream = val == "true"
		}
		return nil
	})
	if err != nil {
		return req, err
	}
	if req.path == "" {
		return req, paramError("file", "Missing required parameter: 'file'.")
	}
	if st, err := os.Stat(req.path); err == nil && st.Size() == 0 {
		return req, paramError("file", "The audio file is empty.")
	}
	if !slices.Contains([]string{"json", "text", "srt", "vtt", "verbose_json"}, req.format) {
		return req, paramError("response_format", "Unsupported response_format: "+strconv.Quote(req.format)+
			"; expected json, text, srt, verbose_json or vtt.")
	}
	if temperature != "" {
		if t, err := strconv.ParseFloat(temperature, 64); err != nil || t < 0 || t > 1 {
			return req, paramError("temperature", "temperature must be a number between 0 and 1.")
		}
	}
	for _, g := range grains {
		if g != "word" && g != "segment" {
			return req, paramError("timestamp_granularities", "Unsupported timestamp granularity: "+strconv.Quote(g)+"; expected word or segment.")
		}
	}
	if len(grains) > 0 && req.format != "verbose_json" {
		return req, paramError("timestamp_granularities", "timestamp_granularities requires response_format verbose_json.")
	}
	req.words = slices.Contains(grains, "word")
	return req, nil
}
