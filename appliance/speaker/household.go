package speaker

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// VoiceStore keeps what is learnt of known people's voices.
type VoiceStore interface {
	PersonVoices(ctx context.Context, userID string) ([]*appliance.PersonVoice, error)
	PutPersonVoice(ctx context.Context, v *appliance.PersonVoice) error
}

// Household is the voices one user's sessions can recognise: the owner's
// speech profile, when there is one, and the people the owner has named.
// It is safe for concurrent use.
type Household struct {
	userID string
	ex     Extractor
	store  VoiceStore
	owner  []float32 // nil without a profile

	mu     sync.Mutex
	people []*appliance.PersonVoice
}

// Identity is who a voice is: the owner, a known person, or neither.
type Identity struct {
	Owner      bool
	PersonID   string // a known person's, when not the owner
	PersonName string
	Distance   float64 // to the match, or to the nearest voice
}

// Household loads a user's known voices (those made by this extractor:
// another's embeddings are not comparable).
func (p *Profiles) Household(ctx context.Context, userID string) (*Household, error) {
	h := &Household{userID: userID, ex: p.Extractor, store: p.Voices}
	prof, err := p.Store.SpeechProfile(ctx, userID)
	switch {
	case err == nil && prof.Extractor == p.Extractor.Name():
		h.owner = prof.Embedding
	case err == nil:
		// Made by another extractor (it was changed since, or a new
		// version of the built-in one): that embedding is not comparable,
		// but the profile keeps its speech, so it is embedded again, once.
		if h.owner, err = p.reembed(ctx, prof); err != nil {
			return nil, fmt.Errorf("speech profile made by %s: %w", prof.Extractor, err)
		}
	case appliance.ErrorCode(err) != appliance.ENOTFOUND:
		return nil, fmt.Errorf("load speech profile: %w", err)
	}
	if err := h.reload(ctx); err != nil {
		return nil, err
	}
	return h, nil
}

// reload reads the user's known voices again. Identify calls it each time
// (once per new speaker of a session, a small query), so that a person
// the owner renamed, merged into another or deleted on the console while
// a session ran is not suggested, and with speaker_auto_assign not
// assigned, which would bring a deleted person back under the old name.
func (h *Household) reload(ctx context.Context) error {
	if h.store == nil {
		return nil
	}
	vs, err := h.store.PersonVoices(ctx, h.userID)
	if err != nil {
		return fmt.Errorf("load known voices: %w", err)
	}
	var people []*appliance.PersonVoice
	for _, v := range vs {
		if v.Extractor == h.ex.Name() {
			people = append(people, v)
		}
	}
	h.mu.Lock()
	h.people = people
	h.mu.Unlock()
	return nil
}

// Embed embeds speech with the household's extractor.
func (h *Household) Embed(ctx context.Context, pcm []int16) ([]float32, error) {
	return h.ex.Embed(ctx, pcm)
}

// Threshold is the extractor's same-voice distance.
func (h *Household) Threshold() float64 { return h.ex.Threshold() }

// Tracker starts the voice tracking of one live session, anchored on the
// owner's profile when there is one.
func (h *Household) Tracker() *Tracker { return NewTracker(h.ex, h.owner) }

// HasProfile reports whether the owner's speech profile is known.
func (h *Household) HasProfile() bool { return h.owner != nil }

// Identify embeds speech and matches it: the owner when within the
// threshold of the profile, else the nearest known person within it.
func (h *Household) Identify(ctx context.Context, pcm []int16) (Identity, error) {
	e, err := h.ex.Embed(ctx, pcm)
	if err != nil {
		return Identity{}, err
	}
	th := h.ex.Threshold()
	id := Identity{Distance: 2}
	if h.owner != nil {
		d := Distance(h.owner, e)
		if d < th {
			return Identity{Owner: true, Distance: d}, nil
		}
		id.Distance = d
	}
	if err := h.reload(ctx); err != nil {
		return Identity{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range h.people {
		if d := Distance(v.Embedding, e); d < th && d < id.Distance {
			id = Identity{PersonID: v.PersonID, PersonName: v.PersonName, Distance: d}
		}
	}
	return id, nil
}

// Learn adds speech the owner attributed to a person to what is known of
// their voice: a running mean of embeddings, weighted by seconds of speech.
func (h *Household) Learn(ctx context.Context, personID, personName string, pcm []int16) error {
	if h.store == nil {
		return nil
	}
	e, err := h.ex.Embed(ctx, pcm)
	if err != nil {
		return err
	}
	secs := float64(len(pcm)) / sampleRate
	h.mu.Lock()
	var known *appliance.PersonVoice
	for _, v := range h.people {
		if v.PersonID == personID {
			known = v
		}
	}
	next := &appliance.PersonVoice{PersonID: personID, PersonName: personName, UserID: h.userID, Extractor: h.ex.Name(),
		Embedding: e, Seconds: secs, UpdatedAt: time.Now().UTC()}
	if known != nil {
		mean := make([]float32, len(e))
		for i := range e {
			mean[i] = float32((float64(known.Embedding[i])*known.Seconds + float64(e[i])*secs) / (known.Seconds + secs))
		}
		next.Embedding, next.Seconds, next.PersonName = normalize(mean), known.Seconds+secs, known.PersonName
	}
	h.mu.Unlock()
	if err := h.store.PutPersonVoice(ctx, next); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, v := range h.people {
		if v.PersonID == personID {
			h.people[i] = next
			return nil
		}
	}
	h.people = append(h.people, next)
	return nil
}
