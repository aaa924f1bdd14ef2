package api

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// Text integrations, with the reference's bounds: 1 to 100,000 characters,
// and a conversation five minutes long unless finished_at says otherwise.
const (
	maxTextChars       = 100_000
	defaultTextSeconds = 300
)

var textSources = []string{"audio_transcript", "message", "other_text"}

// POST /v1/dev/user/conversations {text, text_source?, text_source_spec?,
// started_at?, finished_at?, language?, geolocation?}: a conversation from
// plain text (a note, a message thread, a transcript from elsewhere). It is
// a text integration, so it is never discarded.
func (s *Server) createFromText(c echo.Context) error {
	ctx, done := s.announceSave(c)
	defer done()
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	req := &fromSegmentsRequest{Source: appliance.SourceExternalIntegration, Language: "en", Role: appliance.RoleAmbient}
	text, _ := f.str("text", true)
	source := "other_text"
	if ts, ok := f.enum("text_source", textSources); ok {
		source = ts
	}
	spec, _ := f.str("text_source_spec", false)
	if lang, ok := f.str("language", false); ok && lang != "" {
		req.Language = lang
	}
	if t, ok := f.datetime("started_at"); ok {
		req.StartedAt = &t
	}
	if t, ok := f.datetime("finished_at"); ok {
		req.FinishedAt = &t
	}
	if g, ok := f.object("geolocation"); ok {
		req.Geolocation = parseGeolocation(newFields(g, v, "body", "geolocation"))
	}
	if err := v.Err(); err != nil {
		return err
	}
	switch n := len([]rune(text)); {
	case len(trimmed(text)) == 0:
		return errUnprocessable("value_error", "text cannot be empty", "body", "text")
	case n > maxTextChars:
		return errUnprocessable("value_error", "text cannot exceed 100,000 characters", "body", "text")
	}
	now := s.now().UTC()
	start := now
	if req.StartedAt != nil {
		start = *req.StartedAt
	}
	finish := start.Add(defaultTextSeconds * time.Second)
	if req.FinishedAt != nil {
		finish = *req.FinishedAt
	}
	if finish.Before(start) {
		return errUnprocessable("value_error", "finished_at must be after started_at", "body", "finished_at")
	}
	// The text becomes one segment spanning the conversation, so that it is
	// read back, processed and searched like any transcript.
	req.Segments = []segmentInput{{Text: trimmed(text), Speaker: appliance.DefaultSpeaker, End: max(finish.Sub(start).Seconds(), 1)}}
	d := req.draft(userID(c), start, finish)
	d.ExternalData = map[string]any{"text_source": source}
	if spec != "" {
		d.ExternalData["text_source_spec"] = spec
	}
	return s.create(ctx, c, d)
}

func trimmed(s string) string { return strings.TrimSpace(s) }
