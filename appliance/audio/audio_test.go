package audio_test

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

func le16(samples []int16, channels int) []byte {
	b := make([]byte, 0, 2*len(samples)*channels)
	for _, s := range samples {
		for range channels {
			b = binary.LittleEndian.AppendUint16(b, uint16(s))
		}
	}
	return b
}

func decodeAll(t *testing.T, d audio.Decoder, frames [][]byte) ([]int16, int) {
	t.Helper()
	var out []int16
	bad := 0
	for _, f := range frames {
		var err error
		out, err = d.Decode(out, f)
		if err != nil {
			bad++
		}
	}
	return out, bad
}

func TestPCM16PassesThroughAcrossSplitSamples(t *testing.T) {
	t.Parallel()
	in := tone(440, 16000, 1600, 8000)
	b := le16(in, 1)
	d, err := audio.NewDecoder(audio.Format{Codec: audio.PCM16, SampleRate: 16000})
	if err != nil {
		t.Fatal(err)
	}
	// Messages cut mid-sample, as BLE notifications can be.
	var frames [][]byte
	for off := 0; off < len(b); off += 77 {
		frames = append(frames, b[off:min(off+77, len(b))])
	}
	got, bad := decodeAll(t, d, frames)
	if bad != 0 || len(got) != len(in) {
		t.Fatalf("%d samples, %d bad; want %d", len(got), bad, len(in))
	}
	for i := range in {
		if got[i] != in[i] {
			t.Fatalf("sample %d: %d, want %d", i, got[i], in[i])
		}
	}
}

func TestPCM8IsUpsampledAndStereoDownmixed(t *testing.T) {
	t.Parallel()
	in := tone(500, 8000, 8000, 10000) // one second
	d, err := audio.NewDecoder(audio.Format{Codec: audio.PCM8, SampleRate: 8000, Channels: 2})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := d.Decode(nil, le16(in, 2))
	if n := len(got); n < 15900 || n > 16000 {
		t.Fatalf("%d samples from one second at 8 kHz, want about 16000", n)
	}
	if p500, p3k := power(got, 500, 16000), power(got, 3000, 16000); p500 < 1000*p3k {
		t.Fatalf("500 Hz tone lost: power %g vs %g off-tone", p500, p3k)
	}
}

func TestResamplerKeepsPassbandAndRejectsAliases(t *testing.T) {
	t.Parallel()
	rs := audio.NewResampler(48000, 16000)
	var pass, alias []int16
	// Feed in odd-sized pieces: the stream's history must carry over.
	in := tone(1000, 48000, 48000, 10000)
	for off := 0; off < len(in); off += 997 {
		pass = rs.Process(pass, in[off:min(off+997, len(in))])
	}
	if n := len(pass); n < 15900 || n > 16000 {
		t.Fatalf("%d samples out of one second", n)
	}
	ref := tone(1000, 16000, len(pass), 10000)
	if p, want := power(pass[200:], 1000, 16000), power(ref[200:], 1000, 16000); math.Abs(10*math.Log10(p/want)) > 0.5 {
		t.Fatalf("1 kHz passband level off by %.2f dB", 10*math.Log10(p/want))
	}
	// 10 kHz is above the output's 8 kHz Nyquist: it must not fold to 6 kHz.
	alias = audio.NewResampler(48000, 16000).Process(nil, tone(10000, 48000, 48000, 10000))
	if p, ref := power(alias, 6000, 16000), power(pass, 1000, 16000); 10*math.Log10(ref/p) < 50 {
		t.Fatalf("alias only %.1f dB below the passband", 10*math.Log10(ref/p))
	}
}

func TestUnknownAndUnavailableCodecs(t *testing.T) {
	t.Parallel()
	if _, err := audio.NewDecoder(audio.Format{Codec: "mp3"}); !errors.Is(err, audio.ErrUnsupported) {
		t.Fatalf("mp3: %v", err)
	}
	if _, err := audio.NewDecoder(audio.Format{Codec: audio.PCM16, Channels: 6}); !errors.Is(err, audio.ErrUnsupported) {
		t.Fatalf("6 channels: %v", err)
	}
	for _, c := range []string{audio.LC3, audio.LC3FS1030, audio.AAC} {
		_, err := audio.NewDecoder(audio.Format{Codec: c, SampleRate: 16000})
		if err != nil && !errors.Is(err, audio.ErrUnavailable) {
			t.Fatalf("%s: %v", c, err)
		}
		if (err == nil) != audio.Available(c) {
			t.Fatalf("%s: Available disagrees with NewDecoder", c)
		}
		// A build made by make test links every codec library scripts/deps.sh installs.
		if err != nil && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("%s is not in this build: %v", c, err)
		}
	}
}

// TestOpusMatchesLibopus decodes real speech encoded by libopus, in the two
// shapes wearables send (current firmware: CELT-only 20 ms at 32 kbps; the
// DevKit: SILK 10 ms), and compares the appliance's decoder's output (and
// pion/opus's, which builds without libopus use) with libopus's own decode
// of the same packets.
func TestOpusMatchesLibopus(t *testing.T) {
	t.Parallel()
	original, wav := speech(t, "The quarterly budget review moved to Friday at three, so please send the numbers tomorrow.")
	dir := t.TempDir()
	for _, tc := range []struct {
		name, codec string
		args        []string
		minSNR      float64
	}{
		// CELT decodes almost bit for bit.
		{"celt 20 ms", audio.OpusFS320, []string{"-application", "lowdelay", "-frame_duration", "20", "-b:a", "32k"}, 40},
		// SILK's long-term and LPC synthesis filters carry pion's float
		// arithmetic differences (libopus is fixed point) forward, so the
		// waveforms drift apart more; the check that matters is below: pion
		// is as close to the original speech as libopus is.
		{"silk 10 ms", audio.Opus, []string{"-application", "voip", "-frame_duration", "10", "-b:a", "20k", "-cutoff", "8000"}, 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ogg, ref := filepath.Join(dir, tc.codec+".ogg"), filepath.Join(dir, tc.codec+"-libopus.wav")
			args := append([]string{"-hide_banner", "-loglevel", "error", "-y", "-i", wav, "-c:a", "libopus"}, tc.args...)
			run(t, "ffmpeg", append(args, ogg)...)
			// opusdec decodes with libopus straight at 16 kHz, as the appliance does.
			run(t, "opusdec", "--quiet", "--rate", "16000", ogg, ref)
			packets := oggPackets(t, ogg)
			want := readWAV(t, ref)
			// The decoder the appliance picks (libopus where the build has
			// it), and pion/opus, which builds without libopus use.
			for _, dc := range []struct {
				name string
				make func() (audio.Decoder, error)
			}{
				{"the appliance's", func() (audio.Decoder, error) {
					return audio.NewDecoder(audio.Format{Codec: tc.codec, SampleRate: 16000})
				}},
				{"pion", func() (audio.Decoder, error) { return audio.NewPionOpus(1) }},
			} {
				d, err := dc.make()
				if err != nil {
					t.Fatal(err)
				}
				got, bad := decodeAll(t, d, packets)
				if bad != 0 {
					t.Fatalf("%s: %d of %d packets did not decode", dc.name, bad, len(packets))
				}
				db, shift := snr(want, got, 400)
				t.Logf("%s: %d packets, %d samples; SNR against libopus %.1f dB (shift %d)", dc.name, len(packets), len(got), db, shift)
				if db < tc.minSNR {
					t.Fatalf("%s: SNR %.1f dB against libopus, want ≥ %.0f", dc.name, db, tc.minSNR)
				}
				gotDB, _ := snr(original, got, 400)
				libDB, _ := snr(original, want, 400)
				t.Logf("%s: against the original speech %.1f dB, libopus %.1f dB", dc.name, gotDB, libDB)
				if gotDB < libDB-1 {
					t.Fatalf("%s is %.1f dB further from the original than libopus", dc.name, libDB-gotDB)
				}
			}
		})
	}
}

func TestLC3MatchesLiblc3(t *testing.T) {
	t.Parallel()
	if !audio.Available(audio.LC3FS1030) {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("lc3 is not in this build")
		}
		t.Skip("lc3 is not in this build (liblc3-dev)")
	}
	_, wav := speech(t, "Remind me to call the dentist tomorrow morning.")
	dir := t.TempDir()
	bits, ref := filepath.Join(dir, "s.lc3"), filepath.Join(dir, "ref.wav")
	run(t, "elc3", "-b", "24000", "-m", "10", wav, bits) // 30-byte 10 ms frames: lc3_fs1030
	run(t, "dlc3", bits, ref)
	frames := lc3Frames(t, bits)
	for _, f := range frames {
		if len(f) != 30 {
			t.Fatalf("elc3 made a %d-byte frame", len(f))
		}
	}
	d, err := audio.NewDecoder(audio.Format{Codec: audio.LC3FS1030, SampleRate: 16000})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, bad := decodeAll(t, d, frames)
	if bad != 0 {
		t.Fatalf("%d bad frames", bad)
	}
	db, _ := snr(readWAV(t, ref), got, 200)
	if db < 60 {
		t.Fatalf("SNR %.1f dB against liblc3's own decoder", db)
	}
	if _, err := d.Decode(nil, make([]byte, 29)); err == nil {
		t.Fatal("a 29-byte frame decoded")
	}
}

func TestAACMatchesFFmpeg(t *testing.T) {
	t.Parallel()
	if !audio.Available(audio.AAC) {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("aac is not in this build")
		}
		t.Skip("aac is not in this build (libavcodec-dev)")
	}
	_, wav := speech(t, "We should plan the garden layout and buy seeds this weekend.")
	dir := t.TempDir()
	adts, ref := filepath.Join(dir, "s.aac"), filepath.Join(dir, "ref.wav")
	run(t, "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", wav, "-ar", "44100", "-c:a", "aac", "-b:a", "64k", "-f", "adts", adts)
	run(t, "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", adts, "-ar", "16000", "-ac", "1", ref)
	d, err := audio.NewDecoder(audio.Format{Codec: audio.AAC, SampleRate: 44100})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, bad := decodeAll(t, d, adtsFrames(t, adts))
	if bad != 0 {
		t.Fatalf("%d bad frames", bad)
	}
	if db, _ := snr(readWAV(t, ref), got, 600); db < 20 {
		t.Fatalf("SNR %.1f dB against ffmpeg's decode (resampled 44.1 → 16 kHz by each)", db)
	}
}

// FuzzDecode: no frame, however malformed, panics a decoder or stops it
// decoding the next good frame.
func FuzzDecode(f *testing.F) {
	f.Add("opus_fs320", []byte{0xfc, 0xff, 0xfe})
	f.Add("opus", []byte{0x08, 0x01, 0x02})
	f.Add("pcm16", []byte{1, 2, 3})
	f.Add("lc3_fs1030", make([]byte, 30))
	f.Add("aac", []byte{0xff, 0xf1, 0x60, 0x40, 0x30, 0x1f, 0xfc})
	// Noise behind an ADTS header that decodes with a claimed sample rate
	// of 0 (a resampler from 0 Hz never advanced: the decoder hung).
	rate0, _ := hex.DecodeString("fff15080191ffcc1f2ba041ae538a3d7ac916fc0b247994a848b183d5b36205ed7bc3673b3951c88df70fa206d40b4bc233982c37dae88c0d35dc341e723339a0d5ba21912e5ce8227a629e3380f65c851ef51ea56dff16e55bbac5f9407a2e3a0fe2b9d7842fd4201592fe954a5eb87802a5bee8d1e92fc371e9ec2623ffb227d6531c05034ea2479e32d3e54e48d0dc547befa454892610e27c1c11b3055c23d388d2cc2a9cb6e2ddb56b46d4cb6b6dd59978a1858511dc5597ed660b99fa2fec4733f1b24e3f8")
	f.Add("aac", rate0)
	f.Fuzz(func(t *testing.T, codec string, frame []byte) {
		d, err := audio.NewDecoder(audio.Format{Codec: codec, SampleRate: 16000})
		if err != nil {
			return
		}
		defer d.Close()
		d.Decode(nil, frame)
		d.Decode(nil, frame)
	})
}
