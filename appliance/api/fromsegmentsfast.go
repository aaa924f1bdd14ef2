package api

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance"
)

// fastFromSegments reads the usual create body straight into the request,
// without the generic decoder's maps (a map, and a json.Number per value,
// for every segment: a tenth of a create's request handling). It knows the
// fields apps send and their plain types; anything else (another field, a
// wrong type, a duplicate, a value a rule refuses, malformed JSON) answers
// ok = false, and the caller parses the body the generic way, which words
// the errors. So this never decides what is accepted, only how fast.
func fastFromSegments(body []byte) (r *fromSegmentsRequest, ok bool) {
	p := fastJSON{b: body}
	r = &fromSegmentsRequest{Source: appliance.SourcePhone, Language: "en", Role: appliance.RoleAmbient}
	var aliases [4]*string // sessionIDAliases, in order
	seen := map[string]bool{}
	if !p.byte('{') {
		return nil, false
	}
	for first := true; ; first = false {
		if p.byte('}') {
			break
		}
		if !first && !p.byte(',') {
			return nil, false
		}
		key, ok := p.str()
		if !ok || seen[key] || !p.byte(':') {
			return nil, false
		}
		seen[key] = true
		switch key {
		case "transcript_segments":
			if r.Segments, ok = p.segments(); !ok {
				return nil, false
			}
		case "source":
			s, ok := p.str()
			if !ok {
				return nil, false
			}
			r.Source = appliance.ParseConversationSource(s)
		case "language", "client_device_id", "client_platform":
			s, ok := p.str()
			if !ok {
				return nil, false
			}
			switch key {
			case "language":
				r.Language = s
			case "client_device_id":
				r.ClientDeviceID = s
			default:
				r.ClientPlatform = s
			}
		case "started_at", "finished_at":
			t, ok := p.datetime()
			if !ok {
				return nil, false
			}
			if key == "started_at" {
				r.StartedAt = &t
			} else {
				r.FinishedAt = &t
			}
		case "conversation_finalization_reason":
			s, ok := p.str()
			if !ok || !isFinalizationReason(s) {
				return nil, false
			}
			r.FinalizationReason = appliance.FinalizationReason(s)
		case "conversation_role":
			s, ok := p.str()
			if !ok || (s != string(appliance.RoleAmbient) && s != string(appliance.RoleMeeting)) {
				return nil, false
			}
			r.Role = appliance.ConversationRole(s)
		default:
			i := sessionAlias(key)
			if i < 0 {
				return nil, false
			}
			s, ok := p.str()
			if !ok {
				return nil, false
			}
			aliases[i] = &s
		}
	}
	if !p.end() {
		return nil, false
	}
	if lang, ok := trimmedLanguage(r.Language); ok {
		r.Language = lang
	} else {
		r.Language = "en"
	}
	for _, s := range aliases {
		if s == nil {
			continue
		}
		id, ok := validSessionID(*s)
		if !ok {
			return nil, false
		}
		r.ClientSessionID = id
		break
	}
	if n := len(r.Segments); n == 0 || n > maxSegments {
		return nil, false
	}
	for _, s := range r.Segments {
		if segmentBreaksARule(s) {
			return nil, false
		}
	}
	return r, true
}

func sessionAlias(key string) int {
	for i, a := range sessionIDAliases {
		if a == key {
			return i
		}
	}
	return -1
}

func isFinalizationReason(s string) bool {
	for _, fr := range appliance.FinalizationReasons {
		if s == string(fr) {
			return true
		}
	}
	return false
}

// segments reads the transcript_segments array.
func (p *fastJSON) segments() ([]segmentInput, bool) {
	if !p.byte('[') {
		return nil, false
	}
	out := make([]segmentInput, 0, 16)
	for first := true; ; first = false {
		if p.byte(']') {
			return out, true
		}
		if (!first && !p.byte(',')) || len(out) == maxSegments {
			return nil, false
		}
		s, ok := p.segment()
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
}

// segment reads one segment object: text, start and end required, the
// others optional (null as if absent, as the generic path has it).
func (p *fastJSON) segment() (segmentInput, bool) {
	s := segmentInput{Speaker: appliance.DefaultSpeaker}
	var seen [7]bool
	if !p.byte('{') {
		return s, false
	}
	for first := true; ; first = false {
		if p.byte('}') {
			break
		}
		if !first && !p.byte(',') {
			return s, false
		}
		key, ok := p.str()
		if !ok || !p.byte(':') {
			return s, false
		}
		field := -1
		for i, name := range [...]string{"text", "start", "end", "speaker", "speaker_id", "is_user", "person_id"} {
			if key == name {
				field = i
			}
		}
		if field < 0 || seen[field] {
			return s, false
		}
		seen[field] = true
		if field >= 3 && p.null() {
			continue
		}
		switch field {
		case 0:
			s.Text, ok = p.str()
		case 1:
			s.Start, ok = p.float()
		case 2:
			s.End, ok = p.float()
		case 3:
			var sp string
			if sp, ok = p.str(); ok && sp != "" {
				s.Speaker = sp
			}
		case 4:
			var id int
			if id, ok = p.int32(); ok {
				s.SpeakerID = &id
			}
		case 5:
			s.IsUser, ok = p.bool()
		case 6:
			var id string
			if id, ok = p.str(); ok && id != "" {
				s.PersonID = &id
			}
		}
		if !ok {
			return s, false
		}
	}
	return s, seen[0] && seen[1] && seen[2]
}

// fastJSON is a reader of the few JSON shapes fastFromSegments takes; every
// method answers false on anything else, including malformed JSON.
type fastJSON struct {
	b []byte
	i int
}

func (p *fastJSON) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// byte consumes c (after white space) if it is next.
func (p *fastJSON) byte(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *fastJSON) end() bool {
	p.space()
	return p.i == len(p.b)
}

func (p *fastJSON) literal(word string) bool {
	p.space()
	if len(p.b)-p.i >= len(word) && string(p.b[p.i:p.i+len(word)]) == word {
		p.i += len(word)
		return true
	}
	return false
}

func (p *fastJSON) null() bool { return p.literal("null") }

func (p *fastJSON) bool() (bool, bool) {
	switch {
	case p.literal("true"):
		return true, true
	case p.literal("false"):
		return false, true
	}
	return false, false
}

// str reads a string. One with an escape or bytes that are not UTF-8 is
// handed to encoding/json, so that it decodes exactly as the generic path
// would (surrogates, replacement characters).
func (p *fastJSON) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start, plain := p.i, true
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			raw := p.b[start:p.i]
			p.i++
			if plain && utf8.Valid(raw) {
				return string(raw), true
			}
			var s string
			if json.Unmarshal(p.b[start-1:p.i], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			p.i++ // the escaped byte cannot end the string
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// number reads a JSON number's text.
func (p *fastJSON) number() (text []byte, integer bool, ok bool) {
	p.space()
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	switch n := digits(); {
	case n == 0, n > 1 && p.b[p.i-n] == '0':
		return nil, false, false
	}
	integer = true
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false, false
		}
		integer = false
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false, false
		}
		integer = false
	}
	return p.b[start:p.i], integer, true
}

// float reads a finite number (one too large for float64 is the generic
// path's to refuse).
func (p *fastJSON) float() (float64, bool) {
	text, _, ok := p.number()
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(text), 64)
	return x, err == nil
}

// int32 reads an integer written without a fraction or exponent, within
// the range the generic path takes.
func (p *fastJSON) int32() (int, bool) {
	text, integer, ok := p.number()
	if !ok || !integer {
		return 0, false
	}
	n, err := strconv.ParseInt(string(text), 10, 32)
	return int(n), err == nil
}

// datetime reads a time as the generic path does (parseDateTime), in range.
func (p *fastJSON) datetime() (t time.Time, ok bool) {
	p.space()
	var raw any
	if p.i < len(p.b) && p.b[p.i] == '"' {
		s, ok := p.str()
		if !ok {
			return t, false
		}
		raw = s
	} else {
		text, _, ok := p.number()
		if !ok {
			return t, false
		}
		raw = json.Number(text)
	}
	v, err := parseDateTime(raw)
	if err != nil || !appliance.TimeInRange(v) {
		return t, false
	}
	return v, true
}
