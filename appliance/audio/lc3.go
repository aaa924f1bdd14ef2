//go:build lc3 && cgo

package audio

/*
#cgo pkg-config: lc3
#include <stdlib.h>
#include <lc3.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// lc3Decoder decodes LC3 through liblc3. lc3_fs1030 is 10 ms frames of 30
// bytes at 16 kHz; a message may carry several frames back to back.
type lc3Decoder struct {
	mem       unsafe.Pointer
	dec       C.lc3_decoder_t
	frameSize int // bytes per frame
	samples   int // per frame
	pcm       []int16
	rs        *Resampler
}

func newLC3(rate, channels, frameUS, frameBytes int) (Decoder, error) {
	if channels != 1 {
		return nil, fmt.Errorf("lc3 with %d channels: %w", channels, ErrUnsupported)
	}
	size := C.lc3_decoder_size(C.int(frameUS), C.int(rate))
	if size == 0 {
		return nil, fmt.Errorf("lc3 at %d Hz, %d µs frames: %w", rate, frameUS, ErrUnsupported)
	}
	mem := C.malloc(C.size_t(size))
	dec := C.lc3_setup_decoder(C.int(frameUS), C.int(rate), C.int(rate), mem)
	if dec == nil {
		C.free(mem)
		return nil, fmt.Errorf("lc3 setup at %d Hz: %w", rate, ErrUnsupported)
	}
	n := int(C.lc3_frame_samples(C.int(frameUS), C.int(rate)))
	return &lc3Decoder{mem: mem, dec: dec, frameSize: frameBytes, samples: n, pcm: make([]int16, n), rs: NewResampler(rate, Rate)}, nil
}

func (d *lc3Decoder) Decode(dst []int16, frame []byte) ([]int16, error) {
	if d.dec == nil {
		return dst, fmt.Errorf("lc3: decoder closed")
	}
	if len(frame) == 0 || len(frame)%d.frameSize != 0 {
		return dst, fmt.Errorf("lc3: %d bytes is not a whole number of %d-byte frames", len(frame), d.frameSize)
	}
	for off := 0; off < len(frame); off += d.frameSize {
		chunk := frame[off : off+d.frameSize]
		rc := C.lc3_decode(d.dec, unsafe.Pointer(&chunk[0]), C.int(d.frameSize), C.LC3_PCM_FORMAT_S16,
			unsafe.Pointer(&d.pcm[0]), 1)
		if rc < 0 {
			return dst, fmt.Errorf("lc3: frame %d does not decode", off/d.frameSize)
		}
		dst = d.rs.Process(dst, d.pcm)
	}
	return dst, nil
}

func (d *lc3Decoder) Close() error {
	if d.mem != nil {
		C.free(d.mem)
		d.mem, d.dec = nil, nil
	}
	return nil
}
