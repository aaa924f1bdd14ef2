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
// as it arrives: 20 ms packets from an Encoder, gathered into a page that
// is written out at least every second, so that a process killed in the
// middle leaves a file that plays up to its last page.
type OggOpusWriter struct {
	w       io.Writer
	enc     Encoder
	serial  uint32
	seq     uint32
	granule uint64 // 48 kHz samples of the packets written

	frame   []int16  // samples waiting for a whole 20 ms frame
	packets [][]byte // encoded, not yet on a page
	written int64    // bytes
}

// OpusFrame is one packet's samples: 20 ms at 16 kHz.
const OpusFrame = Rate / 50

// PagePackets is how many packets a page holds: one second of speech, the
// most a crash loses.
const PagePackets = 50

// oggPreSkip is libopus's look-ahead at 16 kHz in 48 kHz samples (6.5 ms):
// the decoder drops it.
const oggPreSkip = 312

// Encoder turns one 20 ms frame of 16 kHz mono samples into one Opus
// packet.
type Encoder interface {
	Encode(pcm []int16) ([]byte, error)
}

// ErrNoEncoder: this build cannot encode Opus (it has no libopus).
var ErrNoEncoder = errors.New("this build has no Opus encoder (libopus)")

// NewOggOpusWriter starts a stream on w with its two header pages; vendor
// names the writer in OpusTags.
func NewOggOpusWriter(w io.Writer, enc Encoder, serial uint32, vendor string) (*OggOpusWriter, error) {
	o := &OggOpusWriter{w: w, enc: enc, serial: serial}
	head := make([]byte, 19)
	copy(head, "OpusHead")
	head[8] = 1 // version
	head[9] = 1 // mono
	binary.LittleEndian.PutUint16(head[10:], oggPreSkip)
	binary.LittleEndian.PutUint32(head[12:], Rate)
	if err := o.page([][]byte{head}, 0x02, 0); err != nil {
		return nil, err
	}
	tags := make([]byte, 0, 16+len(vendor))
	tags = append(tags, "OpusTags"...)
	tags = binary.LittleEndian.AppendUint32(tags, uint32(len(vendor)))
	tags = append(tags, vendor...)
	tags = binary.LittleEndian.AppendUint32(tags, 0)
	if err := o.page([][]byte{tags}, 0, 0); err != nil {
		return nil, err
	}
	return o, nil
}

// Write encodes samples; a page goes out each PagePackets packets.
func (o *OggOpusWriter) Write(pcm []int16) error {
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
		o.packets = append(o.packets, pkt)
		o.granule += 48000 / 50
		if len(o.packets) >= PagePackets {
			if err := o.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Flush writes the packets encoded so far as a page (none: nothing).
func (o *OggOpusWriter) Flush() error {
	if len(o.packets) == 0 {
		return nil
	}
	err := o.page(o.packets, 0, o.granule)
	o.packets = o.packets[:0]
	return err
}

// Close pads the last frame to 20 ms and writes the last page, marked as
// the stream's end. It does not close w.
func (o *OggOpusWriter) Close() error {
	if len(o.frame) > 0 {
		if err := o.Write(make([]int16, OpusFrame-len(o.frame))); err != nil {
			return err
		}
	}
	return o.page(o.packets, 0x04, o.granule)
}

// Duration is the audio encoded so far.
func (o *OggOpusWriter) Duration() time.Duration {
	return time.Duration(o.granule) * time.Second / 48000
}

// Size is the bytes written so far.
func (o *OggOpusWriter) Size() int64 { return o.written }

// page writes packets as one Ogg page (a packet never spans pages here: a
// second of 16 kbps speech is 2 kB, far below a page's 64 kB).
func (o *OggOpusWriter) page(packets [][]byte, flags byte, granule uint64) error {
	var lacing []byte
	body := 0
	for _, p := range packets {
		for n := len(p); ; n -= 255 {
			if n < 255 {
				lacing = append(lacing, byte(n))
				break
			}
			lacing = append(lacing, 255)
		}
		body += len(p)
	}
	if len(lacing) > 255 {
		return fmt.Errorf("ogg page of %d segments", len(lacing))
	}
	buf := make([]byte, 27, 27+len(lacing)+body)
	copy(buf, "OggS")
	buf[5] = flags
	binary.LittleEndian.PutUint64(buf[6:], granule)
	binary.LittleEndian.PutUint32(buf[14:], o.serial)
	binary.LittleEndian.PutUint32(buf[18:], o.seq)
	buf[26] = byte(len(lacing))
	buf = append(buf, lacing...)
	for _, p := range packets {
		buf = append(buf, p...)
	}
	binary.LittleEndian.PutUint32(buf[22:], oggCRC(buf))
	o.seq++
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
