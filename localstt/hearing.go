package localstt

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// A model can load and run and still hear nothing: weights that are not a
// speech model's (a broken download, a test model). hearing judges the
// route by its first transcriptions: until the model has yielded a word,
// each stretch of speech it returns nothing for is a miss, and after
// deafAfter misses the route is unusable and the router passes over it.
// A model that has yielded a word once is never judged again: a real
// model rightly returns nothing for a noise the VAD took for speech.
const deafAfter = 3

type hearing struct {
	mu     sync.Mutex
	proven bool
	misses int
	deaf   error
}

// heard records one transcription of speech. It returns the route's
// failure once the model is judged deaf (logged here, once).
func (h *hearing) heard(words bool, model string, log *slog.Logger) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.deaf != nil || h.proven {
		return h.deaf
	}
	if words {
		h.proven = true
		return nil
	}
	if h.misses++; h.misses < deafAfter {
		return nil
	}
	h.deaf = &stt.Error{Outcome: stt.UpstreamError, Provider: Name,
		Reason: "whisper model " + model + " hears nothing: hearth models pull base.en",
		Err:    fmt.Errorf("%w: %d stretches of speech in a row", stt.ErrHearsNothing, h.misses)}
	log.Warn("the whisper model yields no words on speech: the whisper route is skipped for the next one until hearth restarts",
		"model", model, "stretches", h.misses, "fix", "hearth models pull base.en")
	return h.deaf
}

// unproven reports whether the model has yet to yield a word.
func (h *hearing) unproven() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.proven
}

func (h *hearing) failure() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.deaf
}
