package listen

import (
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// AudioSink is a kept recording being written (recordings.Writer).
type AudioSink interface {
	Write(pcm []int16)
	// FlushIdle puts on disk the audio that has waited a second or more
	// for its page.
	FlushIdle()
	Close() error
}

// keepRing is how much audio the session holds back while no recording
// is open: the words that start the next conversation are said before
// the route hears them out and the conversation exists.
const keepRing = 30 * audio.Rate

// keeper writes the session's audio into the recording of the open
// conversation as it arrives: a file per conversation and session. Audio
// between two conversations waits in a ring (keepRing); the next
// conversation's file begins with what was said since the last one ended.
type keeper struct {
	open    func(conv string, started time.Time) (AudioSink, error)
	current func() (conv string, open bool) // the session's open conversation
	start   time.Time                       // wall time of stream sample 0
	log     func(msg string, args ...any)

	mu      sync.Mutex
	n       int64   // samples seen
	ring    []int16 // the last samples, ring[0] is sample ringAt
	ringAt  int64
	endedAt int64 // the sample at which the last recording closed
	sink    AudioSink
	conv    string
	refused string // the conversation whose recording could not be opened
}

func (k *keeper) add(pcm []int16) {
	conv, open := k.current()
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sink != nil && (!open || conv != k.conv) {
		k.closeLocked()
	}
	if open && k.sink == nil && conv != k.refused {
		from := max(k.endedAt, k.ringAt)
		started := k.start.Add(time.Duration(from) * time.Second / audio.Rate)
		sink, err := k.open(conv, started)
		if err != nil {
			k.refused = conv
			k.log("this conversation's audio is not kept", "conversation_id", conv, "err", err)
		} else {
			k.sink, k.conv = sink, conv
			sink.Write(k.ring[from-k.ringAt:])
		}
	}
	if k.sink != nil {
		k.sink.Write(pcm)
	}
	k.n += int64(len(pcm))
	k.ring = append(k.ring, pcm...)
	if len(k.ring) > 2*keepRing {
		drop := len(k.ring) - keepRing
		k.ring = append(k.ring[:0], k.ring[drop:]...)
		k.ringAt += int64(drop)
	}
}

// flushIdle puts the audio of a pause on disk (the session's ticker).
func (k *keeper) flushIdle() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sink != nil {
		k.sink.FlushIdle()
	}
}

// close ends the recording being written (the session is over).
func (k *keeper) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closeLocked()
}

func (k *keeper) closeLocked() {
	if k.sink == nil {
		return
	}
	if err := k.sink.Close(); err != nil {
		k.log("close a kept recording", "conversation_id", k.conv, "err", err)
	}
	k.sink, k.conv, k.endedAt = nil, "", k.n
}
