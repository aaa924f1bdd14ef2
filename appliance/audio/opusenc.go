//go:build libopus && cgo

package audio

import (
	opus "gopkg.in/hraban/opus.v2"
)

// NewOpusEncoder encodes 16 kHz mono speech with libopus at about 16 kbps
// (VoIP mode: SILK, made for speech), about 7 MB an hour.
func NewOpusEncoder() (Encoder, error) {
	enc, err := opus.NewEncoder(Rate, 1, opus.AppVoIP)
	if err != nil {
		return nil, err
	}
	if err := enc.SetBitrate(16000); err != nil {
		return nil, err
	}
	return &opusEncoder{enc: enc, buf: make([]byte, 1276)}, nil
}

type opusEncoder struct {
	enc *opus.Encoder
	buf []byte
}

func (e *opusEncoder) Encode(pcm []int16) ([]byte, error) {
	n, err := e.enc.Encode(pcm, e.buf)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), e.buf[:n]...), nil
}

// CanEncodeOpus reports whether this build encodes Opus.
const CanEncodeOpus = true
