//go:build !(pocketsphinx && cgo)

package pocketsphinx

import "errors"

// Available reports whether this build has the recognizer.
const Available = false

func newDecoder(string) (decoder, error) {
	return nil, errors.New("pocketsphinx is not built in")
}
