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
	frame       = audio.Rate / 50 // 20 ms
	speechRMS   = 250.0           // about -42 dBFS
	pauseFrames = 25              // 0.5 s of silence ends a chunk
	quietFrames = 18              // and 0.36 s the gate takes for silence, as it ends an utterance
	// A word or two alone waits 0.6 s, as the route's VAD waits for the
	// rest of a short phrase: "front … center" cut at its inner pause was
	// heard "friend" / "center".
	shortVoiced      = 40
	shortQuietFrames = 30
	minSpeech        = 5       // 100 ms of speech makes a chunk worth sending
	padFrames        = 10      // 0.2 s kept before speech
	tailFrames       = 17      // 0.34 s kept after it: see next
	maxChunk         = 28 * 50 // frames: 28 s
	searchCutLast    = 5 * 50  // a long chunk is cut at the quietest frame of its last 5 s
)

// A chunk also ends after quietFrames the gate takes for silence: noise
// over speechRMS (white noise 20 dB under a normal speaker) made every
// frame speech by level, and a whole recording went out in 28 s chunks
// cut at a quiet frame. And it keeps tailFrames of the pause after its
// last speech frame, not padFrames: a word's weak last sound is under the
// floor. The route's VAD ends an utterance after 360 ms of silence (600
// after a word or two said alone) and keeps 200 ms of it; a tail shorter than that pause leaves the chunk's
// last utterance open to the chunk's end, so that it is heard whole.
// (In white noise at 20 dB this brought batch from 29 word errors to 24,
// the engine alone's, on nine recorded prompts.)

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
	speechy []bool    // per frame: speech, by the gate or the level
	voicedy []bool    // per frame: the gate took it for speech
	start   int       // sample index of buf[0] in the recording
	speech  int       // speech frames in buf
	silence int       // trailing silent frames
	voiced  int       // frames in buf the gate took for speech
	quiet   int       // trailing frames the gate took for silence
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
		voiced := c.gate.Speech(c.read[:n])
		c.rms = append(c.rms, r)
		c.voicedy = append(c.voicedy, voiced)
		c.speechy = append(c.speechy, voiced || r >= speechRMS)
		c.count(len(c.rms) - 1)
		switch {
		case c.speech == 0 && len(c.rms) > 2*padFrames:
			c.drop(len(c.rms) - padFrames) // leading silence: keep only the pad
		case c.speech >= minSpeech && c.silence >= pauseFrames:
			return c.cut(len(c.rms) - c.silence + tailFrames), nil
		case c.voiced >= minSpeech && c.quiet >= quietFrames && (c.voiced >= shortVoiced || c.quiet >= shortQuietFrames):
			return c.cut(len(c.rms) - c.quiet + tailFrames), nil
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
	c.speech, c.silence, c.voiced, c.quiet = 0, 0, 0, 0
	for i := range c.speechy {
		c.count(i)
	}
	return ch
}

// count adds buf's frame i to the counts of speech and silence.
func (c *chunker) count(i int) {
	if c.speechy[i] {
		c.speech++
		c.silence = 0
	} else {
		c.silence++
	}
	if c.voicedy[i] {
		c.voiced++
		c.quiet = 0
	} else {
		c.quiet++
	}
}

// drop forgets the first frames of buf.
func (c *chunker) drop(frames int) {
	n := min(frames*frame, len(c.buf))
	c.buf = append(c.buf[:0], c.buf[n:]...)
	c.rms = append(c.rms[:0], c.rms[frames:]...)
	c.speechy = append(c.speechy[:0], c.speechy[frames:]...)
	c.voicedy = append(c.voicedy[:0], c.voicedy[frames:]...)
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
