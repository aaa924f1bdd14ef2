package audio

import "fmt"

// openContainer is where containers beyond WAV and Ogg Opus would be read;
// this build reads only those two.
func openContainer(path string) (Source, error) {
	return nil, fmt.Errorf("%w: not a WAV or Ogg Opus file (other formats such as MP3 and M4A are not read by this build)", ErrInvalidAudio)
}
