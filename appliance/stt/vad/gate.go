package vad

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
	speech, _ := g.classify(f)
	return speech
}

// classify is Speech with the frame's level.
func (g *Gate) classify(f []int16) (bool, float64) {
	level := rms(f)
	floor := g.floor()
	g.ring = append(g.ring, level)
	if len(g.ring) > floorWindow {
		g.ring = g.ring[1:]
	}
	if g.frames == 0 && g.peak == 0 { // a stream starts at the fixed floor's level
		g.peak = maxFloor * peakRatio
	}
	g.frames++
	g.peak = max(level, g.peak*peakDecay)
	return level >= max(minFloor, floor*floorMargin, min(maxFloor, g.peak/peakRatio)), level
}

// Expect starts the gate at the level of a recording known in advance:
// its loudest frame stands for the recent loudest speech (never above a
// normal speaker's, where the gate starts anyway). Without it a stream
// starts as if a normal speaker had just spoken, and a quiet
// microphone's first seconds are split at every soft sound: a batch
// route hears each chunk of an upload as a stream of its own, and at
// -45 dBFS "front left" came back as "bryant" and "let".
func (g *Gate) Expect(pcm []int16) {
	if g.frames > 0 {
		return
	}
	g.peak = min(loudestFrame(pcm), maxFloor*peakRatio)
}

// loudestFrame is the level of pcm's loudest whole frame.
func loudestFrame(pcm []int16) float64 {
	loudest := 0.0
	for i := 0; i+frameLen <= len(pcm); i += frameLen {
		loudest = max(loudest, rms(pcm[i:i+frameLen]))
	}
	return loudest
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
