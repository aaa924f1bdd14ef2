//go:build !(libopus && cgo)

package omiapp

const hasOpus = false

func opusFrames([]int16) ([][]byte, error) { return nil, ErrNoOpusEncoder }
