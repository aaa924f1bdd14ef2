// Package vad cuts a stream of 16 kHz mono PCM into utterances by energy
// and pitch, for the speech routes that hear utterances: a frame is
// speech when it is well above the room's recent noise floor, and an
// utterance is a voice's when it has one talker's pitch above the room's
// level (a room's chatter has neither); an utterance ends after a short
// pause, and a long monologue is cut so that words keep coming.
// Pure Go, no model. Live is the stream skeleton of the routes that
// decode as the audio comes (whisper.cpp, PocketSphinx); NewStream is the
// stream of a route that hears whole utterances (a batch API).
package vad

import (
	"math"
	"slices"
)

// The energy VAD: 20 ms frames at 16 kHz. A frame is speech when it is
// well above the quietest recent frames (the noise floor) and above a
// floor that follows the speaker's level: 20 dB under the recent loudest
// frames, never above the -42 dBFS of normal speech's quiet sounds (a
// fixed floor there lost a quiet microphone's speech: at -45 dBFS most of
// it fell below) and never under -72 dBFS (a silent line). A stream
// starts at -42 dBFS, as if it had heard normal speech (a stream that
// started low opened a normal speaker's first utterance on sounds the
// old floor ignored, and narrow-band speech was then misheard), until it
// hears its own first sound (Gate.settle); the floor then follows the
// loudest frames from there. An utterance ends
// after a pause, and a monologue is cut at maxUtterance so that words
// keep coming.
const (
	frameLen      = 320
	minFloor      = 8.0   // RMS, about -72 dBFS: below it is a silent line or dither, never speech
	maxFloor      = 250.0 // RMS, about -42 dBFS: normal speech's quiet sounds stay above the floor
	peakRatio     = 10.0  // speech is at most this far (20 dB) below the recent loudest frames
	peakDecay     = 0.99  // per frame: the loudest level's memory fades 20 dB in 4.6 s
	floorMargin   = 3.0   // speech is this many times the noise floor
	startFrames   = 3     // 60 ms of speech opens an utterance
	endFrames     = 18    // 360 ms of silence closes it (the reference's live route ends an utterance after 300 ms)
	prerollFrames = 10    // 200 ms kept before the first speech frame
	// A word or two said alone waits longer for the rest of its phrase:
	// people pause 300-400 ms inside a short name ("rear … left", "front
	// … center"), and each word decoded alone is heard as another word.
	shortSpeech    = 40 // 800 ms of speech
	shortEndFrames = 30 // 600 ms of silence closes an utterance shorter than that
	// and 700 ms without one voice's pitch (holdFrames otherwise): in
	// noise the gap and the next word's voiceless start ("… center") are
	// one stretch without pitch
	shortHoldFrames = 35
	maxUtterance    = 20 * 50
	floorWindow     = 150 // frames (3 s) over which the noise floor is the minimum
	// A live utterance opens after 300 ms of its speech (or at its end,
	// if sooner), as it did when a quiet one's gain was set there.
	openFrames = 15
)

// An utterance reaches the recognizer as it came, at the microphone's
// level. A quiet one was amplified until its loudest frame reached -21
// dBFS, for a live decoder's running normalisation, which started from a
// normal speaking level; PocketSphinx now decodes each utterance whole,
// normalised by its own mean, and the gain only cost words: at -45 dBFS
// on 30 recorded clips the engine alone heard 23.0 % of words wrong, the
// live and batch paths 26.2 % amplified and 22.1 % as it came (the
// engine alone on the same spans amplified: 24.6 %; docs/benchmarks.md).
// Only the VAD's decisions follow a quiet speaker's level (the gate).

// event is what the live path hears: an utterance opening (with the audio
// before it), more of its audio, or its end. Decoding as the audio comes
// leaves only the final search for after the speaker stops.
type Event struct {
	Kind Kind
	PCM  []int16
	At   int // stream sample where an opening utterance starts
}

// Kind is what an Event says.
type Kind int

// Event kinds.
const (
	Start Kind = iota // an utterance opens; PCM holds its first audio (up to 300 ms of speech), with the quiet before it
	Audio             // more of the open utterance
	End               // the utterance is over
	Mark              // not audio: a drain's barrier, passed on to Words as an empty batch
)

// Utterance is speech to decode, timed in samples from the stream's start.
type Utterance struct {
	PCM   []int16
	Start int
}

// VAD turns a stream of samples into utterances. The zero value is ready.
type VAD struct {
	pending    []int16   // less than a frame, not yet classified
	pos        int       // stream sample of pending[0]
	frames     [][]int16 // current utterance's frames, with preroll
	start      int       // stream sample of frames[0]
	gate       Gate
	pitch      pitch
	voiced     bool // the open utterance has had one voice's pitch (voice.go): it is speech, not the room's chatter
	unvoiced   int  // frames since the open utterance's last frame of one voice's pitch or well above the room
	stretch    int  // frames since the current stretch of sound above the room began (follow)
	sinceAbove int  // frames since the last frame above the room
	started    bool // the open utterance's Start was sent (live)
	sent       int  // frames of the open utterance sent (live): those after are held while they sound like the room
	chatterEnd bool // the last frame ended an utterance on the room's chatter, not a pause
	inSpeech   bool
	speech     int // speech frames in a row (before opening) or in the utterance
	silence    int // silent frames in a row
}

// Push classifies samples and returns the utterances that ended.
func (v *VAD) Push(pcm []int16) []Utterance {
	var out []Utterance
	v.pending = append(v.pending, pcm...)
	for len(v.pending) >= frameLen {
		f := append([]int16(nil), v.pending[:frameLen]...)
		v.pending = v.pending[frameLen:]
		at := v.pos
		v.pos += frameLen
		if u, ok := v.frame(f, at); ok {
			out = append(out, u)
		}
	}
	return out
}

// Events classifies samples for the live path. An utterance's Start
// waits for openFrames of its speech (or its end, if sooner).
func (v *VAD) Events(pcm []int16) []Event {
	var out []Event
	v.pending = append(v.pending, pcm...)
	for len(v.pending) >= frameLen {
		f := append([]int16(nil), v.pending[:frameLen]...)
		v.pending = v.pending[frameLen:]
		at := v.pos
		v.pos += frameLen
		heard := v.frames
		u, ended := v.frame(f, at)
		switch {
		case ended && !v.started:
			out = append(out, Event{Kind: Start, PCM: u.PCM, At: u.Start}, Event{Kind: End})
		case ended:
			// The frames not sent yet go, up to the cut when it ends on
			// the room's chatter (after a pause they are silence, sent
			// as before), then the end.
			heard = append(heard[:len(heard):len(heard)], f)
			n := len(heard)
			if v.chatterEnd {
				n = len(u.PCM) / frameLen
			}
			if n > v.sent {
				out = append(out, Event{Kind: Audio, PCM: slices.Concat(heard[v.sent:n]...)})
			}
			out = append(out, Event{Kind: End})
			v.started = false
		case v.inSpeech && v.voiced && !v.started && v.speech >= openFrames:
			out = append(out, v.startEvent(nil))
		case v.started && v.unvoiced == 0:
			// Frames with neither a voice nor a level above the room are
			// held until one that has either: an utterance that ends on
			// the chatter does not send it.
			out = append(out, Event{Kind: Audio, PCM: slices.Concat(v.frames[v.sent:]...)})
			v.sent = len(v.frames)
		}
	}
	return out
}

// startEvent opens the live utterance: its frames so far, then tail.
func (v *VAD) startEvent(tail []int16) Event {
	var opening []int16
	for _, fr := range v.frames {
		opening = append(opening, fr...)
	}
	v.started, v.sent = true, len(v.frames)
	return Event{Kind: Start, PCM: append(opening, tail...), At: v.start}
}

// flushPad is the silence an utterance cut short by the stream's end (or
// a drain) is given after its last sample: a recognizer settles a word's
// last sound on the quiet that follows it, and such an utterance has none
// (its last word came back misheard without it).
const flushPad = 300 * 16 // 300 ms at 16 kHz

// FlushEvents ends the live stream's utterance in progress, if one is
// open: its last, partial frame and flushPad of silence, then its end.
func (v *VAD) FlushEvents() []Event {
	if !v.inSpeech || !v.voiced {
		return nil
	}
	var first Event
	if tail := v.takePending(); v.started {
		held := slices.Concat(append(v.frames[v.sent:len(v.frames):len(v.frames)], tail)...)
		first = Event{Kind: Audio, PCM: append(held, make([]int16, flushPad)...)}
	} else {
		first = v.startEvent(tail)
		first.PCM = append(first.PCM, make([]int16, flushPad)...)
	}
	v.frames, v.inSpeech, v.speech, v.silence, v.started = nil, false, 0, 0, false
	return []Event{first, {Kind: End}}
}

// Flush ends the stream: a pending utterance with speech in it is
// returned, with its partial last frame and flushPad of silence.
func (v *VAD) Flush() (Utterance, bool) {
	if v.inSpeech && v.voiced && v.speech > 0 {
		tail := v.takePending()
		u := v.cut(len(v.frames))
		u.PCM = append(append(u.PCM, tail...), make([]int16, flushPad)...)
		return u, true
	}
	return Utterance{}, false
}

// takePending returns the samples short of a frame, counted as heard.
func (v *VAD) takePending() []int16 {
	tail := v.pending
	v.pos += len(tail)
	v.pending = nil
	return tail
}

// frame takes the next frame. An utterance opens on startFrames loud
// enough (the gate) and is kept once it has had one voice's pitch above
// the room (voice.go); until then it is the room's sound, kept only as
// far back as the preroll and leadFrames (or a stretch of sound above
// the room) reach, and let go at a pause. It ends at a pause, after
// holdFrames with neither one voice's pitch nor a frame well above the
// room (a room's chatter goes on through the speaker's pause, loud
// enough for the gate), or at maxUtterance.
func (v *VAD) frame(f []int16, at int) (Utterance, bool) {
	isSpeech := v.gate.Speech(f)
	v.chatterEnd = false
	level, room := rms(f), v.gate.room()
	// Not the gate's level rule: it starts at a normal speaking level, and a
	// fresh VAD (each of a batch upload's chunks) broke a quiet voice's runs.
	above := level >= max(minFloor, voiceOverRoom*room)
	run := v.pitch.next(f, above)
	v.follow(above)
	if len(v.frames) == 0 {
		v.start = at
	}
	v.frames = append(v.frames, f)
	if !v.inSpeech {
		if isSpeech {
			v.speech++
		} else {
			v.speech = 0
		}
		if v.speech >= startFrames {
			v.inSpeech, v.silence, v.voiced, v.unvoiced = true, 0, run >= voiceFrames, 0
		} else {
			v.keepLast(prerollFrames + startFrames)
		}
		return Utterance{}, false
	}
	if isSpeech {
		v.speech++
		v.silence = 0
	} else {
		v.silence++
	}
	if run >= holdRun || level >= max(minFloor, holdOverRoom*room) {
		v.unvoiced = 0
	} else {
		v.unvoiced++
	}
	if !v.voiced {
		v.voiced = run >= voiceFrames
	}
	switch {
	case !v.voiced && v.silence >= endFrames: // the room's sound, not a voice: let go
		v.inSpeech, v.speech, v.silence = false, 0, 0
		v.keepLast(prerollFrames + startFrames)
	case !v.voiced:
		v.keepLast(prerollFrames + min(max(leadFrames, v.stretch), maxLead))
	case v.silence >= endFrames && (v.speech >= shortSpeech || v.silence >= shortEndFrames):
		return v.cut(len(v.frames) - v.silence + prerollFrames), true
	case v.unvoiced >= holdFrames && (v.speech >= shortSpeech || v.unvoiced >= shortHoldFrames):
		// the chatter after the voice's last sounds is left out
		v.chatterEnd = true
		return v.cut(len(v.frames) - v.unvoiced + voiceTail), true
	case len(v.frames) >= maxUtterance:
		return v.cut(len(v.frames)), true
	}
	return Utterance{}, false
}

// follow keeps count of the current stretch of sound above the room: how
// many frames ago it began (0: none), gaps shorter than a pause within
// it. When a voice is found, the utterance reaches back to the stretch's
// start: a speaker's quiet first sounds before the voice (500 ms of
// breath and "g" before "go forward") are above a quiet room, the chatter
// hardly ever is.
func (v *VAD) follow(above bool) {
	if v.stretch > 0 {
		v.stretch++
		if v.sinceAbove++; v.sinceAbove > endFrames {
			v.stretch = 0
		}
	}
	if above {
		v.stretch, v.sinceAbove = max(v.stretch, 1), 0
	}
}

// keepLast drops the frames before the last n.
func (v *VAD) keepLast(n int) {
	if drop := len(v.frames) - n; drop > 0 {
		v.frames = v.frames[drop:]
		v.start += drop * frameLen
	}
}

// cut emits the first n frames as an utterance and starts over.
func (v *VAD) cut(n int) Utterance {
	n = min(n, len(v.frames))
	pcm := make([]int16, 0, n*frameLen)
	for _, f := range v.frames[:n] {
		pcm = append(pcm, f...)
	}
	u := Utterance{PCM: pcm, Start: v.start}
	v.frames, v.inSpeech, v.speech, v.silence = nil, false, 0, 0
	return u
}

func rms(f []int16) float64 {
	var sum float64
	for _, s := range f {
		sum += float64(s) * float64(s)
	}
	return math.Sqrt(sum / float64(len(f)))
}
