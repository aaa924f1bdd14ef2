package audio_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// BenchmarkDecode measures each codec's decode speed on real speech; the
// "x-realtime" metric is seconds of audio decoded per second of one core.
func BenchmarkDecode(b *testing.B) {
	for _, tc := range []struct {
		codec string
		rate  int
		ms    float64 // audio per frame
		make  func(b *testing.B, wav string) [][]byte
	}{
		{audio.PCM16, 16000, 20, func(b *testing.B, wav string) [][]byte { return pcmFrames(readWAV(b, wav), 320) }},
		{audio.PCM8, 8000, 20, func(b *testing.B, wav string) [][]byte {
			return pcmFrames(audio.NewResampler(16000, 8000).Process(nil, readWAV(b, wav)), 160)
		}},
		{audio.OpusFS320, 16000, 20, func(b *testing.B, wav string) [][]byte {
			out := filepath.Join(b.TempDir(), "s.ogg")
			run(b, "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", wav, "-c:a", "libopus", "-application", "lowdelay", "-frame_duration", "20", "-b:a", "32k", out)
			return oggPackets(b, out)
		}},
		{audio.Opus, 16000, 10, func(b *testing.B, wav string) [][]byte {
			out := filepath.Join(b.TempDir(), "s.ogg")
			run(b, "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", wav, "-c:a", "libopus", "-application", "voip", "-frame_duration", "10", "-b:a", "20k", "-cutoff", "8000", out)
			return oggPackets(b, out)
		}},
		{audio.LC3FS1030, 16000, 10, func(b *testing.B, wav string) [][]byte {
			out := filepath.Join(b.TempDir(), "s.lc3")
			run(b, "elc3", "-b", "24000", "-m", "10", wav, out)
			return lc3Frames(b, out)
		}},
	} {
		b.Run(tc.codec, func(b *testing.B) {
			if !audio.Available(tc.codec) {
				b.Skip("not in this build")
			}
			_, wav := speech(b, "The quarterly budget review moved to Friday at three, so please send the numbers tomorrow.")
			frames := tc.make(b, wav)
			d, err := audio.NewDecoder(audio.Format{Codec: tc.codec, SampleRate: tc.rate})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			buf := make([]int16, 0, 4096)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf, _ = d.Decode(buf[:0], frames[i%len(frames)])
			}
			b.ReportMetric(tc.ms/1000*float64(b.N)/b.Elapsed().Seconds(), "x-realtime")
		})
	}
}

func pcmFrames(pcm []int16, per int) [][]byte {
	b := le16(pcm, 1)
	var out [][]byte
	for off := 0; off < len(b); off += 2 * per {
		out = append(out, b[off:min(off+2*per, len(b))])
	}
	return out
}

// BenchmarkOpusEncode is the CPU every live session's kept audio costs:
// one 20 ms frame of 16 kHz speech-like sound through NewOpusEncoder.
func BenchmarkOpusEncode(b *testing.B) {
	if !audio.CanEncodeOpus {
		b.Skip("built without libopus")
	}
	enc, err := audio.NewOpusEncoder()
	if err != nil {
		b.Fatal(err)
	}
	pcm := make([]int16, 320)
	for i := range pcm {
		pcm[i] = int16(8000 * math.Sin(float64(i)*0.07) * math.Sin(float64(i)*0.013))
	}
	b.ResetTimer()
	for range b.N {
		if _, err := enc.Encode(pcm); err != nil {
			b.Fatal(err)
		}
	}
}
