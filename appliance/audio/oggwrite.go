package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// OggOpusWriter writes 16 kHz mono speech as an Ogg Opus file (RFC 7845)
// as it arrives, gathered into a page that is written out at least every
// second of audio, so that a process killed in the middle leaves a file
// that plays up to its last page. It is fed samples (encoded here, 20 ms
// packets from an Encoder) or Opus packets already encoded (a client's
// own: WritePacket), never both.
type OggOpusWriter struct {
	w       io.Writer
	enc     Encoder
	serial  uint32
	seq     uint32
	granule uint64 // 48 kHz samples of the packets written
	paged   uint64 // granule of the last page

	frame   []int16 // samples waiting for a whole 20 ms frame
	lacing  []byte  // of the packets not yet on a page
	body    []byte  // those packets, end to end
	page    []byte  // the page being built, reused
	written int64   // bytes
}

// OpusFrame is one packet's samples: 20 ms at 16 kHz.
const OpusFrame = Rate / 50

// PagePackets is how many 20 ms packets a page holds: one second of
// speech, the most a crash loses.
const PagePackets = 50

// pageGranule is a page's audio: one second at 48 kHz.
const pageGranule = 48000

// oggPreSkip is libopus's look-ahead at 16 kHz in 48 kHz samples (6.5 ms):
// the decoder drops it.
const oggPreSkip = 312

// Encoder turns one 20 ms frame of 16 kHz mono samples into one Opus
// packet, valid until the next Encode.
type Encoder interface {
	Encode(pcm []int16) ([]byte, error)
}

// ErrNoEncoder: this build cannot encode Opus (it has no libopus).
var ErrNoEncoder = errors.New("this build has no Opus encoder (libopus)")

// NewOggOpusWriter starts a stream of samples encoded by enc on w with
// its two header pages; vendor names the writer in OpusTags.
func NewOggOpusWriter(w io.Writer, enc Encoder, serial uint32, vendor string) (*OggOpusWriter, error) {
	o := &OggOpusWriter{w: w, enc: enc, serial: serial}
	return o, o.headers(1, oggPreSkip, vendor)
}

// OpusPackets describes a stream of Opus packets encoded elsewhere (a
// wearable's own), written as they came.
type OpusPackets struct {
	Channels int // as they were encoded: 1 or 2
	// PreSkip is the 48 kHz samples at the start that a player drops:
	// packets written only to prime its decoder.
	PreSkip int
}

// NewOggOpusPackets starts a stream of packets p describes on w
// (WritePacket), with its two header pages.
func NewOggOpusPackets(w io.Writer, serial uint32, vendor string, p OpusPackets) (*OggOpusWriter, error) {
	if p.Channels != 1 && p.Channels != 2 {
		return nil, fmt.Errorf("ogg opus: %d channels: %w", p.Channels, ErrUnsupported)
	}
	if p.PreSkip < 0 || p.PreSkip > 0xffff {
		return nil, fmt.Errorf("ogg opus: pre-skip %d out of range", p.PreSkip)
	}
	o := &OggOpusWriter{w: w, serial: serial}
	return o, o.headers(p.Channels, p.PreSkip, vendor)
}

func (o *OggOpusWriter) headers(channels, preSkip int, vendor string) error {
	head := make([]byte, 19)
	copy(head, "OpusHead")
	head[8] = 1 // version
	head[9] = byte(channels)
	binary.LittleEndian.PutUint16(head[10:], uint16(preSkip))
	binary.LittleEndian.PutUint32(head[12:], Rate)
	if err := o.add(head); err != nil {
		return err
	}
	if err := o.flush(0x02, 0); err != nil {
		return err
	}
	tags := make([]byte, 0, 16+len(vendor))
	tags = append(tags, "OpusTags"...)
	tags = binary.LittleEndian.AppendUint32(tags, uint32(len(vendor)))
	tags = append(tags, vendor...)
	tags = binary.LittleEndian.AppendUint32(tags, 0)
	if err := o.add(tags); err != nil {
		return err
	}
	return o.flush(0, 0)
}

// Write encodes samples; a page goes out each PagePackets packets.
func (o *OggOpusWriter) Write(pcm []int16) error {
	if o.enc == nil {
		return errors.New("ogg opus: samples written to a stream of packets")
	}
	for len(pcm) > 0 {
		n := min(OpusFrame-len(o.frame), len(pcm))
		o.frame = append(o.frame, pcm[:n]...)
		pcm = pcm[n:]
		if len(o.frame) < OpusFrame {
			return nil
		}
		pkt, err := o.enc.Encode(o.frame)
		o.frame = o.frame[:0]
		if err != nil {
			return fmt.Errorf("encode opus: %w", err)
		}
		if err := o.packet(pkt, 48000/50); err != nil {
			return err
		}
	}
	return nil
}

// WritePacket appends one Opus packet that decodes to samples samples at
// Rate (its duration); a page goes out each second of audio.
func (o *OggOpusWriter) WritePacket(pkt []byte, samples int) error {
	if o.enc != nil {
		return errors.New("ogg opus: a packet written to a stream of samples")
	}
	if len(pkt) == 0 || samples <= 0 {
		return fmt.Errorf("ogg opus: empty packet")
	}
	return o.packet(pkt, uint64(samples)*48000/Rate)
}

// packet puts one packet on the page being gathered, and the page out
// once it holds a second.
func (o *OggOpusWriter) packet(pkt []byte, granule uint64) error {
	if len(o.lacing)+len(pkt)/255+1 > 255 { // a page has 255 lacing values
		if err := o.Flush(); err != nil {
			return err
		}
	}
	if err := o.add(pkt); err != nil {
		return err
	}
	o.granule += granule
	if o.granule-o.paged >= pageGranule {
		return o.Flush()
	}
	return nil
}

// add appends a packet to the page being gathered.
func (o *OggOpusWriter) add(p []byte) error {
	if len(p)/255+1 > 255 {
		return fmt.Errorf("ogg opus: a packet of %d bytes", len(p))
	}
	for n := len(p); ; n -= 255 {
		if n < 255 {
			o.lacing = append(o.lacing, byte(n))
			break
		}
		o.lacing = append(o.lacing, 255)
	}
	o.body = append(o.body, p...)
	return nil
}

// Flush writes the packets gathered so far as a page (none: nothing).
func (o *OggOpusWriter) Flush() error {
	if len(o.lacing) == 0 {
		return nil
	}
	return o.flush(0, o.granule)
}

// Close pads the last frame to 20 ms and writes the last page, marked as
// the stream's end. It does not close w.
func (o *OggOpusWriter) Close() error {
	if len(o.frame) > 0 {
		if err := o.Write(make([]int16, OpusFrame-len(o.frame))); err != nil {
			return err
		}
	}
	return o.flush(0x04, o.granule)
}

// Duration is the audio written so far.
func (o *OggOpusWriter) Duration() time.Duration {
	return time.Duration(o.granule) * time.Second / 48000
}

// Size is the bytes written so far.
func (o *OggOpusWriter) Size() int64 { return o.written }

// flush writes the gathered packets as one page (a packet never spans
// pages here: a second of speech is a few kB, far below a page's 64 kB).
func (o *OggOpusWriter) flush(flags byte, granule uint64) error {
	buf := append(o.page[:0], "OggS"...)
	buf = append(buf, 0, flags)
	buf = binary.LittleEndian.AppendUint64(buf, granule)
	buf = binary.LittleEndian.AppendUint32(buf, o.serial)
	buf = binary.LittleEndian.AppendUint32(buf, o.seq)
	buf = append(buf, 0, 0, 0, 0, byte(len(o.lacing))) // CRC, then the segments
	buf = append(buf, o.lacing...)
	buf = append(buf, o.body...)
	binary.LittleEndian.PutUint32(buf[22:], oggCRC(buf))
	o.page, o.lacing, o.body = buf, o.lacing[:0], o.body[:0]
	o.seq++
	o.paged = o.granule
	n, err := o.w.Write(buf)
	o.written += int64(n)
	if err != nil {
		return fmt.Errorf("write ogg page: %w", err)
	}
	return nil
}

// oggCRCTable is Ogg's CRC-32: polynomial 0x04c11db7, not reflected, no
// final XOR (not the IEEE CRC of hash/crc32).
var oggCRCTable = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04c11db7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

func oggCRC(b []byte) uint32 {
	var c uint32
	for _, x := range b {
		c = c<<8 ^ oggCRCTable[byte(c>>24)^x]
	}
	return c
}

// OggDuration is how much audio an Ogg Opus file holds up to its last
// whole page: the last page's granule position less the pre-skip. A file
// cut short by a crash ends at its last whole page.
func OggDuration(path string) (time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	var last, preSkip uint64
	var hdr [27]byte
	first := true
	for {
		if _, err := io.ReadFull(f, hdr[:]); err != nil {
			break // the end, or a page the crash cut
		}
		if string(hdr[:4]) != "OggS" {
			break
		}
		lacing := make([]byte, hdr[26])
		if _, err := io.ReadFull(f, lacing); err != nil {
			break
		}
		body := 0
		for _, l := range lacing {
			body += int(l)
		}
		if first && body >= 19 {
			head := make([]byte, body)
			if _, err := io.ReadFull(f, head); err != nil {
				break
			}
			if string(head[:8]) == "OpusHead" {
				preSkip = uint64(binary.LittleEndian.Uint16(head[10:]))
			}
			first = false
			continue
		}
		first = false
		// Skipped, not read: an hour is 3,600 pages, 7 MB.
		end, err := f.Seek(int64(body), io.SeekCurrent)
		if err != nil || end > size {
			break // a page the crash cut
		}
		if gp := binary.LittleEndian.Uint64(hdr[6:]); gp != ^uint64(0) {
			last = gp
		}
	}
	if last < preSkip {
		return 0, nil
	}
	return time.Duration(last-preSkip) * time.Second / 48000, nil
}
