//go:build !(libavcodec && cgo)

package audio

import "fmt"

func newAAC(int) (Decoder, error) {
	return nil, fmt.Errorf("codec aac %w (build with libavcodec: install libavcodec-dev and run make build)", ErrUnavailable)
}
