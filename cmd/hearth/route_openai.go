package main

import (
	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/openaistt"
)

// An OpenAI-compatible transcription server the owner configured.
func buildOpenAI(cfg appliance.Config, d routeDeps) (any, string, error) {
	if cfg.OpenAISTTURL == "" {
		return nil, "not configured (--openai-stt-url)", nil
	}
	r, err := openaistt.New(openaistt.Config{BaseURL: cfg.OpenAISTTURL, Model: cfg.OpenAISTTModel, APIKey: cfg.OpenAISTTAPIKey})
	if err != nil {
		return nil, "", usageErr("--openai-stt-url: %v", err)
	}
	d.logger.Warn("speech route on: audio leaves this box for the transcription server", "route", openaistt.Name,
		"server", redactURL(cfg.OpenAISTTURL), "model", r.Model())
	return r, "", nil
}
