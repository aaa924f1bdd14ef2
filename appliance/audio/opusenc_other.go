//go:build !(libopus && cgo)

package audio

// NewOpusEncoder is ErrNoEncoder: this build has no libopus.
func NewOpusEncoder() (Encoder, error) { return nil, ErrNoEncoder }

// CanEncodeOpus reports whether this build encodes Opus.
const CanEncodeOpus = false
