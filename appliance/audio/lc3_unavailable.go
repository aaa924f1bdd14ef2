//go:build !(lc3 && cgo)

package audio

import "fmt"

func newLC3(int, int, int, int) (Decoder, error) {
	return nil, fmt.Errorf("codec lc3 %w (build with liblc3: install liblc3-dev and run make build)", ErrUnavailable)
}
