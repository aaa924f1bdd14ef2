// Package realspeech is recorded human speech for tests and benchmarks,
// read from Debian packages at run time (no audio is committed): Allison
// Smith's US English prompts and the French, Italian, Spanish and Russian
// voices of asterisk-core-sounds-*-g722 (their texts in the
// asterisk-core-sounds-* packages), the LibriVox reader, CMU "cards",
// TIDIGITS and "go forward" of pocketsphinx-testdata, the channel names
// of alsa-utils, and whisper.cpp's jfk.wav when it is on this machine.
// Every clip is 16 kHz mono with the text it says.
//
// Streams are clips joined with pauses, as a conversation sounds; they can
// be mixed with noise at a signal-to-noise ratio and scaled to a level,
// the conditions a wearable's microphone meets.
package realspeech

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// SampleRate is the rate of every clip and stream: the one Hearth hears.
const SampleRate = audio.Rate

// rateArg is SampleRate as ffmpeg's -ar takes it.
var rateArg = strconv.Itoa(SampleRate)

// Clip is one recording and what is said in it.
type Clip struct {
	ID       string // where it comes from, e.g. "allison/agent-pass"
	Speaker  string // one name per voice
	Language string // BCP-47 primary tag: en, fr, it, es, ru
	Text     string // what is said, digits written as words
	PCM      []int16
}

// Seconds is the clip's length.
func (c Clip) Seconds() float64 { return float64(len(c.PCM)) / SampleRate }

// Words is the number of words said.
func (c Clip) Words() int { return len(strings.Fields(c.Text)) }

// ErrMissing is wrapped by every error about a package or tool that is not
// installed; the message names it.
var ErrMissing = errors.New("not installed (scripts/deps.sh test installs it)")

// decode runs ffmpeg on one input and returns its audio as 16 kHz mono.
// inputArgs are what goes before -i's file (a raw format's description).
func decode(ctx context.Context, path string, inputArgs ...string) ([]int16, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, fmt.Errorf("ffmpeg decodes the recordings: %w", ErrMissing)
	}
	args := append([]string{"-hide_banner", "-loglevel", "error", "-nostdin"}, inputArgs...)
	args = append(args, "-i", path, "-ac", "1", "-ar", rateArg, "-f", "s16le", "-")
	cmd := exec.CommandContext(ctx, ff, args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("decoding %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	return FromBytes(out.Bytes()), nil
}

// FromBytes reads little-endian 16-bit samples.
func FromBytes(b []byte) []int16 {
	pcm := make([]int16, len(b)/2)
	for i := range pcm {
		pcm[i] = int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
	}
	return pcm
}

// Bytes is pcm as little-endian 16-bit samples, as pcm16 frames carry it.
func Bytes(pcm []int16) []byte {
	b := make([]byte, 2*len(pcm))
	for i, v := range pcm {
		b[2*i], b[2*i+1] = byte(v), byte(uint16(v)>>8)
	}
	return b
}

// WAV is pcm as a 16 kHz mono WAV file.
func WAV(pcm []int16) []byte {
	le32 := func(v int) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
	var b bytes.Buffer
	b.WriteString("RIFF")
	b.Write(le32(36 + 2*len(pcm)))
	b.WriteString("WAVEfmt ")
	b.Write(le32(16))
	b.Write([]byte{1, 0, 1, 0}) // PCM, mono
	b.Write(le32(SampleRate))
	b.Write(le32(2 * SampleRate))
	b.Write([]byte{2, 0, 16, 0})
	b.WriteString("data")
	b.Write(le32(2 * len(pcm)))
	b.Write(Bytes(pcm))
	return b.Bytes()
}
