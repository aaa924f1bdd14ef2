package main

import (
	"errors"
	"fmt"
)

// errDataInUse is returned when a running appliance holds the folder.
var errDataInUse = errors.New("a running hearth serve is using this data folder")

// inUseHint says, when the folder is in use, how to free it: a newcomer's
// second `make run` or a restore meets the first appliance still running.
func inUseHint(err error) error {
	if errors.Is(err, errDataInUse) {
		return fmt.Errorf("%w: stop the running hearth first (Ctrl-C where `make run` or `hearth serve` serves it, or `hearth service stop` for the installed service), or give this one its own --data", err)
	}
	return err
}
