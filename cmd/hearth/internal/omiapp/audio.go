package omiapp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"
)

// FrameSamples is a 20 ms frame at 16 kHz: what current firmware puts in
// one opus_fs320 packet, and what the app sends per pcm16 message.
const FrameSamples = 320

// FrameDuration is the audio in one frame of Frames.
const FrameDuration = 20 * time.Millisecond

// ErrNoOpusEncoder says the build has no libopus (build tag libopus).
var ErrNoOpusEncoder = errors.New("omiapp: this build has no Opus encoder (build with the libopus tag)")

// Frames encodes 16 kHz mono PCM as a wearable sends codec, one socket
// message per 20 ms frame:
//   - pcm16: 16-bit little-endian samples, 640 bytes a frame (the last may
//     be shorter);
//   - opus_fs320: one Opus packet per frame, encoded as current Omi firmware
//     does (OPUS_APPLICATION_RESTRICTED_LOWDELAY, i.e. CELT only, 32 kbps
//     VBR); the last frame is padded with silence.
func Frames(codec string, pcm []int16) ([][]byte, error) {
	switch codec {
	case "pcm16":
		var frames [][]byte
		for off := 0; off < len(pcm); off += FrameSamples {
			chunk := pcm[off:min(off+FrameSamples, len(pcm))]
			b := make([]byte, 2*len(chunk))
			for i, v := range chunk {
				binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
			}
			frames = append(frames, b)
		}
		return frames, nil
	case "opus_fs320":
		return opusFrames(pcm)
	}
	return nil, fmt.Errorf("omiapp: no encoder for codec %q (pcm16 or opus_fs320)", codec)
}

// HasOpusEncoder reports whether Frames can encode opus_fs320.
func HasOpusEncoder() bool { return hasOpus }

// ReadWAV reads a 16-bit mono PCM WAV file and returns its samples and
// sample rate.
func ReadWAV(path string) ([]int16, int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, 0, fmt.Errorf("%s: not a WAV file", path)
	}
	var rate, channels, bits int
	for off := 12; off+8 <= len(b); {
		id, n := string(b[off:off+4]), int(binary.LittleEndian.Uint32(b[off+4:]))
		body := b[off+8 : min(off+8+n, len(b))]
		switch id {
		case "fmt ":
			if len(body) < 16 {
				return nil, 0, fmt.Errorf("%s: short fmt chunk", path)
			}
			if format := binary.LittleEndian.Uint16(body[0:]); format != 1 && format != 0xFFFE {
				return nil, 0, fmt.Errorf("%s: WAV format %d is not PCM", path, format)
			}
			channels = int(binary.LittleEndian.Uint16(body[2:]))
			rate = int(binary.LittleEndian.Uint32(body[4:]))
			bits = int(binary.LittleEndian.Uint16(body[14:]))
		case "data":
			if channels != 1 || bits != 16 {
				return nil, 0, fmt.Errorf("%s: %d channels of %d bits, want mono 16-bit", path, channels, bits)
			}
			pcm := make([]int16, len(body)/2)
			for i := range pcm {
				pcm[i] = int16(binary.LittleEndian.Uint16(body[2*i:]))
			}
			return pcm, rate, nil
		}
		off += 8 + n + n%2
	}
	return nil, 0, fmt.Errorf("%s: no data chunk", path)
}
