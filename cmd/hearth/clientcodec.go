package main

import (
	"encoding/binary"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// frameEncoder turns one 20 ms frame of PCM (at the codec's rate) into the
// bytes of one socket message.
type frameEncoder func(pcm []int16) ([]byte, error)

// clientCodec is how `hearth listen --file` sends audio: the codec's name
// on the socket, its sample rate, and its encoder.
func clientCodec(codec string) (rate int, enc frameEncoder, err error) {
	switch codec {
	case audio.PCM16, audio.PCM8:
		return map[string]int{audio.PCM16: 16000, audio.PCM8: 8000}[codec], pcmFrame, nil
	case "opus":
		enc, err := newOpusEncoder()
		if err != nil {
			return 0, nil, usageErr("--codec opus: %v", err)
		}
		return 16000, enc, nil
	}
	return 0, nil, usageErr("--codec %q: pcm16, pcm8 or opus", codec)
}

func pcmFrame(pcm []int16) ([]byte, error) {
	b := make([]byte, 2*len(pcm))
	for i, v := range pcm {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b, nil
}
