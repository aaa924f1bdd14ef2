package listen

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// tape is every sample a session sent its route, on disk (16 kHz mono,
// 16-bit little-endian, from stream second 0): a route that falls behind
// skips audio, and the session transcribes the stretch later from here.
// An hour is 115 MB; the file is removed when the session and its late
// transcriptions are over.
type tape struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	n    int   // samples written
	err  error // the first write that failed: the tape stops there
	buf  []byte
	path string
}

// tapePattern names tapes: the ones a process that was killed left behind
// are removed when the next one starts (no session is running then).
const tapePattern = "listen-*.s16le"

func removeStaleTapes(dir string) {
	if dir == "" {
		return
	}
	stale, _ := filepath.Glob(filepath.Join(dir, tapePattern))
	for _, p := range stale {
		os.Remove(p)
	}
}

// tapeBuffer is the samples a tape gathers before a write: a second of
// audio, one write a second per session (64 kB was 32 MB with 500
// sessions).
const tapeBuffer = 2 * sampleRate

// openTape creates the session's tape in dir (the system's temporary
// directory when dir is empty).
func openTape(dir string) (*tape, error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
	}
	f, err := os.CreateTemp(dir, tapePattern)
	if err != nil {
		return nil, err
	}
	return &tape{f: f, w: bufio.NewWriterSize(f, tapeBuffer), path: f.Name()}, nil
}

// add appends samples; after a failed write the tape keeps nothing more
// (and says so when a stretch past it is read).
func (t *tape) add(pcm []int16) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil || t.f == nil {
		return
	}
	// Filled through a local slice: appending to the field itself paid
	// the GC's write barrier on every sample while a cycle ran (a third of
	// the tape's CPU with 500 sessions).
	b := t.buf[:0]
	for _, s := range pcm {
		b = binary.LittleEndian.AppendUint16(b, uint16(s))
	}
	t.buf = b
	if _, err := t.w.Write(b); err != nil {
		t.err = err
		return
	}
	t.n += len(pcm)
}

// read returns samples [from, to) of the stream.
func (t *tape) read(from, to int) ([]int16, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		return nil, fmt.Errorf("audio tape closed")
	}
	if to > t.n {
		if t.err != nil {
			return nil, fmt.Errorf("audio tape stopped at %.1f s: %w", float64(t.n)/sampleRate, t.err)
		}
		to = t.n
	}
	if from >= to {
		return nil, nil
	}
	if err := t.w.Flush(); err != nil {
		t.err = err
		return nil, err
	}
	b := make([]byte, 2*(to-from))
	if _, err := t.f.ReadAt(b, int64(2*from)); err != nil {
		return nil, fmt.Errorf("read audio tape: %w", err)
	}
	pcm := make([]int16, to-from)
	for i := range pcm {
		pcm[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return pcm, nil
}

// remove closes and deletes the tape.
func (t *tape) remove() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		return
	}
	t.f.Close()
	os.Remove(t.path)
	t.f = nil
}
