package main

import (
	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/deepgram"
)

// Deepgram, when the owner gives it a key: audio leaves the box for it.
func buildDeepgram(cfg appliance.Config, d routeDeps) (any, string, error) {
	if cfg.DeepgramAPIKey == "" {
		return nil, "not configured (--deepgram-api-key)", nil
	}
	r, err := deepgram.New(deepgram.Config{APIKey: cfg.DeepgramAPIKey, BaseURL: cfg.DeepgramURL})
	if err != nil {
		return nil, "", usageErr("deepgram: %v", err)
	}
	server := cfg.DeepgramURL
	if server == "" {
		server = deepgram.DefaultURL
	}
	d.logger.Warn("speech route on: audio leaves this box for Deepgram", "route", deepgram.Name, "server", redactURL(server))
	return r, "", nil
}
