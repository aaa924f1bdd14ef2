// Package audio turns what a wearable sends into what a recognizer takes:
// 16-bit mono PCM at 16 kHz. Each codec the app names has a Decoder that
// takes one WebSocket binary message (one frame) at a time. PCM and Opus
// are pure Go and always present; LC3 and AAC wrap C libraries (liblc3,
// libavcodec) and are compiled in when the build finds them (make build asks
// pkg-config), otherwise their decoders say they are unavailable.
package audio

import (
	"errors"
	"fmt"
	"strings"
)

// Rate is the appliance's one sample rate: every decoder produces 16-bit
// mono PCM at 16 kHz, and every recogniser, the speaker extractor and the
// room microphone work at it.
const Rate = 16000

// Codec names, as the app and the contract spell them.
const (
	PCM8      = "pcm8"  // 16-bit little-endian PCM at 8 kHz (not 8-bit samples)
	PCM16     = "pcm16" // 16-bit little-endian PCM at 16 kHz
	Opus      = "opus"  // one Opus packet per message (the DevKit: SILK, 10 ms)
	OpusFS320 = "opus_fs320"
	AAC       = "aac" // one ADTS frame per message
	LC3       = "lc3"
	LC3FS1030 = "lc3_fs1030" // LC3, 10 ms frames of 30 bytes
)

// Codecs lists every codec name the socket accepts.
var Codecs = []string{PCM8, PCM16, Opus, OpusFS320, AAC, LC3, LC3FS1030}

// Format is how a session's audio is encoded.
type Format struct {
	Codec      string
	SampleRate int // of the encoded audio
	Channels   int // 1 or 2; stereo is down-mixed
}

// Decoder decodes one frame at a time. It keeps state between frames (a
// codec's history, a resampler's tail), so a session owns one.
type Decoder interface {
	// Decode appends the frame's samples (mono, Rate) to dst. A frame
	// that cannot be decoded returns an error and leaves the decoder usable:
	// the caller skips it and counts it.
	Decode(dst []int16, frame []byte) ([]int16, error)
	// Close frees what the decoder holds (C memory for the C codecs).
	Close() error
}

// ErrUnavailable is returned for a codec this build has no decoder for.
var ErrUnavailable = errors.New("not available in this build")

// ErrUnsupported is returned for a codec name or format that no build
// decodes.
var ErrUnsupported = errors.New("unsupported")

// NewDecoder returns a decoder for f.
func NewDecoder(f Format) (Decoder, error) {
	codec := strings.ToLower(f.Codec)
	if f.Channels == 0 {
		f.Channels = 1
	}
	if f.Channels != 1 && f.Channels != 2 {
		return nil, fmt.Errorf("channels %d: %w (1 or 2)", f.Channels, ErrUnsupported)
	}
	switch codec {
	case PCM8, PCM16:
		if f.SampleRate <= 0 {
			f.SampleRate = map[string]int{PCM8: 8000, PCM16: 16000}[codec]
		}
		if f.SampleRate < 4000 || f.SampleRate > 192000 {
			return nil, fmt.Errorf("sample rate %d: %w", f.SampleRate, ErrUnsupported)
		}
		return newPCM(f.SampleRate, f.Channels), nil
	case Opus, OpusFS320:
		return newOpus(f.Channels)
	case LC3, LC3FS1030:
		if f.SampleRate <= 0 {
			f.SampleRate = 16000
		}
		return newLC3(f.SampleRate, f.Channels, 10000, 30)
	case AAC:
		return newAAC(f.Channels)
	}
	return nil, fmt.Errorf("codec %q: %w (one of %s)", f.Codec, ErrUnsupported, strings.Join(Codecs, ", "))
}

// Available reports whether this build decodes codec.
func Available(codec string) bool {
	d, err := NewDecoder(Format{Codec: codec, SampleRate: Rate, Channels: 1})
	if err != nil {
		return false
	}
	d.Close()
	return true
}
