package audio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"
)

// Source is recorded audio read in pieces, already 16-bit mono PCM at
// Rate. Reading in pieces keeps a long upload's memory flat.
type Source interface {
	// Read fills dst with samples; io.EOF after the last.
	Read(dst []int16) (int, error)
	// Duration is the whole recording's length when the container says
	// it up front, else 0.
	Duration() time.Duration
	// Format names what was decoded ("wav pcm16 44100 Hz stereo").
	Format() string
	Close() error
}

// ErrInvalidAudio is returned for bytes that are not audio this build can
// read; its message says what was expected.
var ErrInvalidAudio = errors.New("invalid audio")

// OpenFile opens a recording, recognised by its first bytes: WAV (PCM or
// float, any rate, mono or stereo) and Ogg Opus are read in pure Go;
// other containers (MP3, M4A/AAC, WebM, FLAC, Ogg Vorbis) through
// libavformat when this build has it.
func OpenFile(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open audio: %w", err)
	}
	head := make([]byte, 36)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("rewind audio: %w", err)
	}
	var src Source
	switch {
	case n == 0:
		err = fmt.Errorf("%w: the file is empty", ErrInvalidAudio)
	case n >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		src, err = newWAV(f)
	case n >= 36 && string(head[:4]) == "OggS" && bytes.HasPrefix(head[28:], []byte("OpusHead")):
		src, err = newOggOpus(f)
	default:
		f.Close()
		return openContainer(path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return src, nil
}

// pcmSource turns interleaved samples from a reader into mono Rate
// PCM, block by block.
type pcmSource struct {
	r        io.Reader
	closer   io.Closer
	channels int
	sample   func([]byte) float64 // one sample's bytes → [-32768, 32767]
	width    int                  // bytes per sample
	rs       *Resampler
	raw      []byte
	mono     []int16
	out      []int16 // resampled, not yet read
	eof      bool
	duration time.Duration
	format   string
}

func (p *pcmSource) Read(dst []int16) (int, error) {
	for len(p.out) == 0 {
		if p.eof {
			return 0, io.EOF
		}
		if err := p.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(dst, p.out)
	p.out = p.out[n:]
	return n, nil
}

// fill decodes one block of input.
func (p *pcmSource) fill() error {
	frame := p.width * p.channels
	n, err := io.ReadFull(p.r, p.raw)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		p.eof = true
	} else if err != nil {
		return fmt.Errorf("read audio: %w", err)
	}
	n -= n % frame
	p.mono = p.mono[:0]
	for off := 0; off < n; off += frame {
		var sum float64
		for c := range p.channels {
			sum += p.sample(p.raw[off+c*p.width:])
		}
		p.mono = append(p.mono, clamp16(sum/float64(p.channels)))
	}
	p.out = p.rs.Process(p.out[:0], p.mono)
	if p.eof {
		// Flush the resampler's tail with a little silence.
		p.out = p.rs.Process(p.out, make([]int16, 64))
	}
	return nil
}

func (p *pcmSource) Duration() time.Duration { return p.duration }
func (p *pcmSource) Format() string          { return p.format }
func (p *pcmSource) Close() error {
	if p.closer != nil {
		return p.closer.Close()
	}
	return nil
}

// NewRawPCM reads headerless 16-bit little-endian PCM (linear16) at rate
// with channels interleaved, as voice messages send it.
func NewRawPCM(r io.Reader, rate, channels int) (Source, error) {
	if rate < 4000 || rate > 192000 || channels < 1 || channels > 2 {
		return nil, fmt.Errorf("%w: raw PCM at %d Hz with %d channels", ErrInvalidAudio, rate, channels)
	}
	return newPCMSource(r, nil, rate, channels, 2, sampleS16, 0, fmt.Sprintf("linear16 %d Hz, %d channel(s)", rate, channels)), nil
}

func newPCMSource(r io.Reader, c io.Closer, rate, channels, width int, sample func([]byte) float64, d time.Duration, format string) *pcmSource {
	return &pcmSource{r: r, closer: c, channels: channels, sample: sample, width: width,
		rs: NewResampler(rate, Rate), raw: make([]byte, 4096*width*channels), duration: d, format: format}
}

func sampleU8(b []byte) float64  { return float64(int(b[0])-128) * 256 }
func sampleS16(b []byte) float64 { return float64(int16(binary.LittleEndian.Uint16(b))) }
func sampleS24(b []byte) float64 {
	v := int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24) >> 8
	return float64(v) / 256
}
func sampleS32(b []byte) float64 { return float64(int32(binary.LittleEndian.Uint32(b))) / 65536 }
func sampleF32(b []byte) float64 {
	v := float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	if math.IsNaN(v) {
		return 0
	}
	return v * 32767
}

// maxWAVChunk bounds a chunk skipped before the audio (LIST, bext, ...).
const maxWAVChunk = 16 << 20

// newWAV reads a RIFF WAVE header up to its data chunk.
func newWAV(f *os.File) (Source, error) {
	br := bufio.NewReaderSize(f, 64<<10)
	var riff [12]byte
	if _, err := io.ReadFull(br, riff[:]); err != nil {
		return nil, fmt.Errorf("%w: truncated WAV header", ErrInvalidAudio)
	}
	var (
		tag, channels, bits uint16
		rate                uint32
		haveFmt             bool
	)
	for {
		var hdr [8]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return nil, fmt.Errorf("%w: WAV without a data chunk", ErrInvalidAudio)
		}
		id, size := string(hdr[:4]), binary.LittleEndian.Uint32(hdr[4:])
		switch id {
		case "fmt ":
			if size < 16 || size > 1024 {
				return nil, fmt.Errorf("%w: WAV fmt chunk of %d bytes", ErrInvalidAudio, size)
			}
			b := make([]byte, size+size%2)
			if _, err := io.ReadFull(br, b); err != nil {
				return nil, fmt.Errorf("%w: truncated WAV fmt chunk", ErrInvalidAudio)
			}
			tag, channels = binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:])
			rate, bits = binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint16(b[14:])
			if tag == 0xFFFE && size >= 26 { // WAVE_FORMAT_EXTENSIBLE: the subformat's first two bytes
				tag = binary.LittleEndian.Uint16(b[24:])
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return nil, fmt.Errorf("%w: WAV data before its fmt chunk", ErrInvalidAudio)
			}
			return wavSource(br, f, tag, channels, bits, rate, size)
		default:
			if size > maxWAVChunk {
				return nil, fmt.Errorf("%w: WAV chunk %q of %d bytes", ErrInvalidAudio, id, size)
			}
			if _, err := br.Discard(int(size + size%2)); err != nil {
				return nil, fmt.Errorf("%w: truncated WAV chunk %q", ErrInvalidAudio, id)
			}
		}
	}
}

func wavSource(r io.Reader, c io.Closer, tag, channels, bits uint16, rate, size uint32) (Source, error) {
	if channels < 1 || channels > 8 || rate < 4000 || rate > 192000 {
		return nil, fmt.Errorf("%w: WAV with %d channels at %d Hz", ErrInvalidAudio, channels, rate)
	}
	var sample func([]byte) float64
	switch {
	case tag == 1 && bits == 8:
		sample = sampleU8
	case tag == 1 && bits == 16:
		sample = sampleS16
	case tag == 1 && bits == 24:
		sample = sampleS24
	case tag == 1 && bits == 32:
		sample = sampleS32
	case tag == 3 && bits == 32:
		sample = sampleF32
	default:
		return nil, fmt.Errorf("%w: WAV encoding %d with %d-bit samples (PCM or 32-bit float expected)", ErrInvalidAudio, tag, bits)
	}
	width := int(bits / 8)
	var d time.Duration
	if size != 0 && size != math.MaxUint32 { // streaming writers leave it 0 or all ones
		r = io.LimitReader(r, int64(size))
		d = time.Duration(float64(size) / float64(width*int(channels)) / float64(rate) * float64(time.Second))
	}
	return newPCMSource(r, c, int(rate), int(channels), width, sample, d,
		fmt.Sprintf("WAV %d-bit %d Hz, %d channel(s)", bits, rate, channels)), nil
}

// WAV wraps 16-bit mono PCM at rate in a WAV header, for routes that take
// files.
func WAV(pcm []int16, rate int) []byte {
	b := make([]byte, 44+2*len(pcm))
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+2*len(pcm)))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], 1) // mono
	binary.LittleEndian.PutUint32(b[24:], uint32(rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(2*rate))
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(2*len(pcm)))
	for i, v := range pcm {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(v))
	}
	return b
}

// ReadFull fills buf from src, read after read; io.EOF comes with the
// last, short fill (a Source may return fewer samples than asked).
func ReadFull(src Source, buf []int16) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := src.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
