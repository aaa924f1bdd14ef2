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
}

// Speech classifies the next frame of the stream.
func (g *Gate) Speech(f []int16) bool {
	level := rms(f)
	floor := g.floor()
	g.ring = append(g.ring, level)
	if len(g.ring) > floorWindow {
		g.ring = g.ring[1:]
	}
	if g.frames == 0 { // a stream starts at the fixed floor's level
		g.peak = maxFloor * peakRatio
	}
	g.frames++
	g.peak = max(level, g.peak*peakDecay)
	return level >= max(minFloor, floor*floorMargin, min(maxFloor, g.peak/peakRatio))
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
