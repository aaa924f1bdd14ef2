package localstt

import (
	"sync"
	"time"
)

// Meter adds up, per model, how long whisper took over how much audio on
// this box: the real-time factor the console shows beside a model, a
// measurement rather than a figure from elsewhere. It outlives the routes
// (a settings change rebuilds them) and is safe for concurrent use; the
// zero value is ready, and a nil Meter measures nothing.
type Meter struct {
	mu     sync.Mutex
	models map[string]Speed
}

// Speed is what a model took: compute time over audio time.
type Speed struct {
	Audio   time.Duration
	Compute time.Duration
}

// RTF is the real-time factor: compute time per second of audio (below 1
// keeps up with speech).
func (s Speed) RTF() float64 {
	if s.Audio <= 0 {
		return 0
	}
	return s.Compute.Seconds() / s.Audio.Seconds()
}

func (m *Meter) add(model string, audio, compute time.Duration) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.models == nil {
		m.models = map[string]Speed{}
	}
	s := m.models[model]
	s.Audio += audio
	s.Compute += compute
	m.models[model] = s
}

// Speed is what model has taken so far, and whether it ran at all.
func (m *Meter) Speed(model string) (Speed, bool) {
	if m == nil {
		return Speed{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.models[model]
	return s, ok
}
