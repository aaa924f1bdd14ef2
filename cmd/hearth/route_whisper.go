package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
)

// whisper.cpp: the best local route once a model is pulled. Without one
// the route stands in as localstt.Missing: sessions and jobs that no other
// route serves are told to pull a model.
var whisperRoute = speechRoute{name: localstt.Name,
	// The model it would load: a model pulled or chosen since start
	// rebuilds the route.
	settings: func(cfg appliance.Config) string {
		model := cfg.WhisperModel
		if model == "" {
			model = localstt.FindModel(filepath.Join(cfg.DataDir, "models"))
		}
		return fmt.Sprint(model, " ", cfg.WhisperWorkers)
	},
	build: func(cfg appliance.Config, d routeDeps) (any, string, error) {
		logger := d.logger
		if cfg.WhisperModel != "" {
			// A model named on purpose and missing is a mistake to
			// fix, not a route to fall back from in silence.
			if _, err := os.Stat(cfg.WhisperModel); err != nil {
				return nil, "", usageErr("--whisper-model %s: %v; pull one with hearth models pull base.en --data %s (it is then found without --whisper-model)",
					cfg.WhisperModel, errors.Unwrap(err), cfg.DataDir)
			}
		}
		r, err := localstt.New(localstt.Config{Model: cfg.WhisperModel, ModelsDir: filepath.Join(cfg.DataDir, "models"),
			Workers: cfg.WhisperWorkers, Logger: logger, Meter: d.meter})
		var e *stt.Error
		if errors.As(err, &e) && e.Outcome == stt.ConfigError {
			return localstt.Missing{Reason: e.Reason}, e.Reason, nil
		}
		if err != nil {
			return nil, "", err
		}
		logger.Info("whisper model loaded", "model", r.Model())
		return r, "", nil
	}}
