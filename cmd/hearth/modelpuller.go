package main

import (
	"errors"
	"math"

	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/models"
)

// modelPuller is models.Puller as the console API consumes it: the API
// does not import the models package, so its "already downloading" error
// is translated here, and each model comes with what the Speech page
// tells the owner about it.
type modelPuller struct {
	*models.Puller
	speech *speechWiring
}

func (p modelPuller) Start(name string) error {
	err := p.Puller.Start(name)
	if errors.Is(err, models.ErrPulling) {
		return api.ErrModelPulling
	}
	return err
}

// recommended is the one whisper model recommended per use: the size that
// hears well and keeps up with speech on a home server's CPU (base; small
// does several times the work), English-only where English is all that is
// spoken, because an .en model hears English better at the same size.
var recommended = map[string]string{"base.en": "English", "base": "Other languages"}

// modelRow is a model as the Speech page shows it.
type modelRow struct {
	models.ModelState
	// Recommended is the use it is recommended for, or "".
	Recommended string `json:"recommended,omitempty"`
	// InUse: the whisper route runs it now.
	InUse bool `json:"in_use,omitempty"`
	// Speed is what it measured on this box since the appliance started;
	// absent until it has transcribed something.
	Speed *modelSpeed `json:"speed,omitempty"`
}

// modelSpeed is a measured real-time factor: seconds of computing per
// second of audio, over AudioSeconds of audio.
type modelSpeed struct {
	RTF          float64 `json:"rtf"`
	AudioSeconds float64 `json:"audio_seconds"`
}

func (p modelPuller) States() any {
	var inUse string
	var meter *localstt.Meter
	if p.speech != nil {
		inUse, meter = p.speech.whisperModel(), p.speech.deps.meter
	}
	rows := []modelRow{}
	for _, st := range p.Puller.States() {
		row := modelRow{ModelState: st, Recommended: recommended[st.Name]}
		if st.Kind == models.KindWhisper {
			row.InUse = st.Name == inUse
			if sp, ok := meter.Speed(st.Name); ok && sp.Audio > 0 {
				row.Speed = &modelSpeed{RTF: math.Round(sp.RTF()*1000) / 1000, AudioSeconds: math.Round(sp.Audio.Seconds())}
			}
		}
		rows = append(rows, row)
	}
	return rows
}
