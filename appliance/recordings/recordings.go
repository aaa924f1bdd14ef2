// Package recordings keeps what a conversation sounded like: each live
// session's (or upload's) audio as an Ogg Opus file in the data folder,
// written as it streams, deleted with the conversation or when the
// retention runs out, within a per-user quota.
//
// Layout: DIR/<user id>/<conversation id>/<unix ms of the first sample>.ogg,
// so that a file names its own start and a conversation's files are
// removed with one directory.
package recordings

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
)

// MIME is a kept recording's media type.
const MIME = "audio/ogg; codecs=opus"

// ErrQuota: the user's recordings fill their quota; nothing more is kept.
var ErrQuota = errors.New("the user's audio quota is full")

// ErrOff: recordings are not kept (retention "never").
var ErrOff = errors.New("audio is not kept (retention never)")

// Keeper owns the recordings folder.
type Keeper struct {
	Dir       string
	Retention appliance.AudioRetention
	// Quota caps one user's recordings, in bytes (0: no cap).
	Quota int64
	// NewEncoder makes an Opus encoder per file (audio.NewOpusEncoder).
	NewEncoder func() (audio.Encoder, error)
	// KeepAsSentBitrate is the fastest (bits/s) a client's Opus packets
	// are kept at as they came; a recording of faster ones is encoded
	// again at about 16 kbps once it closes (compact.go). 0 encodes every
	// such recording again.
	KeepAsSentBitrate int
	Logger            *slog.Logger
	Now               func() time.Time

	mu   sync.Mutex
	open map[string]*Writer // by path, for the usage of files being written

	compactOnce sync.Once
	compacts    chan string // recordings waiting to be encoded again
	compactFull atomic.Bool // the queue overflowed (said once)
	// queued are the recordings in compacts or being encoded again, and
	// settled those that could not be or came out no smaller (kept as
	// they are, not taken again); under mu.
	queued, settled map[string]bool
}

// Status is the keeper's state and the user's usage.
func (k *Keeper) Status(user string) appliance.AudioStatus {
	st := appliance.AudioStatus{Available: true, Retention: k.Retention.String(), Quota: k.Quota, Dir: k.Dir}
	if err := k.Usable(); err != nil {
		st.Available, st.Reason = false, err.Error()
	}
	st.Used, _ = k.Usage(user)
	return st
}

// Usable is nil when recordings are kept: not off, and the build encodes
// Opus.
func (k *Keeper) Usable() error {
	if k == nil || k.Retention.Never {
		return ErrOff
	}
	if !audio.CanEncodeOpus || k.NewEncoder == nil {
		return audio.ErrNoEncoder
	}
	return nil
}

// safeID is what an id may be: 1–128 of A–Z, a–z, 0–9, _ and -, so no
// separators and no dots. (As a regexp, the {1,128} compiled to 128
// copies at every start: 0.45 ms and 1,700 allocations before main.)
func safeID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (k *Keeper) convDir(user, conv string) (string, error) {
	if !safeID(user) || !safeID(conv) {
		return "", appliance.Errorf(appliance.ENOTFOUND, "Recording not found")
	}
	return filepath.Join(k.Dir, user, conv), nil
}

// Create starts a recording of the user's conversation whose first sample
// is at started: samples encoded here (Write), or, with packets, the
// client's own Opus packets as they came (WritePacket). It is ErrOff,
// audio.ErrNoEncoder or ErrQuota when nothing is to be kept.
func (k *Keeper) Create(user, conv string, started time.Time, packets *audio.OpusPackets) (*Writer, error) {
	if err := k.Usable(); err != nil {
		return nil, err
	}
	dir, err := k.convDir(user, conv)
	if err != nil {
		return nil, err
	}
	used, err := k.Usage(user)
	if err != nil {
		return nil, err
	}
	if k.Quota > 0 && used >= k.Quota {
		return nil, ErrQuota
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	var enc audio.Encoder
	if packets == nil {
		if enc, err = k.NewEncoder(); err != nil {
			return nil, err
		}
	}
	ms := started.UnixMilli()
	var f *os.File
	for {
		f, err = os.OpenFile(filepath.Join(dir, strconv.FormatInt(ms, 10)+".ogg"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
		ms++ // two files a millisecond apart never collide
	}
	if err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	var ow *audio.OggOpusWriter
	if packets != nil {
		ow, err = audio.NewOggOpusPackets(f, uint32(ms), "hearth", *packets)
	} else {
		ow, err = audio.NewOggOpusWriter(f, enc, uint32(ms), "hearth")
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	w := &Writer{k: k, f: f, ow: ow, user: user, budget: k.Quota - used, paged: time.Now(), packets: packets != nil}
	k.mu.Lock()
	if k.open == nil {
		k.open = map[string]*Writer{}
	}
	k.open[f.Name()] = w
	k.mu.Unlock()
	return w, nil
}

// Files lists a conversation's recordings, oldest first (none: nil).
func (k *Keeper) Files(user, conv string) (appliance.AudioFiles, error) {
	if k == nil {
		return nil, nil
	}
	dir, err := k.convDir(user, conv)
	if err != nil {
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	var out appliance.AudioFiles
	for _, e := range ents {
		ms, ok := fileStart(e.Name())
		if !ok {
			continue
		}
		d, err := audio.OggDuration(filepath.Join(dir, e.Name()))
		if err != nil || d <= 0 {
			continue // nothing playable yet
		}
		id := strings.TrimSuffix(e.Name(), ".ogg")
		out = append(out, appliance.AudioFile{ID: id, UID: user, ConversationID: conv, ChunkTimestamps: []float64{},
			Provider: "local", StartedAt: time.UnixMilli(ms).UTC(), Duration: d.Seconds()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.Before(out[j].StartedAt) })
	return out, nil
}

func fileStart(name string) (int64, bool) {
	stem, ok := strings.CutSuffix(name, ".ogg")
	if !ok {
		return 0, false
	}
	ms, err := strconv.ParseInt(stem, 10, 64)
	return ms, err == nil
}

// Open opens one of a conversation's recordings for reading; ENOTFOUND
// when there is none by that id.
func (k *Keeper) Open(user, conv, id string) (*os.File, error) {
	dir, err := k.convDir(user, conv)
	if err != nil {
		return nil, err
	}
	if _, ok := fileStart(id + ".ogg"); !ok {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "Recording not found")
	}
	f, err := os.Open(filepath.Join(dir, id+".ogg"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "Recording not found")
	}
	return f, err
}

// Source opens one of a conversation's recordings decoded, for
// transcribing it again; ENOTFOUND when there is none by that id.
func (k *Keeper) Source(user, conv, id string) (audio.Source, error) {
	f, err := k.Open(user, conv, id)
	if err != nil {
		return nil, err
	}
	path := f.Name()
	f.Close()
	return audio.OpenFile(path)
}

// Forget deletes a conversation's recordings (a file still being written
// is unlinked; its writer finishes into nothing).
func (k *Keeper) Forget(_ context.Context, user, conv string) error {
	if k == nil {
		return nil
	}
	dir, err := k.convDir(user, conv)
	if err != nil {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("recordings: delete %s: %w", conv, err)
	}
	return nil
}

// Usage is the bytes the user's recordings take.
func (k *Keeper) Usage(user string) (int64, error) {
	if k == nil || !safeID(user) {
		return 0, nil
	}
	var n int64
	err := filepath.WalkDir(filepath.Join(k.Dir, user), func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("recordings: %w", err)
	}
	return n, nil
}

// Sweep removes the recordings past the retention and those of
// conversations that are gone (alive says false), and returns how many
// files it removed. Files being written are left alone, and so is the
// folder of a conversation still there, empty or not: a recording may be
// starting in it.
func (k *Keeper) Sweep(ctx context.Context, alive func(ctx context.Context, user, conv string) (bool, error)) (int, error) {
	if k == nil || k.Dir == "" {
		return 0, nil
	}
	users, err := os.ReadDir(k.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, fmt.Errorf("recordings: %w", err)
	}
	now := k.now()
	removed := 0
	for _, u := range users {
		convs, _ := os.ReadDir(filepath.Join(k.Dir, u.Name()))
		for _, c := range convs {
			if ctx.Err() != nil {
				return removed, ctx.Err()
			}
			dir := filepath.Join(k.Dir, u.Name(), c.Name())
			if ok, err := alive(ctx, u.Name(), c.Name()); err == nil && !ok {
				if k.writing(dir) {
					continue
				}
				files, _ := os.ReadDir(dir)
				if os.RemoveAll(dir) == nil {
					removed += len(files)
				}
				continue
			}
			files, _ := os.ReadDir(dir)
			for _, f := range files {
				p := filepath.Join(dir, f.Name())
				if strings.HasSuffix(f.Name(), compactSuffix) {
					// A copy being encoded again when the process
					// stopped: the recording it was made from is still
					// in place (and queued again below).
					if info, err := f.Info(); err == nil && now.Sub(info.ModTime()) > time.Hour && os.Remove(p) == nil {
						removed++
					}
					continue
				}
				ms, ok := fileStart(f.Name())
				if !ok || k.writing(p) {
					continue
				}
				if k.Retention.Expired(time.UnixMilli(ms), now) {
					if os.Remove(p) == nil {
						removed++
					}
					continue
				}
				k.compactIfFast(p)
			}
		}
	}
	return removed, nil
}

// writing reports whether a file at or under path is being written.
func (k *Keeper) writing(path string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	for p := range k.open {
		if p == path || strings.HasPrefix(p, path+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (k *Keeper) now() time.Time {
	if k.Now != nil {
		return k.Now()
	}
	return time.Now()
}

func (k *Keeper) done(w *Writer) {
	k.mu.Lock()
	delete(k.open, w.f.Name())
	k.mu.Unlock()
}
