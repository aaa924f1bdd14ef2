package audio_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// TestOggOpusPackets_DecodeAsTheLiveStream: a wearable's own packets
// (libopus as the firmware encodes them: opus_fs320's 20 ms CELT, the
// DevKit's 10 ms SILK) written as they came decode with the appliance's
// own Ogg Opus reader to exactly what the live decoder heard; a file cut
// by a crash plays up to its last page, which is at most a second back;
// and a file that starts mid-stream, its decoder primed by the packets
// before, is the live audio from there on.
func TestOggOpusPackets_DecodeAsTheLiveStream(t *testing.T) {
	t.Parallel()
	_, wav := speech(t, "Book the dentist for Thursday afternoon, and remind me to call Farid about Easter.")
	for _, c := range []struct {
		codec   string
		args    []string
		preRoll int // packets in 80 ms
	}{
		{audio.OpusFS320, []string{"-application", "lowdelay", "-frame_duration", "20", "-b:a", "32k"}, 4},
		{audio.Opus, []string{"-application", "voip", "-frame_duration", "10", "-b:a", "20k", "-cutoff", "8000"}, 8},
	} {
		t.Run(c.codec, func(t *testing.T) {
			t.Parallel()
			enc := filepath.Join(t.TempDir(), "wearable.ogg")
			run(t, "ffmpeg", append(append([]string{"-hide_banner", "-loglevel", "error", "-y", "-i", wav, "-c:a", "libopus"}, c.args...), enc)...)
			testOggOpusPackets(t, c.codec, oggPackets(t, enc), c.preRoll)
		})
	}
}

func testOggOpusPackets(t *testing.T, codec string, packets [][]byte, preRoll int) {
	live, err := audio.NewDecoder(audio.Format{Codec: codec, SampleRate: audio.Rate})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	var heard []int16
	at := make([]int, len(packets)) // each packet's first sample in heard
	write := func(first, preSkip int) []byte {
		var buf bytes.Buffer
		w, err := audio.NewOggOpusPackets(&buf, 9, "hearth test", audio.OpusPackets{Channels: 1, PreSkip: preSkip})
		if err != nil {
			t.Fatal(err)
		}
		for i := first; i < len(packets); i++ {
			end := len(heard)
			if i+1 < len(packets) {
				end = at[i+1]
			}
			if err := w.WritePacket(packets[i], end-at[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for i, p := range packets {
		at[i] = len(heard)
		if heard, err = live.Decode(heard, p); err != nil {
			t.Fatalf("packet %d: %v", i, err)
		}
	}
	sent := time.Duration(len(heard)) * time.Second / audio.Rate

	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.ogg")
	b := write(0, 0)
	if err := os.WriteFile(whole, b, 0o600); err != nil {
		t.Fatal(err)
	}
	got := decodedSamples(t, whole)
	if len(got) != len(heard) {
		t.Fatalf("decoded %d samples of the %d heard live", len(got), len(heard))
	}
	for i := range got {
		if got[i] != heard[i] {
			t.Fatalf("sample %d: %d, the live decoder heard %d", i, got[i], heard[i])
		}
	}
	if d, err := audio.OggDuration(whole); err != nil || d != sent {
		t.Errorf("OggDuration %v (%v), want %v", d, err, sent)
	}
	total := 0
	for _, p := range packets {
		total += len(p)
	}
	// Headers and pages: 27 bytes a page and a lacing byte a packet.
	if over := len(b) - total - len(packets); over < 0 || over > 1024 {
		t.Errorf("%d bytes for %d bytes of packets: not the packets as they came", len(b), total)
	}

	// A crash in the middle of the last page: the pages before play.
	cut := filepath.Join(dir, "cut.ogg")
	if err := os.WriteFile(cut, b[:len(b)-40], 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := audio.OggDuration(cut)
	if n := len(decodedSamples(t, cut)); err != nil || d < sent-time.Second || d >= sent || time.Duration(n)*time.Second/audio.Rate != d {
		t.Errorf("cut file: OggDuration %v (%v), decoded %d samples, of %v sent", d, err, n, sent)
	}

	// Mid-stream: 80 ms of packets prime the decoder, the pre-skip drops
	// them.
	const first = 50
	mid := filepath.Join(dir, "mid.ogg")
	if err := os.WriteFile(mid, write(first-preRoll, (at[first]-at[first-preRoll])*3), 0o600); err != nil {
		t.Fatal(err)
	}
	got, want := decodedSamples(t, mid), heard[at[first]:]
	if len(got) != len(want) {
		t.Fatalf("from packet %d: decoded %d samples, want %d", first, len(got), len(want))
	}
	db, shift := snr(want, got, 0)
	if db < 30 || shift != 0 {
		t.Errorf("from packet %d: %.1f dB against the live audio (shift %d)", first, db, shift)
	}
	t.Logf("%d packets, %v; from packet %d primed by %d: %.1f dB against the live audio", len(packets), sent, first, preRoll, db)
}

func decodedSamples(t *testing.T, path string) []int16 {
	t.Helper()
	src, err := audio.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var out []int16
	buf := make([]int16, 4096)
	for {
		k, err := src.Read(buf)
		out = append(out, buf[:k]...)
		if err != nil {
			return out
		}
	}
}
