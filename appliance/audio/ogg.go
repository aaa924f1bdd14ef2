package audio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// oggReader yields the packets of an Ogg stream, page by page.
type oggReader struct {
	r       *bufio.Reader
	pending [][]byte
	partial []byte
	lastGP  int64 // granule position of the last page seen
}

// next returns the next packet, or io.EOF.
func (o *oggReader) next() ([]byte, error) {
	for len(o.pending) == 0 {
		if err := o.page(); err != nil {
			return nil, err
		}
	}
	p := o.pending[0]
	o.pending = o.pending[1:]
	return p, nil
}

func (o *oggReader) page() error {
	var hdr [27]byte
	if _, err := io.ReadFull(o.r, hdr[:]); err == io.EOF {
		return io.EOF
	} else if err != nil {
		return fmt.Errorf("%w: truncated Ogg page", ErrInvalidAudio)
	}
	if string(hdr[:4]) != "OggS" {
		return fmt.Errorf("%w: lost Ogg page sync", ErrInvalidAudio)
	}
	o.lastGP = int64(binary.LittleEndian.Uint64(hdr[6:]))
	lacing := make([]byte, hdr[26])
	if _, err := io.ReadFull(o.r, lacing); err != nil {
		return fmt.Errorf("%w: truncated Ogg page", ErrInvalidAudio)
	}
	for _, l := range lacing {
		if len(o.partial)+int(l) > 1<<20 {
			return fmt.Errorf("%w: Ogg packet over 1 MiB", ErrInvalidAudio)
		}
		start := len(o.partial)
		o.partial = append(o.partial, make([]byte, l)...)
		if _, err := io.ReadFull(o.r, o.partial[start:]); err != nil {
			return fmt.Errorf("%w: truncated Ogg page", ErrInvalidAudio)
		}
		if l < 255 {
			o.pending = append(o.pending, o.partial)
			o.partial = nil
		}
	}
	return nil
}

// oggOpusSource decodes an Ogg Opus file (RFC 7845) packet by packet.
type oggOpusSource struct {
	f       *os.File
	ogg     *oggReader
	dec     Decoder
	skip    int // pre-skip still to drop, in output samples
	out     []int16
	badPkts int
}

func newOggOpus(f *os.File) (Source, error) {
	o := &oggReader{r: bufio.NewReaderSize(f, 64<<10)}
	head, err := o.next()
	if err != nil || len(head) < 19 || string(head[:8]) != "OpusHead" {
		return nil, fmt.Errorf("%w: Ogg without an OpusHead", ErrInvalidAudio)
	}
	channels := int(head[9])
	if channels < 1 || channels > 2 {
		return nil, fmt.Errorf("%w: Ogg Opus with %d channels (1 or 2 expected)", ErrInvalidAudio, channels)
	}
	preSkip := int(binary.LittleEndian.Uint16(head[10:]))
	if tags, err := o.next(); err != nil || len(tags) < 8 || string(tags[:8]) != "OpusTags" {
		return nil, fmt.Errorf("%w: Ogg Opus without OpusTags", ErrInvalidAudio)
	}
	dec, err := newOpus(channels)
	if err != nil {
		return nil, err
	}
	// Pre-skip counts 48 kHz samples; the decoder runs at 16 kHz.
	return &oggOpusSource{f: f, ogg: o, dec: dec, skip: preSkip * Rate / 48000}, nil
}

func (s *oggOpusSource) Read(dst []int16) (int, error) {
	for len(s.out) == 0 {
		pkt, err := s.ogg.next()
		if err != nil {
			return 0, err
		}
		out, err := s.dec.Decode(s.out[:0], pkt)
		if err != nil {
			// A damaged packet is skipped, as on the live socket; a file
			// of nothing but damage is not audio.
			if s.badPkts++; s.badPkts > 50 {
				return 0, errors.Join(ErrInvalidAudio, err)
			}
			continue
		}
		if s.skip > 0 {
			drop := min(s.skip, len(out))
			out, s.skip = out[drop:], s.skip-drop
		}
		s.out = out
	}
	n := copy(dst, s.out)
	s.out = s.out[n:]
	return n, nil
}

func (s *oggOpusSource) Duration() time.Duration { return 0 }
func (s *oggOpusSource) Format() string          { return "Ogg Opus" }
func (s *oggOpusSource) Close() error {
	s.dec.Close()
	return s.f.Close()
}
