package audio_test

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// readAll decodes a whole source.
func readAll(t *testing.T, src audio.Source) []int16 {
	t.Helper()
	var out []int16
	buf := make([]int16, 777) // an odd size, to cross block edges
	for {
		n, err := src.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// crossings counts sign changes: twice the frequency of a pure tone per second.
func crossings(pcm []int16) int {
	n := 0
	for i := 1; i < len(pcm); i++ {
		if (pcm[i-1] < 0) != (pcm[i] < 0) {
			n++
		}
	}
	return n
}

func TestOpenFileReadsEveryWAVAndOggOpus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string // sox output options
	}{
		{"pcm16-16k-mono.wav", []string{"-r", "16000", "-c", "1", "-b", "16"}},
		{"pcm24-44k-stereo.wav", []string{"-r", "44100", "-c", "2", "-b", "24"}},
		{"u8-8k.wav", []string{"-r", "8000", "-c", "1", "-b", "8", "-e", "unsigned-integer"}},
		{"f32-48k.wav", []string{"-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point"}},
		{"s32-22k.wav", []string{"-r", "22050", "-c", "2", "-b", "32", "-e", "signed-integer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			run(t, "sox", append(append([]string{"-n"}, tc.args...), path, "synth", "2", "sine", "440", "vol", "0.5")...)
			src, err := audio.OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			pcm := readAll(t, src)
			if d := src.Duration(); d < 1990*time.Millisecond || d > 2010*time.Millisecond {
				t.Errorf("duration %v, want 2 s", d)
			}
			if n := len(pcm); n < 31900 || n > 32200 {
				t.Errorf("%d samples at 16 kHz for 2 s", n)
			}
			if c := crossings(pcm[1600:17600]); c < 870 || c > 890 {
				t.Errorf("%d zero crossings in a second of 440 Hz", c)
			}
		})
	}
	t.Run("ogg-opus", func(t *testing.T) {
		wav := filepath.Join(dir, "tone48.wav")
		run(t, "sox", "-n", "-r", "48000", "-c", "1", "-b", "16", wav, "synth", "2", "sine", "440", "vol", "0.5")
		ogg := filepath.Join(dir, "tone.opus")
		run(t, "opusenc", "--quiet", "--bitrate", "32", wav, ogg)
		src, err := audio.OpenFile(ogg)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		pcm := readAll(t, src)
		if n := len(pcm); n < 31500 || n > 33000 {
			t.Errorf("%d samples for 2 s", n)
		}
		if c := crossings(pcm[1600:17600]); c < 860 || c > 900 {
			t.Errorf("%d zero crossings in a second of 440 Hz", c)
		}
	})
}

func TestRawPCMAndBadFiles(t *testing.T) {
	t.Parallel()
	// Raw linear16 at 8 kHz stereo: a second becomes 16,000 samples.
	raw := make([]byte, 8000*2*2)
	for i := 0; i < 8000; i++ {
		v := int16(8000 * math.Sin(2*math.Pi*300*float64(i)/8000))
		for c := range 2 {
			raw[4*i+2*c], raw[4*i+2*c+1] = byte(v), byte(uint16(v)>>8)
		}
	}
	src, err := audio.NewRawPCM(bytesReader(raw), 8000, 2)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(readAll(t, src)); n < 15900 || n > 16100 {
		t.Fatalf("%d samples from a second at 8 kHz", n)
	}
	if _, err := audio.NewRawPCM(bytesReader(raw), 1000, 1); !errors.Is(err, audio.ErrInvalidAudio) {
		t.Fatalf("1 kHz raw PCM: %v", err)
	}

	dir := t.TempDir()
	for name, content := range map[string]string{
		"empty.wav":     "",
		"text.wav":      "hello, this is not audio at all",
		"truncated.wav": "RIFF\x24\x00\x00\x00WAVEfmt ",
		"adpcm.wav":     "RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x02\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x04\x00data\x00\x00\x00\x00",
		"nodata.wav":    "RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10\x00",
		"fake.ogg":      "OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x13OpusHead",
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o600)
		src, err := audio.OpenFile(path)
		if err == nil {
			_, err = src.Read(make([]int16, 100))
			src.Close()
		}
		if !errors.Is(err, audio.ErrInvalidAudio) {
			t.Errorf("%s: %v, want ErrInvalidAudio", name, err)
		}
	}
}

type byteReader struct{ b []byte }

func bytesReader(b []byte) *byteReader { return &byteReader{b} }
func (r *byteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// FuzzOpenFile: no upload, however damaged, panics or reads forever.
func FuzzOpenFile(f *testing.F) {
	f.Add([]byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10\x00data\x04\x00\x00\x00\x01\x02\x03\x04"))
	f.Add([]byte("OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x13OpusHead\x01\x01\x38\x01\x80\x3e\x00\x00\x00\x00\x00"))
	f.Add([]byte("not audio"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "upload")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		src, err := audio.OpenFile(path)
		if err != nil {
			return
		}
		defer src.Close()
		buf := make([]int16, 4096)
		for range 10000 {
			if _, err := src.Read(buf); err != nil {
				return
			}
		}
		t.Fatal("a tiny file read for ever")
	})
}

func TestOpenFileReadsContainersWithLibavformat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wav := filepath.Join(dir, "tone.wav")
	run(t, "sox", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "vol", "0.5")
	for _, tc := range []struct{ name, codec string }{
		{"tone.mp3", "libmp3lame"}, {"tone.m4a", "aac"}, {"tone.flac", "flac"}, {"tone.webm", "libopus"}, {"tone.ogg", "libvorbis"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			run(t, "ffmpeg", "-hide_banner", "-loglevel", "error", "-i", wav, "-c:a", tc.codec, path)
			src, err := audio.OpenFile(path)
			if !audio.ReadsContainers() {
				if !errors.Is(err, audio.ErrInvalidAudio) || !strings.Contains(err.Error(), "libavformat") {
					t.Fatalf("a build without libavformat: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			pcm := readAll(t, src)
			if n := len(pcm); n < 31500 || n > 33500 {
				t.Errorf("%d samples for 2 s", n)
			}
			if d := src.Duration(); d < 1900*time.Millisecond || d > 2200*time.Millisecond {
				t.Errorf("duration %v", d)
			}
			if c := crossings(pcm[3200:19200]); c < 860 || c > 900 {
				t.Errorf("%d zero crossings in a second of 440 Hz", c)
			}
		})
	}
}
