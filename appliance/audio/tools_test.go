package audio_test

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requireTool returns the path of an external program the test drives. Under
// make test (HEARTH_REQUIRE_E2E_TOOLS=1) a missing one fails the run, since
// scripts/deps.sh installs it; elsewhere the test is skipped.
func requireTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatalf("%s is not installed (scripts/deps.sh test installs it)", name)
	}
	t.Skipf("%s is not installed; run scripts/deps.sh test", name)
	return ""
}

func run(t testing.TB, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(requireTool(t, name), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// speech synthesises text with Festival's natural HTS voice as 16 kHz mono
// WAV and returns its samples and the file.
func speech(t testing.TB, text string) ([]int16, string) {
	t.Helper()
	dir := t.TempDir()
	txt, wav := filepath.Join(dir, "in.txt"), filepath.Join(dir, "speech.wav")
	os.WriteFile(txt, []byte(text), 0o600)
	run(t, "text2wave", "-F", "16000", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", wav, txt)
	return readWAV(t, wav), wav
}

// readWAV reads a 16-bit PCM WAV file's samples (the first channel).
func readWAV(t testing.TB, path string) []int16 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	channels := 1
	for off := 12; off+8 <= len(b); {
		id, size := string(b[off:off+4]), int(binary.LittleEndian.Uint32(b[off+4:off+8]))
		body := b[off+8:]
		if size > len(body) {
			size = len(body) &^ 1
		}
		switch id {
		case "fmt ":
			channels = int(binary.LittleEndian.Uint16(body[2:4]))
		case "data":
			out := make([]int16, 0, size/2/channels)
			for i := 0; i+2*channels <= size; i += 2 * channels {
				out = append(out, int16(binary.LittleEndian.Uint16(body[i:])))
			}
			return out
		}
		off += 8 + size + size%2
	}
	t.Fatalf("%s: no data chunk", path)
	return nil
}

// oggPackets returns the packets of an Ogg stream, after the two Opus
// header packets.
func oggPackets(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var packets [][]byte
	var cur []byte
	for off := 0; off+27 <= len(b); {
		if string(b[off:off+4]) != "OggS" {
			t.Fatalf("%s: bad page at %d", path, off)
		}
		nseg := int(b[off+26])
		lacing := b[off+27 : off+27+nseg]
		data := off + 27 + nseg
		for _, l := range lacing {
			cur = append(cur, b[data:data+int(l)]...)
			data += int(l)
			if l < 255 {
				packets = append(packets, cur)
				cur = nil
			}
		}
		off = data
	}
	if len(packets) < 3 {
		t.Fatalf("%s: %d packets", path, len(packets))
	}
	return packets[2:] // OpusHead, OpusTags
}

// lc3Frames returns the frames of a liblc3 bitstream file (elc3's output:
// an 18-byte header, then each frame after its 2-byte length).
func lc3Frames(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hdr := int(binary.LittleEndian.Uint16(b[2:4]))
	var frames [][]byte
	for off := hdr; off+2 <= len(b); {
		n := int(binary.LittleEndian.Uint16(b[off:]))
		frames = append(frames, b[off+2:off+2+n])
		off += 2 + n
	}
	return frames
}

// adtsFrames splits an ADTS stream into its frames.
func adtsFrames(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	for off := 0; off+7 <= len(b); {
		if b[off] != 0xFF || b[off+1]&0xF0 != 0xF0 {
			t.Fatalf("%s: no ADTS sync at %d", path, off)
		}
		n := int(b[off+3]&0x03)<<11 | int(b[off+4])<<3 | int(b[off+5])>>5
		frames = append(frames, b[off:off+n])
		off += n
	}
	return frames
}

// snr is the signal-to-noise ratio (dB) of got against want, at the
// alignment (shift of got within ±maxShift samples) that maximises it.
func snr(want, got []int16, maxShift int) (db float64, shift int) {
	best, bestShift := math.Inf(-1), 0
	for s := -maxShift; s <= maxShift; s++ {
		var sig, noise float64
		n := 0
		for i := range want {
			j := i + s
			if j < 0 || j >= len(got) {
				continue
			}
			d := float64(want[i]) - float64(got[j])
			sig += float64(want[i]) * float64(want[i])
			noise += d * d
			n++
		}
		if n < len(want)/2 || sig == 0 {
			continue
		}
		v := 10 * math.Log10(sig/math.Max(noise, 1e-9))
		if v > best {
			best, bestShift = v, s
		}
	}
	return best, bestShift
}

// tone is a sine of freq Hz at rate, amplitude amp, n samples.
func tone(freq float64, rate, n int, amp float64) []int16 {
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(amp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))
	}
	return out
}

// power is the Goertzel power of freq in x (sampled at rate), normalised.
func power(x []int16, freq float64, rate int) float64 {
	w := 2 * math.Pi * freq / float64(rate)
	c := 2 * math.Cos(w)
	var s1, s2 float64
	for _, v := range x {
		s := float64(v) + c*s1 - s2
		s2, s1 = s1, s
	}
	p := s1*s1 + s2*s2 - c*s1*s2
	return p / float64(len(x)) / float64(len(x))
}
