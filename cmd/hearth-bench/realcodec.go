package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
)

// realCodec is how a wearable sends a codec on /v4/listen: the session's
// codec and sample_rate parameters and how long one frame lasts.
type realCodec struct {
	name  string // the codec parameter
	rate  int    // the sample_rate parameter
	frame time.Duration
}

// realCodecs are the codecs the realspeech scenario can send, by the name
// its -real-codecs flag takes.
var realCodecs = map[string]realCodec{
	"pcm16":      {"pcm16", 16000, 20 * time.Millisecond},
	"pcm8":       {"pcm8", 8000, 20 * time.Millisecond},
	"opus_fs320": {"opus_fs320", 16000, 20 * time.Millisecond},
	"lc3":        {"lc3_fs1030", 16000, 10 * time.Millisecond},
	"aac":        {"aac", 16000, 64 * time.Millisecond},
}

// realCodecNames is their order in the report.
var realCodecNames = []string{"pcm16", "pcm8", "opus_fs320", "lc3", "aac"}

// roundTrip encodes 16 kHz audio as the wearable sends codec (one frame a
// message) and decodes the encoding back to 16 kHz with the reference
// tools, so that the engine alone can be measured on the very audio the
// session hears.
func roundTrip(ctx context.Context, dir, codec string, pcm []int16) (frames [][]byte, decoded []int16, err error) {
	wav := filepath.Join(dir, "rt-"+codec+".wav")
	if err := os.WriteFile(wav, realspeech.WAV(pcm), 0o600); err != nil {
		return nil, nil, err
	}
	defer os.Remove(wav)
	ff := func(args ...string) ([]byte, error) {
		return runTool(ctx, "ffmpeg", append([]string{"-hide_banner", "-loglevel", "error", "-nostdin", "-y"}, args...)...)
	}
	back := func(in string, inArgs ...string) ([]int16, error) {
		b, err := ff(append(append(inArgs, "-i", in), "-ac", "1", "-ar", "16000", "-f", "s16le", "-")...)
		return realspeech.FromBytes(b), err
	}
	switch codec {
	case "pcm16":
		b := realspeech.Bytes(pcm)
		return split(b, 640), pcm, nil
	case "pcm8":
		b, err := ff("-i", wav, "-ar", "8000", "-ac", "1", "-f", "s16le", "-")
		if err != nil {
			return nil, nil, err
		}
		raw := filepath.Join(dir, "rt.s16")
		if err := os.WriteFile(raw, b, 0o600); err != nil {
			return nil, nil, err
		}
		defer os.Remove(raw)
		decoded, err = back(raw, "-f", "s16le", "-ar", "8000", "-ac", "1")
		return split(b, 320), decoded, err
	case "opus_fs320":
		ogg, err := encodeOgg(ctx, "-i", wav)
		if err != nil {
			return nil, nil, err
		}
		if frames, err = oggPackets(ogg); err != nil {
			return nil, nil, err
		}
		path := filepath.Join(dir, "rt.ogg")
		if err := os.WriteFile(path, ogg, 0o600); err != nil {
			return nil, nil, err
		}
		defer os.Remove(path)
		decoded, err = back(path)
		return frames, decoded, err
	case "lc3":
		bits, out := filepath.Join(dir, "rt.lc3"), filepath.Join(dir, "rt-lc3.wav")
		defer os.Remove(bits)
		defer os.Remove(out)
		// 30-byte 10 ms frames: lc3_fs1030, as the Omi firmware sends them.
		if _, err := runTool(ctx, "elc3", "-b", "24000", "-m", "10", wav, bits); err != nil {
			return nil, nil, err
		}
		if _, err := runTool(ctx, "dlc3", bits, out); err != nil {
			return nil, nil, err
		}
		b, err := os.ReadFile(bits)
		if err != nil || len(b) < 4 {
			return nil, nil, fmt.Errorf("elc3 wrote no stream: %v", err)
		}
		for off := int(b[2]) | int(b[3])<<8; off+2 <= len(b); {
			n := int(b[off]) | int(b[off+1])<<8
			if off+2+n > len(b) {
				break
			}
			frames = append(frames, b[off+2:off+2+n])
			off += 2 + n
		}
		decoded, err = back(out)
		return frames, decoded, err
	case "aac":
		path := filepath.Join(dir, "rt.aac")
		defer os.Remove(path)
		if _, err := ff("-i", wav, "-c:a", "aac", "-b:a", "32k", "-f", "adts", path); err != nil {
			return nil, nil, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		for off := 0; off+7 <= len(b); {
			n := int(b[off+3]&0x03)<<11 | int(b[off+4])<<3 | int(b[off+5])>>5
			if n < 7 || off+n > len(b) {
				break
			}
			frames = append(frames, b[off:off+n])
			off += n
		}
		decoded, err = back(path)
		return frames, decoded, err
	}
	return nil, nil, fmt.Errorf("no encoder for %s", codec)
}

func split(b []byte, n int) [][]byte {
	var out [][]byte
	for off := 0; off < len(b); off += n {
		out = append(out, b[off:min(off+n, len(b))])
	}
	return out
}

// runTool runs an installed tool and returns its standard output.
func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	if _, err := exec.LookPath(name); err != nil {
		return nil, fmt.Errorf("the realspeech scenario needs %s: install it (scripts/deps.sh test)", name)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, errors.New(name + ": " + err.Error() + ": " + strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}
