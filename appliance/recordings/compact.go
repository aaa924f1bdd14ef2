package recordings

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// A live session keeps the wearable's Opus packets as they came: encoding
// its audio again while it streams cost more CPU than anything else a
// server-heard session does (500 sessions on 2 cores were held in real
// time keeping packets, none re-encoding them). A recording whose packets
// came faster than Keeper.KeepAsSentBitrate (an Omi's 32 kbps: 14 MB an
// hour) is encoded again at about 16 kbps after it closes, here, one file
// at a time and paced, so that live sessions keep the CPU they need.

// compactQueue is how many closed recordings may wait to be encoded
// again; past it a recording stays as it came until a sweep finds it
// (compactIfFast), and the overflow is said once.
const compactQueue = 4096

// compactShare is the most of one core the encoder takes: it sleeps
// (1-share)/share times as long as each second of audio took it.
const compactShare = 0.25

// compactSuffix names a recording being encoded again, beside it; Files
// lists only "<ms>.ogg", so the half-written copy is never served.
const compactSuffix = ".ogg.compacting"

// sweepFloor is the bit rate (bits/s) above which Sweep finds a kept
// file not yet encoded again: the encoder's 16 kbps and the pages'
// overhead stay under it, so a file encoded here is never taken again.
const sweepFloor = 20000

// compactLater queues path, a recording that just closed or that a sweep
// found, to be encoded again, unless it is queued already or settled; the
// queue's worker starts with the first.
func (k *Keeper) compactLater(path string) {
	k.compactOnce.Do(func() {
		k.compacts = make(chan string, compactQueue)
		go k.compactLoop()
	})
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.queued[path] || k.settled[path] {
		return
	}
	select {
	case k.compacts <- path:
		if k.queued == nil {
			k.queued = map[string]bool{}
		}
		k.queued[path] = true
	default:
		if k.compactFull.CompareAndSwap(false, true) && k.Logger != nil {
			k.Logger.Warn("recordings wait to be encoded again faster than they are: the rest wait for the next sweep", "queue", compactQueue)
		}
	}
}

// compactIfFast queues a kept recording (Sweep's) whose bytes per second
// say it was never encoded again: one that closed while the process
// stopped, or that the queue had no room for.
func (k *Keeper) compactIfFast(path string) {
	if k.NewEncoder == nil {
		return
	}
	st, err := os.Stat(path)
	if err != nil {
		return
	}
	d, err := audio.OggDuration(path)
	if err != nil || d < time.Second {
		return
	}
	if bitrate := float64(st.Size()*8) / d.Seconds(); bitrate > float64(max(k.KeepAsSentBitrate, sweepFloor)) {
		k.compactLater(path)
	}
}

func (k *Keeper) compactLoop() {
	for path := range k.compacts {
		before, after, err := k.compact(path)
		k.mu.Lock()
		delete(k.queued, path)
		if err != nil && !errors.Is(err, os.ErrNotExist) || err == nil && after == before {
			if k.settled == nil {
				k.settled = map[string]bool{}
			}
			k.settled[path] = true // not tried again at every sweep
		}
		k.mu.Unlock()
		switch {
		case errors.Is(err, os.ErrNotExist):
			// deleted with its conversation meanwhile
		case err != nil:
			if k.Logger != nil {
				k.Logger.Warn("a recording is kept as the wearable sent it", "file", path, "err", err)
			}
		case k.Logger != nil:
			k.Logger.Debug("recording encoded again", "file", path, "bytes_before", before, "bytes_after", after)
		}
	}
}

// compact encodes the recording at path again with the keeper's encoder
// and puts the copy in its place (a reader that opened the original goes
// on reading it). A copy no smaller than the original is dropped.
func (k *Keeper) compact(path string) (before, after int64, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	src, err := audio.OpenFile(path)
	if err != nil {
		return 0, 0, err
	}
	defer src.Close()
	enc, err := k.NewEncoder()
	if err != nil {
		return 0, 0, err
	}
	ms, _ := fileStart(filepath.Base(path))
	tmp := strings.TrimSuffix(path, ".ogg") + compactSuffix
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, 0, err
	}
	keep := false
	defer func() {
		if !keep {
			f.Close()
			os.Remove(tmp)
		}
	}()
	ow, err := audio.NewOggOpusWriter(f, enc, uint32(ms), "hearth")
	if err != nil {
		return 0, 0, err
	}
	buf := make([]int16, audio.Rate) // a second at a time
	for {
		began := time.Now()
		n, rerr := audio.ReadFull(src, buf)
		if n > 0 {
			if err := ow.Write(buf[:n]); err != nil {
				return 0, 0, err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return 0, 0, fmt.Errorf("decode: %w", rerr)
		}
		time.Sleep(time.Duration(float64(time.Since(began)) * (1 - compactShare) / compactShare))
	}
	if err := ow.Close(); err != nil {
		return 0, 0, err
	}
	if err := f.Sync(); err != nil {
		return 0, 0, err
	}
	if err := f.Close(); err != nil {
		return 0, 0, err
	}
	after = ow.Size()
	if after >= st.Size() {
		return st.Size(), st.Size(), nil
	}
	// The conversation may have been deleted while this ran: the rename
	// then fails and the copy goes with the deferred remove.
	if _, err := os.Stat(path); err != nil {
		return 0, 0, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, 0, err
	}
	keep = true
	return st.Size(), after, nil
}
