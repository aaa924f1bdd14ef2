package main

import (
	"errors"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// PocketSphinx: English out of the box, from Debian's packages.
var pocketsphinxRoute = speechRoute{name: pocketsphinx.Name,
	build: func(cfg appliance.Config, deps routeDeps) (any, string, error) {
		r, err := pocketsphinx.New(pocketsphinx.Config{ModelDir: cfg.PocketSphinxModel, IdleAfter: cfg.PocketSphinxIdle,
			GrowAfter: cfg.PocketSphinxGrowAfter, Logger: deps.logger})
		var e *stt.Error
		if errors.As(err, &e) && e.Outcome == stt.ConfigError {
			return nil, e.Reason, nil
		}
		if err != nil {
			return nil, "", err
		}
		return r, "", nil
	}}
