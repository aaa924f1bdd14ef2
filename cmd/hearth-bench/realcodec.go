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

	"github.com/hearth-appliance/hearth/appliance/audio"
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
// message) and decodes the frames as a session does (appliance/audio's
// decoder for the codec), so that the engine alone is measured on the very
// samples the session hears: another decoder's samples differ, and so do
// the words heard in them.
func roundTrip(ctx context.Context, dir, codec string, pcm []int16) (frames [][]byte, decoded []int16, err error) {
	if frames, err = encode(ctx, dir, codec, pcm); err != nil {
		return nil, nil, err
	}
	rc := realCodecs[codec]
	dec, err := audio.NewDecoder(audio.Format{Codec: rc.name, SampleRate: rc.rate, Channels: 1})
	if err != nil {
		return nil, nil, fmt.Errorf("decode %s: %w", codec, err)
	}
	defer dec.Close()
	for i, f := range frames {
		if decoded, err = dec.Decode(decoded, f); err != nil {
			return nil, nil, fmt.Errorf("decode %s frame %d: %w", codec, i, err)
		}
	}
	return frames, decoded, nil
}

// encode is 16 kHz audio as the wearable sends codec: one frame a message.
func encode(ctx context.Context, dir, codec string, pcm []int16) ([][]byte, error) {
	wav := filepath.Join(dir, "rt-"+codec+".wav")
	if err := os.WriteFile(wav, realspeech.WAV(pcm), 0o600); err != nil {
		return nil, err
	}
	defer os.Remove(wav)
	ff := func(args ...string) ([]byte, error) {
		return runTool(ctx, "ffmpeg", append([]string{"-hide_banner", "-loglevel", "error", "-nostdin", "-y"}, args...)...)
	}
	switch codec {
	case "pcm16":
		return split(realspeech.Bytes(pcm), 640), nil
	case "pcm8":
		b, err := ff("-i", wav, "-ar", "8000", "-ac", "1", "-f", "s16le", "-")
		return split(b, 320), err
	case "opus_fs320":
		ogg, err := encodeOgg(ctx, "-i", wav)
		if err != nil {
			return nil, err
		}
		return oggPackets(ogg)
	case "lc3":
		bits := filepath.Join(dir, "rt.lc3")
		defer os.Remove(bits)
		// 30-byte 10 ms frames: lc3_fs1030, as the Omi firmware sends them.
		if _, err := runTool(ctx, "elc3", "-b", "24000", "-m", "10", wav, bits); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(bits)
		if err != nil || len(b) < 4 {
			return nil, fmt.Errorf("elc3 wrote no stream: %v", err)
		}
		var frames [][]byte
		for off := int(b[2]) | int(b[3])<<8; off+2 <= len(b); {
			n := int(b[off]) | int(b[off+1])<<8
			if off+2+n > len(b) {
				break
			}
			frames = append(frames, b[off+2:off+2+n])
			off += 2 + n
		}
		return frames, nil
	case "aac":
		b, err := ff("-i", wav, "-c:a", "aac", "-b:a", "32k", "-f", "adts", "-")
		if err != nil {
			return nil, err
		}
		var frames [][]byte
		for off := 0; off+7 <= len(b); {
			n := int(b[off+3]&0x03)<<11 | int(b[off+4])<<3 | int(b[off+5])>>5
			if n < 7 || off+n > len(b) {
				break
			}
			frames = append(frames, b[off:off+n])
			off += n
		}
		return frames, nil
	}
	return nil, fmt.Errorf("no encoder for %s", codec)
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
