//go:build !(whisper && cgo)

package localstt

import (
	"errors"
	"log/slog"
)

// Available reports whether this build has whisper.cpp.
const Available = false

func loadEngine(string) (engine, error) { return nil, errors.New("whisper.cpp is not built in") }

func logTo(*slog.Logger) {}
