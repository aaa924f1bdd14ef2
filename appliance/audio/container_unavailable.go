//go:build !(libavformat && cgo)

package audio

import "fmt"

// openContainer is where containers beyond WAV and Ogg Opus are read when
// the build has libavformat; this one does not.
func openContainer(path string) (Source, error) {
	return nil, fmt.Errorf("%w: not a WAV or Ogg Opus file (MP3, M4A and other containers need a build with libavformat: install libavformat-dev and run make build)", ErrInvalidAudio)
}

// ReadsContainers reports whether this build reads MP3, M4A and the other
// containers beyond WAV and Ogg Opus.
func ReadsContainers() bool { return false }
