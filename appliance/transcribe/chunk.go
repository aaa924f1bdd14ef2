package transcribe

import (
	"io"
	"math"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// Recordings are cut into chunks at pauses, so that a route sees at most
// maxChunk of audio at a time (whisper's window is 30 s) and a long upload
// is transcribed in flat memory. Stretches with no speech are never sent:
// they are what tells "nothing was said" from "the route heard nothing".
// A frame is speech at normal speaking levels (speechRMS) or when the
// live VAD takes it for speech (vad.Gate, which follows the speaker's
// level: the fixed floor alone dropped a quiet microphone's utterances
// before any route heard them). Either, not the gate alone: it takes a
// steady sound for the room's noise, and a steady tone above the floor
// is still sent, as before.
const (
	frame         = audio.Rate / 50 // 20 ms
	speechRMS     = 250.0           // about -42 dBFS
	pauseFrames   = 25              // 0.5 s of silence ends a chunk
	minSpeech     = 5               // 100 ms of speech makes a chunk worth sending
	padFrames     = 10              // 0.2 s kept around speech
	maxChunk      = 28 * 50         // frames: 28 s
	searchCutLast = 5 * 50          // a long chunk is cut at the quietest frame of its last 5 s
)

// chunk is a stretch of the recording worth transcribing.
type chunk struct {
	pcm    []int16
	offset float64 // seconds from the recording's start
}

// chunker reads a source and yields speech chunks.
type chunker struct {
	src     audio.Source
	gate    vad.Gate
	buf     []int16   // current chunk's samples
	rms     []float64 // per 20 ms frame of buf
	speechy []bool    // per frame: the gate took it for speech
	start   int       // sample index of buf[0] in the recording
	speech  int       // speech frames in buf
	silence int       // trailing silent frames
	total   int       // samples read
	eof     bool
	read    []int16
}

func newChunker(src audio.Source) *chunker {
	return &chunker{src: src, read: make([]int16, frame)}
}

// next returns the next speech chunk, or io.EOF.
func (c *chunker) next() (chunk, error) {
	for !c.eof {
		n, err := audio.ReadFull(c.src, c.read)
		if err == io.EOF {
			c.eof = true
		} else if err != nil {
			return chunk{}, err
		}
		if n == 0 {
			break
		}
		c.total += n
		c.buf = append(c.buf, c.read[:n]...)
		r := rms(c.read[:n])
		sp := c.gate.Speech(c.read[:n]) || r >= speechRMS
		c.rms = append(c.rms, r)
		c.speechy = append(c.speechy, sp)
		if sp {
			c.speech++
			c.silence = 0
		} else {
			c.silence++
		}
		switch {
		case c.speech == 0 && len(c.rms) > 2*padFrames:
			c.drop(len(c.rms) - padFrames) // leading silence: keep only the pad
		case c.speech >= minSpeech && c.silence >= pauseFrames:
			return c.cut(len(c.rms) - c.silence + padFrames), nil
		case len(c.rms) >= maxChunk:
			return c.cut(c.quietest()), nil
		}
	}
	if c.speech >= minSpeech {
		return c.cut(len(c.rms)), nil
	}
	return chunk{}, io.EOF
}

// cut emits the first frames of buf as a chunk and keeps the rest.
func (c *chunker) cut(frames int) chunk {
	frames = min(max(frames, 1), len(c.rms))
	n := min(frames*frame, len(c.buf))
	ch := chunk{pcm: append([]int16(nil), c.buf[:n]...), offset: float64(c.start) / audio.Rate}
	c.drop(frames)
	c.speech, c.silence = 0, 0
	for _, sp := range c.speechy {
		if sp {
			c.speech++
			c.silence = 0
		} else {
			c.silence++
		}
	}
	return ch
}

// drop forgets the first frames of buf.
func (c *chunker) drop(frames int) {
	n := min(frames*frame, len(c.buf))
	c.buf = append(c.buf[:0], c.buf[n:]...)
	c.rms = append(c.rms[:0], c.rms[frames:]...)
	c.speechy = append(c.speechy[:0], c.speechy[frames:]...)
	c.start += n
}

// quietest is the frame to cut a long chunk at: the quietest of its last
// few seconds, so that a word is rarely split.
func (c *chunker) quietest() int {
	best := len(c.rms)
	lo := max(len(c.rms)-searchCutLast, 1)
	for i := len(c.rms) - 1; i >= lo; i-- {
		if best == len(c.rms) || c.rms[i] < c.rms[best] {
			best = i
		}
	}
	return best
}

func rms(pcm []int16) float64 {
	var sum float64
	for _, v := range pcm {
		sum += float64(v) * float64(v)
	}
	return math.Sqrt(sum / float64(max(len(pcm), 1)))
}
