//go:build libopus && cgo

package omiapp

import (
	opus "gopkg.in/hraban/opus.v2"
)

const hasOpus = true

// opusFrames encodes with libopus as the firmware configures it: 16 kHz
// mono, OPUS_APPLICATION_RESTRICTED_LOWDELAY (CELT only), 32 kbps, VBR
// (libopus's default), 320 samples a packet.
func opusFrames(pcm []int16) ([][]byte, error) {
	enc, err := opus.NewEncoder(16000, 1, opus.AppRestrictedLowdelay)
	if err != nil {
		return nil, err
	}
	if err := enc.SetBitrate(32000); err != nil {
		return nil, err
	}
	buf := make([]byte, 1276) // the largest Opus packet
	var frames [][]byte
	for off := 0; off < len(pcm); off += FrameSamples {
		frame := pcm[off:min(off+FrameSamples, len(pcm))]
		if len(frame) < FrameSamples {
			frame = append(append([]int16(nil), frame...), make([]int16, FrameSamples-len(frame))...)
		}
		n, err := enc.Encode(frame, buf)
		if err != nil {
			return nil, err
		}
		frames = append(frames, append([]byte(nil), buf[:n]...))
	}
	return frames, nil
}
