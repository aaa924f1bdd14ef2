package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Limits of the create-conversation request.
const (
	maxSegments            = 500
	maxClientSessionID     = 200
	maxClientProcessing    = 64 << 10
	maxClientProcessingDep = 32
)

// sessionIDAliases are the field names the reference accepts for
// client_session_id, in order of precedence.
var sessionIDAliases = []string{"client_session_id", "client_conversation_id", "session_id", "client_id"}

// segmentInput is one transcript segment of the request.
type segmentInput struct {
	Text      string
	Speaker   string
	SpeakerID *int
	IsUser    bool
	PersonID  *string
	Start     float64
	End       float64
}

// fromSegmentsRequest is a validated create-conversation request.
type fromSegmentsRequest struct {
	Segments           []segmentInput
	Source             appliance.ConversationSource
	Language           string
	StartedAt          *time.Time
	FinishedAt         *time.Time
	Geolocation        *appliance.Geolocation
	ClientDeviceID     string
	ClientPlatform     string
	ClientProcessing   json.RawMessage
	ClientSessionID    string
	FinalizationReason appliance.FinalizationReason
	Role               appliance.ConversationRole
}

// parseFromSegments decodes and validates a create-conversation body. Type
// and shape errors come first (as a schema validator reports them); only a
// well-typed request is checked against the reference's rules (1 to 500
// segments, each with text, 0 <= start < end; finished_at after started_at).
func parseFromSegments(body []byte) (*fromSegmentsRequest, error) {
	if r, ok := fastFromSegments(body); ok {
		return r, nil
	}
	return parseFromSegmentsGeneric(body)
}

// parseFromSegmentsGeneric is parseFromSegments through the generic
// decoder: every body, every error worded.
func parseFromSegmentsGeneric(body []byte) (*fromSegmentsRequest, error) {
	m, err := decodeJSONObject(body)
	if err != nil {
		return nil, err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	r := &fromSegmentsRequest{Source: appliance.SourcePhone, Language: "en", Role: appliance.RoleAmbient}

	if segs, ok := f.list("transcript_segments", true); ok {
		switch {
		case len(segs) == 0:
			f.fail("transcript_segments", "too_short", "transcript_segments cannot be empty")
		case len(segs) > maxSegments:
			f.fail("transcript_segments", "too_long", fmt.Sprintf("Maximum %d transcript segments allowed", maxSegments))
		default:
			r.Segments = parseSegments(segs, v)
		}
	}
	if raw, ok := f.get("source", false); ok {
		if s, isStr := raw.(string); isStr {
			r.Source = appliance.ParseConversationSource(s)
		} else {
			names := make([]string, len(appliance.ConversationSources))
			for i, s := range appliance.ConversationSources {
				names[i] = string(s)
			}
			f.fail("source", "enum", "Input should be "+quoteList(names))
		}
	}
	if s, ok := f.str("language", false); ok {
		if lang, ok := trimmedLanguage(s); ok {
			r.Language = lang
		}
	}
	if t, ok := f.datetime("started_at"); ok {
		r.StartedAt = &t
	}
	if t, ok := f.datetime("finished_at"); ok {
		r.FinishedAt = &t
	}
	if g, ok := f.object("geolocation"); ok {
		r.Geolocation = parseGeolocation(newFields(g, v, "body", "geolocation"))
	}
	if s, ok := f.str("client_device_id", false); ok {
		r.ClientDeviceID = s
	}
	if s, ok := f.str("client_platform", false); ok {
		r.ClientPlatform = s
	}
	if raw, ok := f.get("client_processing", false); ok {
		r.ClientProcessing = clientProcessing(raw)
	}
	for _, alias := range sessionIDAliases {
		s, ok := f.str(alias, false)
		if !ok {
			continue
		}
		if id, ok := validSessionID(s); ok {
			r.ClientSessionID = id
		} else if id == "" {
			f.fail(alias, "string_too_short", "client_session_id must be 1 to 200 characters and not blank")
		} else {
			f.fail(alias, "string_too_long", "client_session_id must be 1 to 200 characters and not blank")
		}
		break
	}
	reasons := make([]string, len(appliance.FinalizationReasons))
	for i, fr := range appliance.FinalizationReasons {
		reasons[i] = string(fr)
	}
	if s, ok := f.enum("conversation_finalization_reason", reasons); ok {
		r.FinalizationReason = appliance.FinalizationReason(s)
	}
	if s, ok := f.enum("conversation_role", []string{string(appliance.RoleAmbient), string(appliance.RoleMeeting)}); ok {
		r.Role = appliance.ConversationRole(s)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}

	// The rules, in the reference's order and words.
	for i, s := range r.Segments {
		loc := func(field string) []any { return []any{"body", "transcript_segments", i, field} }
		if s.End <= s.Start {
			v.Add("value_error", fmt.Sprintf("Segment %d: end time must be after start time", i), loc("end")...)
		}
		if s.Start < 0 {
			v.Add("value_error", fmt.Sprintf("Segment %d: start time cannot be negative", i), loc("start")...)
		}
		if strings.TrimSpace(s.Text) == "" {
			v.Add("value_error", fmt.Sprintf("Segment %d: text cannot be empty", i), loc("text")...)
		}
	}
	return r, v.Err()
}

// trimmedLanguage is a language as sent without the spaces around it; a
// blank one keeps the default.
func trimmedLanguage(s string) (string, bool) {
	s = strings.TrimSpace(s)
	return s, s != ""
}

// validSessionID is a client_session_id without the spaces around it, and
// whether it is 1 to maxClientSessionID characters.
func validSessionID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	n := len([]rune(s))
	return s, n > 0 && n <= maxClientSessionID
}

// segmentBreaksARule says whether a well-typed segment breaks one of the
// rules parseFromSegments words.
func segmentBreaksARule(s segmentInput) bool {
	return s.End <= s.Start || s.Start < 0 || strings.TrimSpace(s.Text) == ""
}

// times applies the defaults (started_at = now, finished_at = started_at +
// end of the last segment) and checks their order.
func (r *fromSegmentsRequest) times(now time.Time) (start, finish time.Time, err error) {
	start = now.UTC()
	if r.StartedAt != nil {
		start = *r.StartedAt
	}
	finish = start.Add(segmentsDuration(r.Segments))
	if r.FinishedAt != nil {
		finish = *r.FinishedAt
	}
	if !finish.After(start) {
		return start, finish, errUnprocessable("value_error", "finished_at must be after started_at", "body", "finished_at")
	}
	if !appliance.TimeInRange(finish) {
		// Only a computed finish can be out of range here: a start plus a
		// transcript that runs past the last storable time.
		return start, finish, errUnprocessable("datetime_range", appliance.TimeRangeMessage, "body", "finished_at")
	}
	return start, finish, nil
}

func parseSegments(segs []any, v *appliance.ValidationError) []segmentInput {
	out := make([]segmentInput, 0, len(segs))
	for i, raw := range segs {
		m, ok := raw.(map[string]any)
		if !ok {
			v.Add("model_type", "Input should be a valid dictionary or object", "body", "transcript_segments", i)
			continue
		}
		f := newFields(m, v, "body", "transcript_segments", i)
		var s segmentInput
		s.Text, _ = f.str("text", true)
		s.Start, _ = f.float("start", true)
		s.End, _ = f.float("end", true)
		s.Speaker = appliance.DefaultSpeaker
		if sp, ok := f.str("speaker", false); ok && sp != "" {
			s.Speaker = sp
		}
		if id, ok := f.int("speaker_id", false); ok {
			s.SpeakerID = &id
		}
		s.IsUser, _ = f.bool("is_user", false)
		if p, ok := f.str("person_id", false); ok && p != "" {
			s.PersonID = &p
		}
		out = append(out, s)
	}
	return out
}

// parseGeolocation reads a geolocation whose types are right. Values out of
// bounds, infinite ones included, do not fail the request: Valid() drops them.
func parseGeolocation(f fields) *appliance.Geolocation {
	var g appliance.Geolocation
	var ok bool
	g.Latitude, ok = f.number("latitude", true)
	lonOK := false
	g.Longitude, lonOK = f.number("longitude", true)
	if x, present := f.number("accuracy", false); present {
		g.Accuracy = &x
	}
	if x, present := f.number("altitude", false); present {
		g.Altitude = &x
	}
	optStr := func(name string) *string {
		if s, present := f.str(name, false); present {
			return &s
		}
		return nil
	}
	g.Address = optStr("address")
	g.GooglePlaceID = optStr("google_place_id")
	g.LocationType = optStr("location_type")
	if s, present := f.enum("capture_source", appliance.GeolocationCaptureSources); present {
		g.CaptureSource = &s
	}
	if t, present := f.datetime("captured_at"); present {
		g.CapturedAt = &t
	}
	if !ok || !lonOK {
		return nil
	}
	return &g
}

// clientProcessing keeps an untrusted display blob only when it is a JSON
// object of bounded size and depth; anything else is dropped, and the
// conversation is still created.
func clientProcessing(raw any) json.RawMessage {
	obj, ok := raw.(map[string]any)
	if !ok || depth(obj, 0) > maxClientProcessingDep {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil || buf.Len() > maxClientProcessing {
		return nil
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes()))
}

func depth(v any, d int) int {
	if d > maxClientProcessingDep {
		return d
	}
	deepest := d
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			deepest = max(deepest, depth(e, d+1))
		}
	case []any:
		for _, e := range x {
			deepest = max(deepest, depth(e, d+1))
		}
	}
	return deepest
}

// segmentsDuration is the end of the last segment, in the reference's way of
// computing finished_at (the last segment, not the latest end).
func segmentsDuration(segs []segmentInput) time.Duration {
	if len(segs) == 0 {
		return 0
	}
	end := segs[len(segs)-1].End
	if end <= 0 || math.IsInf(end, 0) || end > 1e9 {
		return 0
	}
	return time.Duration(end * float64(time.Second))
}
