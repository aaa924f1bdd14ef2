//go:build !(libopus && cgo)

package main

func newOpusEncoder() (frameEncoder, error) { return nil, errNoOpusEncoder }

const hasOpusEncoder = false
