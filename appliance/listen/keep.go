package listen

import (
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// AudioSink is a kept recording being written (recordings.Writer): fed
// samples, or the client's own Opus packets when it was opened for them.
type AudioSink interface {
	Write(pcm []int16)
	// WritePacket appends one packet that decoded to samples samples.
	WritePacket(pkt []byte, samples int)
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
//
// A session whose frames are Opus packets at the kept rate keeps them as
// they came (packets): encoding the decoded audio again while it streams
// cost more CPU than anything else a server-heard session does, and lost
// quality. (The recordings keeper encodes a fast stream's file again
// once it closes, off the live path.)
type keeper struct {
	open    func(conv string, started time.Time, packets *audio.OpusPackets) (AudioSink, error)
	current func() (conv string, open bool) // the session's open conversation
	start   time.Time                       // wall time of stream sample 0
	log     func(msg string, args ...any)
	// channels is the Opus packets' channel count when they are kept as
	// they came; 0 keeps samples.
	channels int

	mu      sync.Mutex
	n       int64   // samples seen
	ring    []int16 // the last samples, ring[0] is sample ringAt
	ringAt  int64
	pkts    packetRing // the last packets instead, when channels > 0
	endedAt int64      // the sample at which the last recording closed
	sink    AudioSink
	conv    string
	refused string // the conversation whose recording could not be opened
}

// add keeps one decoded frame: its samples, and the packet they came
// from.
func (k *keeper) add(pcm []int16, pkt []byte) {
	conv, open := k.current()
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sink != nil && (!open || conv != k.conv) {
		k.closeLocked()
	}
	if open && k.sink == nil && conv != k.refused {
		k.openLocked(conv)
	}
	// While a recording is open, what it took is not needed again (the
	// next one starts where it ends): the ring holds only the pre-roll.
	// Holding 30–60 s per session regardless was most of a server-heard
	// session's memory.
	if k.channels > 0 {
		if k.sink != nil {
			k.sink.WritePacket(pkt, len(pcm))
		}
		k.pkts.add(pkt, k.n, len(pcm))
		k.n += int64(len(pcm))
		if k.sink != nil {
			k.pkts.trim(k.n - opusPreRoll)
		} else {
			k.pkts.trim(k.n - keepRing)
		}
		return
	}
	k.n += int64(len(pcm))
	if k.sink != nil {
		k.sink.Write(pcm)
		k.ring, k.ringAt = nil, k.n
		return
	}
	k.ring = append(k.ring, pcm...)
	if len(k.ring) > 2*keepRing {
		drop := len(k.ring) - keepRing
		k.ring = append(k.ring[:0], k.ring[drop:]...)
		k.ringAt += int64(drop)
	}
}

// openLocked opens conv's recording and writes into it what was said
// since the last recording ended, as far back as the ring holds.
func (k *keeper) openLocked(conv string) {
	ringAt := k.ringAt
	if k.channels > 0 {
		ringAt = k.pkts.start(k.n)
	}
	from := max(k.endedAt, ringAt)
	started := k.start.Add(time.Duration(from) * time.Second / audio.Rate)
	var packets *audio.OpusPackets
	first := 0
	if k.channels > 0 {
		// The packets before from prime the player's decoder, as a
		// player seeking into an Opus stream does (RFC 7845: 80 ms), and
		// the pre-skip drops their audio. The first recording starts with
		// the client's first packet: nothing to drop.
		var preRoll int64
		first, preRoll = k.pkts.from(from, opusPreRoll)
		packets = &audio.OpusPackets{Channels: k.channels, PreSkip: int(preRoll * 48000 / audio.Rate)}
	}
	sink, err := k.open(conv, started, packets)
	if err != nil {
		k.refused = conv
		k.log("this conversation's audio is not kept", "conversation_id", conv, "err", err)
		return
	}
	k.sink, k.conv = sink, conv
	if k.channels > 0 {
		k.pkts.each(first, sink.WritePacket)
		return
	}
	sink.Write(k.ring[from-k.ringAt:])
}

// opusPreRoll is the audio written before a recording's first packet to
// prime the decoder, in samples.
const opusPreRoll = 80 * audio.Rate / 1000

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
