//go:build !libopus || !cgo

package audio

// newOpus decodes with pion/opus: this build has no libopus.
func newOpus(channels int) (Decoder, error) { return newPionOpus(channels) }
