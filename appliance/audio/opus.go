package audio

import (
	"fmt"

	"github.com/pion/opus"
)

// opusDecoder decodes one Opus packet per message with pion/opus (pure Go:
// SILK, CELT and hybrid), straight to 16 kHz, in builds without libopus
// (newOpus picks libopus where the build has it: opusdec_libopus.go). The
// app strips the BLE header, so a message is exactly one packet: 10 ms
// SILK from the DevKit, 20 ms CELT from current firmware (opus_fs320).
type opusDecoder struct {
	dec      opus.Decoder
	channels int
	pcm      []int16
}

// maxOpusSamples is the longest packet (120 ms) at 16 kHz, per channel.
const maxOpusSamples = Rate * 120 / 1000

func newPionOpus(channels int) (Decoder, error) {
	dec, err := opus.NewDecoderWithOutput(Rate, channels)
	if err != nil {
		return nil, fmt.Errorf("opus decoder: %w", err)
	}
	return &opusDecoder{dec: dec, channels: channels, pcm: make([]int16, maxOpusSamples*channels)}, nil
}

func (o *opusDecoder) Decode(dst []int16, frame []byte) ([]int16, error) {
	if len(frame) == 0 {
		return dst, fmt.Errorf("opus: empty packet")
	}
	n, err := o.decode(frame)
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

// decode guards against a malformed packet panicking inside the decoder:
// one bad frame must never take the session down.
func (o *opusDecoder) decode(frame []byte) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("malformed packet (%v)", r)
		}
	}()
	return o.dec.DecodeToInt16(frame, o.pcm)
}

func (o *opusDecoder) Close() error { return nil }
