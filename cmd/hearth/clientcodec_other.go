//go:build !(libopus && cgo)

package main

import "errors"

func newOpusEncoder() (frameEncoder, error) {
	return nil, errors.New("this build has no Opus encoder (libopus; make build links it when pkg-config finds opus)")
}

const hasOpusEncoder = false
