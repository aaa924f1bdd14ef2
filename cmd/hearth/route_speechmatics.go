package main

import (
	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/speechmatics"
)

// Speechmatics, when the owner gives it a key: audio leaves the box for it.
func buildSpeechmatics(cfg appliance.Config, d routeDeps) (any, string, error) {
	if cfg.SpeechmaticsAPIKey == "" {
		return nil, "not configured (--speechmatics-api-key)", nil
	}
	r, err := speechmatics.New(speechmatics.Config{APIKey: cfg.SpeechmaticsAPIKey, URL: cfg.SpeechmaticsURL,
		OperatingPoint: cfg.SpeechmaticsOperatingPoint})
	if err != nil {
		return nil, "", usageErr("speechmatics: %v", err)
	}
	d.logger.Warn("speech route on: audio leaves this box for Speechmatics", "route", speechmatics.Name, "model", r.Model())
	return r, "", nil
}
