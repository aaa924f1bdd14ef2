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
	// Every live session's kept audio is encoded as it arrives, so the
	// encoder's CPU is paid per session: at libopus's default complexity
	// (10) a 20 ms frame cost 0.28–0.33 ms (BenchmarkOpusEncode on a busy
	// 2-core guest), three quarters of the server's CPU with 100 scripted
	// sessions; at 5, 0.12–0.16 ms, measured alternately with 10, and
	// PocketSphinx heard Festival speech and recorded voices encoded at 5
	// as well as at 10 (ffmpeg's libopus at compression_level 5 and 10,
	// 16 kbps VoIP: 3 and 6 words wrong of 86). At 3 and 1 it heard two
	// and three words wrong in a 24-word sentence that 10 heard right.
	if err := enc.SetComplexity(opusComplexity); err != nil {
		return nil, err
	}
	return &opusEncoder{enc: enc, buf: make([]byte, 1276)}, nil
}

// opusComplexity is the kept audio's libopus complexity (0–10).
const opusComplexity = 5

type opusEncoder struct {
	enc *opus.Encoder
	buf []byte
}

func (e *opusEncoder) Encode(pcm []int16) ([]byte, error) {
	n, err := e.enc.Encode(pcm, e.buf)
	if err != nil {
		return nil, err
	}
	return e.buf[:n], nil
}

// CanEncodeOpus reports whether this build encodes Opus.
const CanEncodeOpus = true
