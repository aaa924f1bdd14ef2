//go:build libopus && cgo

package main

import (
	opus "gopkg.in/hraban/opus.v2"
)

// newOpusEncoder encodes 20 ms frames of 16 kHz speech with libopus, one
// packet per message, as the app's "opus" codec sends them.
func newOpusEncoder() (frameEncoder, error) {
	enc, err := opus.NewEncoder(16000, 1, opus.AppVoIP)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 1500)
	return func(pcm []int16) ([]byte, error) {
		if len(pcm) < 320 { // the last frame, padded to 20 ms
			pcm = append(pcm, make([]int16, 320-len(pcm))...)
		}
		n, err := enc.Encode(pcm, buf)
		if err != nil {
			return nil, err
		}
		return append([]byte(nil), buf[:n]...), nil
	}, nil
}

const hasOpusEncoder = true
