package vad

import "math"

// One talker's voiced sounds have one clear pitch: the frame is nearly
// the frame one pitch period earlier. A room's chatter (several people
// talking at once, each at their own pitch) is loud enough to pass the
// level rules but has no such period, or only for a frame or two when
// one of its voices happens to stand out. A person spoken to across the
// table, 10-18 dB under the wearer, is still one voice: the rule does not
// depend on the level. So an utterance opens only once voiceFrames in a
// row carry one steady pitch, and ends when none has for holdFrames.
const (
	voiceMinLag = 40   // samples: 2.5 ms, a 400 Hz voice
	voiceMaxLag = 267  // samples: 16.7 ms, a 60 Hz voice
	voicePeak   = 0.75 // a frame is voiced when it correlates this well with itself a period back
	// A voiced frame counts only this far (10 dB) above the room's level
	// (Gate.room): the chatter has moments where one of its voices stands
	// out, but they are hardly louder than the chatter itself (at most
	// 10 dB above its tenth percentile, the speaker's voiced frames 14 dB
	// and more at 20 dB over the chatter; a partner in a quiet room, 18 dB
	// under the wearer, 20 dB and more).
	voiceOverRoom = 3.16
	// A frame this far (12 dB) above the room's level holds an open
	// utterance, voiced or not: a word's long voiceless sounds ("meters",
	// 700 ms without a pitch) are well above a quiet room, and the
	// chatter's frames hardly ever are.
	holdOverRoom = 4.0
	voiceDrift   = 0.15 // a voice's period moves less than this between frames
	voiceFrames  = 5    // 80 ms of one steady pitch is a voice (the room's chatter gave one such run in 20 s)
	holdRun      = 2    // frames of one pitch in a row that keep an open utterance going
	holdFrames   = 25   // 500 ms without one pitch ends an utterance (a word's last voiceless sounds, "clubs", took 380)
	leadFrames   = 15   // 300 ms of sound before the first voiced frame are kept (a word's first voiceless sounds)
	maxLead      = 250  // 5 s: how far back a stretch of sound above the room may take an utterance's start
)

// pitch follows one talker's pitch frame by frame.
type pitch struct {
	x   [2 * frameLen]float64 // the previous frame, then the current one
	lag int                   // the previous frame's period, 0 when it had none
	run int                   // frames in a row, ending with the last, of one steady pitch
}

// next takes the stream's next frame and returns how many frames in a
// row, ending with this one, carry one steady pitch. Only loud frames
// are looked at (the gate's speech): a quiet frame ends a run.
func (p *pitch) next(f []int16, loud bool) int {
	copy(p.x[:frameLen], p.x[frameLen:])
	for i, s := range f {
		p.x[frameLen+i] = float64(s)
	}
	if !loud {
		p.lag, p.run = 0, 0
		return 0
	}
	r, lag := p.period()
	switch {
	case r < voicePeak:
		p.lag, p.run = 0, 0
	case p.lag > 0 && math.Abs(float64(lag-p.lag)) <= voiceDrift*float64(p.lag):
		p.lag, p.run = lag, p.run+1
	default:
		p.lag, p.run = lag, 1
	}
	return p.run
}

// period is the current frame's best normalised autocorrelation peak
// between voiceMinLag and voiceMaxLag (a local maximum, so that the slow
// slope of a low sound at short lags is not taken for a period) and its
// lag. The previous frame supplies the samples a lag reaches back to.
func (p *pitch) period() (float64, int) { return p.periodUpTo(voiceMaxLag) }

func (p *pitch) periodUpTo(maxLag int) (float64, int) {
	x := &p.x
	var mean float64
	for _, s := range x {
		mean += s
	}
	mean /= float64(len(x))
	var y [2 * frameLen]float64
	for i, s := range x {
		y[i] = s - mean
	}
	cur := y[frameLen:]
	var e0 float64
	for _, s := range cur {
		e0 += s * s
	}
	if e0 == 0 {
		return 0, 0
	}
	// e1 is the energy of the lagged window y[frameLen-lag : 2*frameLen-lag],
	// slid one sample back per lag.
	lo, hi := voiceMinLag-1, maxLag+1
	var e1 float64
	for _, s := range y[frameLen-lo : 2*frameLen-lo] {
		e1 += s * s
	}
	var best float64
	bestLag := 0
	var r [frameLen]float64
	for lag := lo; lag <= hi; lag++ {
		if lag > lo {
			a, b := y[frameLen-lag], y[2*frameLen-lag]
			e1 += a*a - b*b
		}
		back := y[frameLen-lag : 2*frameLen-lag]
		var c float64
		for i, s := range cur {
			c += s * back[i]
		}
		if e1 > 0 {
			r[lag] = c / math.Sqrt(e0*e1)
		}
	}
	for lag := voiceMinLag; lag <= maxLag; lag++ {
		if r[lag] > best && r[lag] >= r[lag-1] && r[lag] >= r[lag+1] {
			best, bestLag = r[lag], lag
		}
	}
	return best, bestLag
}
