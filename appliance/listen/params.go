package listen

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
)

// Params are a session's query parameters. The app sends language,
// sample_rate, codec, uid, include_speech_profile, stt_service,
// conversation_timeout, then optionally source, custom_stt and onboarding,
// then speaker_auto_assign and create_speakers, and optionally vad_gate.
// Unknown parameters are ignored.
type Params struct {
	UID                  string
	Language             string
	Codec                string
	SampleRate           int
	Channels             int
	IncludeSpeechProfile bool
	// ConversationTimeout is the silence after which the recording is
	// processed.
	ConversationTimeout time.Duration
	CustomSTT           bool
	Source              appliance.ConversationSource
	STTService          string // accepted and ignored: routes are the owner's policy
	// SpeakerAutoAssign (speaker_auto_assign=enabled) assigns a speaker
	// whose voice matches a known person to that person at once.
	SpeakerAutoAssign bool
	// CreateSpeakers (create_speakers=true) makes a person of a speaker who
	// introduces themself, when speaker_auto_assign is on too.
	CreateSpeakers bool
}

// Timeout bounds of conversation_timeout, in seconds; -1 means the maximum.
const (
	minTimeoutS = 2
	maxTimeoutS = 14400
)

// ParamError is a refusal of the handshake; its message is the close
// reason (1008) the client logs.
type ParamError struct{ Reason string }

func (e *ParamError) Error() string { return e.Reason }

func refuse(format string, args ...any) error {
	return &ParamError{Reason: fmt.Sprintf(format, args...)}
}

// ParseParams reads and checks the query.
func ParseParams(q url.Values) (Params, error) {
	p := Params{Language: "en", Codec: audio.PCM8, SampleRate: 8000, Channels: 1, IncludeSpeechProfile: true,
		ConversationTimeout: 120 * time.Second, Source: appliance.SourceOmi}
	p.UID = strings.TrimSpace(q.Get("uid"))
	if p.UID == "" {
		return p, refuse("Bad uid")
	}
	if v := strings.TrimSpace(q.Get("language")); v != "" {
		p.Language = strings.ToLower(v)
		if p.Language == "auto" {
			p.Language = "multi"
		}
	}
	if v := q.Get("codec"); v != "" {
		p.Codec = strings.ToLower(strings.TrimSpace(v))
	}
	known := false
	for _, c := range audio.Codecs {
		known = known || c == p.Codec
	}
	if !known {
		return p, refuse("Invalid codec %q (one of %s)", p.Codec, strings.Join(audio.Codecs, ", "))
	}
	var err error
	if p.SampleRate, err = intParam(q, "sample_rate", p.SampleRate); err != nil {
		return p, err
	}
	if p.SampleRate < 4000 || p.SampleRate > 192000 {
		return p, refuse("Invalid sample_rate %d", p.SampleRate)
	}
	if p.Channels, err = intParam(q, "channels", p.Channels); err != nil {
		return p, err
	}
	if p.Channels != 1 && p.Channels != 2 {
		return p, refuse("Invalid channels %d (1 or 2)", p.Channels)
	}
	timeout, err := intParam(q, "conversation_timeout", 120)
	if err != nil {
		return p, err
	}
	switch {
	case timeout == -1:
		timeout = maxTimeoutS
	case timeout < minTimeoutS || timeout > maxTimeoutS:
		return p, refuse("Invalid conversation_timeout %d (%d to %d seconds, or -1 for %d)", timeout, minTimeoutS, maxTimeoutS, maxTimeoutS)
	}
	p.ConversationTimeout = time.Duration(timeout) * time.Second
	if p.Channels > 1 {
		p.ConversationTimeout = maxTimeoutS * time.Second // multi-channel sessions run long, as in the reference
	}
	if v := q.Get("include_speech_profile"); v != "" {
		p.IncludeSpeechProfile = truthy(v)
	}
	p.CustomSTT = q.Get("custom_stt") == "enabled"
	if v := q.Get("source"); v != "" {
		// An unknown source is recorded as the wearable's, as the reference does.
		if src := appliance.ParseConversationSource(v); src != appliance.SourceUnknown || v == string(appliance.SourceUnknown) {
			p.Source = src
		}
	}
	p.STTService = q.Get("stt_service")
	p.SpeakerAutoAssign = q.Get("speaker_auto_assign") == "enabled"
	p.CreateSpeakers = truthy(q.Get("create_speakers"))
	return p, nil
}

func intParam(q url.Values, name string, def int) (int, error) {
	v := strings.TrimSpace(q.Get(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, refuse("Invalid %s %q", name, v)
	}
	return n, nil
}

func truthy(v string) bool {
	switch strings.ToLower(v) {
	case "true", "1", "yes", "on", "enabled":
		return true
	}
	return false
}
