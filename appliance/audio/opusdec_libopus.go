//go:build libopus && cgo

package audio

import (
	"fmt"

	opus "gopkg.in/hraban/opus.v2"
)

// newOpus decodes with libopus where the build has it: every live
// session's frames are decoded as they arrive, and libopus (C, with its
// SIMD paths) costs less CPU per frame than pion/opus
// (BenchmarkDecode/opus_fs320).
func newOpus(channels int) (Decoder, error) {
	dec, err := opus.NewDecoder(Rate, channels)
	if err != nil {
		return nil, fmt.Errorf("opus decoder: %w", err)
	}
	return &libopusDecoder{dec: dec, channels: channels, pcm: make([]int16, maxOpusSamples*channels)}, nil
}

// libopusDecoder is opusDecoder's twin on libopus: one packet per message,
// straight to 16 kHz, stereo mixed down to mono.
type libopusDecoder struct {
	dec      *opus.Decoder
	channels int
	pcm      []int16
}

func (o *libopusDecoder) Decode(dst []int16, frame []byte) ([]int16, error) {
	if len(frame) == 0 {
		return dst, fmt.Errorf("opus: empty packet")
	}
	n, err := o.dec.Decode(frame, o.pcm)
	if err != nil {
		return dst, fmt.Errorf("opus: %w", err)
	}
	if o.channels == 1 {
		return append(dst, o.pcm[:n]...), nil
	}
	for i := 0; i < n; i++ {
		dst = append(dst, int16((int32(o.pcm[2*i])+int32(o.pcm[2*i+1]))/2))
	}
	return dst, nil
}

func (o *libopusDecoder) Close() error { return nil }
