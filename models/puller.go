package models

import (
	"context"
	"errors"
	"log/slog"
	"sync"
)

// Puller downloads models in the background for the console, one at a
// time per model, and reports how far each has got.
type Puller struct {
	Store *Store
	// Ctx bounds every download (the appliance's lifetime).
	Ctx context.Context
	// Pulled, when set, is told of each model pulled whole (the wiring
	// rebuilds the speech routes, so a first model serves at once).
	Pulled func(Model)
	// Logger gets a failed pull's own error; the console gets a sentence.
	Logger *slog.Logger

	mu      sync.Mutex
	pulling map[string]*PullState
}

// PullState is one model's download.
type PullState struct {
	Done    int64 `json:"done"`
	Total   int64 `json:"total"`
	Running bool  `json:"running"`
	// Err says why the pull failed, in a sentence for the owner.
	Err string `json:"error,omitempty"`
}

// ModelState is a catalog entry with what the folder holds of it.
type ModelState struct {
	Model
	Pulled bool       `json:"pulled"`
	Pull   *PullState `json:"pull,omitempty"`
}

// ErrPulling is a second pull of a model already downloading.
var ErrPulling = errors.New("already downloading")

// Start begins downloading name; it returns at once.
func (p *Puller) Start(name string) error {
	m, err := p.Store.Find(name)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pulling == nil {
		p.pulling = map[string]*PullState{}
	}
	if st := p.pulling[name]; st != nil && st.Running {
		return ErrPulling
	}
	st := &PullState{Total: m.Size, Running: true}
	p.pulling[name] = st
	go func() {
		err := p.Store.Pull(p.Ctx, m, func(done, total int64) {
			p.mu.Lock()
			st.Done, st.Total = done, total
			p.mu.Unlock()
		})
		p.mu.Lock()
		st.Running = false
		if err != nil {
			st.Err = p.Store.Explain(m, err)
		} else {
			st.Done = st.Total
		}
		p.mu.Unlock()
		switch {
		case err != nil && p.Logger != nil:
			p.Logger.Warn("model pull failed", "model", m.Name, "err", err)
		case err == nil && p.Pulled != nil:
			p.Pulled(m)
		}
	}()
	return nil
}

// States lists the catalog with each model's state.
func (p *Puller) States() []ModelState {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ModelState, 0, len(p.Store.Catalog))
	for _, m := range p.Store.Catalog {
		s := ModelState{Model: m, Pulled: p.Store.Present(m)}
		if st := p.pulling[m.Name]; st != nil {
			c := *st
			s.Pull = &c
		}
		out = append(out, s)
	}
	return out
}
