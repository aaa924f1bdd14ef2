package main

import (
	"errors"
	"log/slog"
	"path/filepath"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt"
)

// whisper.cpp: the best local route once a model is pulled.
func init() {
	speechRouteKinds = append(speechRouteKinds, speechRoute{name: localstt.Name,
		build: func(cfg appliance.Config, logger *slog.Logger) (any, string, error) {
			r, err := localstt.New(localstt.Config{Model: cfg.WhisperModel, ModelsDir: filepath.Join(cfg.DataDir, "models"),
				Workers: cfg.WhisperWorkers})
			var e *stt.Error
			if errors.As(err, &e) && e.Outcome == stt.ConfigError {
				return nil, e.Reason, nil
			}
			if err != nil {
				return nil, "", err
			}
			logger.Info("whisper model loaded", "model", r.Model())
			return r, "", nil
		}})
}
