package recordings

import (
	"os"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// Writer is one recording being written: 16 kHz mono samples (or the
// client's Opus packets) in, an Ogg page on disk every second. It stops keeping audio (and says so once)
// when the user's quota is full or the disk refuses a write; the session
// it serves goes on.
type Writer struct {
	k      *Keeper
	mu     sync.Mutex
	f      *os.File
	ow     *audio.OggOpusWriter
	user   string
	budget int64     // bytes this file may take; ≤ 0 with a quota: none left
	err    error     // why the writer stopped keeping audio
	paged  time.Time // when the last page went out
	closed bool
	// packets: the file holds the client's Opus packets; their bytes and
	// the samples they decode to decide whether it is encoded again.
	packets           bool
	pktBytes, samples int64
}

// Write appends samples.
func (w *Writer) Write(pcm []int16) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.closed {
		return
	}
	// A page at a time, so that the quota holds to within a page.
	const page = audio.OpusFrame * audio.PagePackets
	for len(pcm) > 0 {
		if w.k.Quota > 0 && w.ow.Size() >= w.budget {
			w.stop(ErrQuota)
			return
		}
		n := min(page, len(pcm))
		size := w.ow.Size()
		if err := w.ow.Write(pcm[:n]); err != nil {
			w.stop(err)
			return
		}
		if w.ow.Size() != size {
			w.paged = time.Now()
		}
		pcm = pcm[n:]
	}
}

// WritePacket appends one of the client's Opus packets, which decodes to
// samples samples at audio.Rate (a recording Created with packets).
func (w *Writer) WritePacket(pkt []byte, samples int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.closed {
		return
	}
	if w.k.Quota > 0 && w.ow.Size() >= w.budget {
		w.stop(ErrQuota)
		return
	}
	size := w.ow.Size()
	if err := w.ow.WritePacket(pkt, samples); err != nil {
		w.stop(err)
		return
	}
	w.pktBytes += int64(len(pkt))
	w.samples += int64(samples)
	if w.ow.Size() != size {
		w.paged = time.Now()
	}
}

// FlushIdle writes out the audio waiting for its page when the last page
// went out a second ago or more: audio that stops arriving (a released
// button) is on disk within about a second too, not only audio that
// keeps coming.
func (w *Writer) FlushIdle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.closed || time.Since(w.paged) < time.Second {
		return
	}
	if err := w.ow.Flush(); err != nil {
		w.stop(err)
	}
	w.paged = time.Now()
}

func (w *Writer) stop(err error) {
	w.err = err
	if w.k.Logger != nil {
		w.k.Logger.Warn("the rest of this recording is not kept", "user", w.user, "file", w.f.Name(), "err", err)
	}
	w.ow.Flush()
}

// Close writes the last page and closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	defer w.k.done(w)
	var err error
	if w.err == nil {
		err = w.ow.Close()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && w.err == nil && w.packets && w.samples > 0 &&
		w.pktBytes*8*audio.Rate/w.samples > int64(w.k.KeepAsSentBitrate) {
		w.k.compactLater(w.f.Name())
	}
	return err
}
