package main

import (
	"encoding/binary"
	"fmt"
	"io"

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

// encodeRecording reads src to its end and hands emit each 20 ms frame at
// rate, encoded by enc, with the samples it holds. A source's reads end
// wherever its decoder's blocks end (4,096 samples for a WAV file), and
// an encoder pads a short frame with silence, so frames are cut from the
// samples as they accumulate: only the recording's last frame may be
// short.
func encodeRecording(src audio.Source, rate int, enc frameEncoder, emit func(frame []byte, samples int) error) error {
	rs := audio.NewResampler(audio.Rate, rate)
	size := rate / 50
	buf := make([]int16, audio.Rate/50)
	var pending []int16
	send := func(pcm []int16) error {
		frame, err := enc(pcm)
		if err != nil {
			return fmt.Errorf("encode audio: %w", err)
		}
		return emit(frame, len(pcm))
	}
	for {
		n, err := src.Read(buf)
		if n > 0 {
			pending = rs.Process(pending, buf[:n])
			whole := len(pending) / size * size
			for off := 0; off < whole; off += size {
				if serr := send(pending[off : off+size]); serr != nil {
					return serr
				}
			}
			pending = append(pending[:0], pending[whole:]...)
		}
		if err == io.EOF {
			if len(pending) > 0 {
				return send(pending)
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}
