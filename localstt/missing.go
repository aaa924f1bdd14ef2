package localstt

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Missing stands in for the whisper route when it cannot be built (no
// model, not built in). The router and the batch service pass over it;
// when no other route serves a session or a job, its reason is the
// answer, instead of "language not supported" or "not configured".
type Missing struct{ Reason string }

func (m Missing) Name() string { return Name }

// Supports is what a multilingual model would serve.
func (m Missing) Supports(language string, channels int) bool {
	l := strings.ToLower(language)
	base, _, _ := strings.Cut(l, "-")
	return channels <= 1 && (l == "multi" || l == "auto" || knownLanguage(base))
}

// Unusable implements stt.Unusable.
func (m Missing) Unusable() error { return configError(m.Reason, nil) }

func (m Missing) Open(context.Context, stt.Config) (stt.Stream, error) { return nil, m.Unusable() }

func (m Missing) Transcribe(context.Context, []int16, stt.Config) (stt.Transcript, error) {
	return stt.Transcript{}, m.Unusable()
}
