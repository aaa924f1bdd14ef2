package main

import (
	"errors"

	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/models"
)

// modelPuller is models.Puller as the console API consumes it: the API
// does not import the models package, so its "already downloading" error
// is translated here.
type modelPuller struct{ *models.Puller }

func (p modelPuller) Start(name string) error {
	err := p.Puller.Start(name)
	if errors.Is(err, models.ErrPulling) {
		return api.ErrModelPulling
	}
	return err
}

func (p modelPuller) States() any { return p.Puller.States() }
