package vad

import "slices"

// Gate tells speech from silence one 20 ms frame at a time, by the rule
// the VAD opens and closes utterances on (the package's constants): a
// frame is speech when it is well above the room's recent noise floor and
// above a floor that follows the speaker's level. The batch side cuts a
// recording into chunks with it, so that a quiet microphone's speech is
// not dropped before a route hears it. The zero value is ready.
type Gate struct {
	ring   []float64 // recent frame levels, for the noise floor
	peak   float64   // the recent loudest frame's level, fading
	frames int
	heard  int     // frames in a row above the noise before the stream's first sound; -1 once it is heard
	first  float64 // the loudest of them
}

// Speech classifies the next frame of the stream.
func (g *Gate) Speech(f []int16) bool {
	level := rms(f)
	noise := max(minFloor, g.floor()*floorMargin)
	g.ring = append(g.ring, level)
	if len(g.ring) > floorWindow {
		g.ring = g.ring[1:]
	}
	if g.frames == 0 { // a stream starts at the fixed floor's level
		g.peak = maxFloor * peakRatio
	}
	g.frames++
	g.settle(level, noise)
	g.peak = max(level, g.peak*peakDecay)
	return level >= max(noise, min(maxFloor, g.peak/peakRatio))
}

// settle lets the assumed normal level go once the stream's own first
// sound is heard (startFrames in a row above the noise): the loudest
// frames are then that sound's. A batch upload's chunks are each a
// stream to a route, and a quiet microphone's chunk was heard through the
// floor of a normal speaker for its whole length: at -45 dBFS its weak
// sounds fell under it, and words were split at their stops and clipped
// at their onsets ("currently" heard "ridley"). Before, the chunk was
// amplified to a normal level for this, and the recognizer heard the
// gain (vad.go). A normal speaker's first sound raises the loudest level
// to theirs within frames, as before.
func (g *Gate) settle(level, noise float64) {
	switch {
	case g.heard < 0:
	case level < noise:
		g.heard, g.first = 0, 0
	default:
		g.heard, g.first = g.heard+1, max(g.first, level)
		if g.heard >= startFrames {
			g.peak, g.heard = g.first, -1
		}
	}
}

// room is the level the recent frames mostly stay above (their tenth
// percentile): the room's own sound. Where the floor is the quietest
// moment, this is what a room's continuous chatter sounds like (the
// floor under babble is a rare lull between its voices).
func (g *Gate) room() float64 {
	if len(g.ring) == 0 {
		return 0
	}
	s := make([]float64, len(g.ring))
	copy(s, g.ring)
	slices.Sort(s)
	return s[len(s)/10]
}

// floor is the quietest recent frame's level: the room's noise.
func (g *Gate) floor() float64 {
	if len(g.ring) == 0 {
		return 0
	}
	m := g.ring[0]
	for _, l := range g.ring[1:] {
		m = min(m, l)
	}
	return m
}
