package main

import (
	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/soniox"
)

// Soniox, when the owner gives it a key: audio leaves the box for it.
func buildSoniox(cfg appliance.Config, d routeDeps) (any, string, error) {
	if cfg.SonioxAPIKey == "" {
		return nil, "not configured (--soniox-api-key)", nil
	}
	r, err := soniox.New(soniox.Config{APIKey: cfg.SonioxAPIKey, URL: cfg.SonioxURL})
	if err != nil {
		return nil, "", usageErr("soniox: %v", err)
	}
	d.logger.Warn("speech route on: audio leaves this box for Soniox", "route", soniox.Name, "model", r.Model())
	return r, "", nil
}
