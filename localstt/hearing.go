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
// model rightly returns nothing for a noise the VAD took for speech. Only
// stretches of a second or more count (a cough, a knock are shorter), and
// a live utterance counts once however often it is transcribed again as
// it grows (its passes start with the same audio).
const (
	deafAfter   = 3
	missAtLeast = stt.SampleRate
)

type hearing struct {
	mu     sync.Mutex
	proven bool
	misses int
	last   uint64 // the start of the last stretch missed
	deaf   error
}

// heard records one transcription of pcm. It returns the route's failure
// once the model is judged deaf (logged here, once).
func (h *hearing) heard(words bool, pcm []int16, model string, log *slog.Logger) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.deaf != nil || h.proven {
		return h.deaf
	}
	if words {
		h.proven = true
		return nil
	}
	if len(pcm) < missAtLeast {
		return nil
	}
	if start := startOf(pcm); start != h.last {
		h.last = start
		h.misses++
	}
	if h.misses < deafAfter {
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

// startOf fingerprints the first tenth of a second of pcm (FNV-1a).
func startOf(pcm []int16) uint64 {
	f := uint64(14695981039346656037)
	for _, v := range pcm[:min(len(pcm), stt.SampleRate/10)] {
		f = (f ^ uint64(uint16(v))) * 1099511628211
	}
	return f
}
