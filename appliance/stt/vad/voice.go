package vad

import "math"

// A room's chatter (several people talking at once, 10-20 dB under the
// speaker and on through the speaker's pauses) is loud enough for the
// level rules, and a rule on the wearer's level that kept it out kept
// out the person spoken to across the table too (a worn microphone hears
// them 10-18 dB under the wearer). So a voice is told from chatter by
// two things a level under the wearer's does not decide:
//
//   - one talker's voiced sounds have one clear pitch (a frame is nearly
//     itself a period back, and the period moves little from frame to
//     frame); four voices at once have none, save for a frame or two
//     when one of them stands out;
//   - those frames are well above the room's own level (Gate.room, the
//     level the recent frames mostly stay above): the chatter's moments
//     of one voice are hardly louder than the chatter (at most 10 dB
//     over its tenth percentile), the speaker's voiced frames 14 dB and
//     more at 20 dB over it, a partner in a quiet room 20 dB and more.
//
// An utterance opens only once voiceFrames in a row are such frames, and
// ends when for holdFrames no frame has been either one voice's pitch or
// well above the room (holdOverRoom).
const (
	voiceMinLag   = 40   // samples: 2.5 ms, a 400 Hz voice
	voiceMaxLag   = 267  // samples: 16.7 ms, a 60 Hz voice (CMU's "cards" speaker reaches 85 Hz)
	voicePeak     = 0.75 // a frame is voiced when it correlates this well with itself a period back
	voiceDrift    = 0.15 // a voice's period moves less than this between frames
	octaveSlack   = 0.05 // a shorter period this close to the best correlation is the pitch
	voiceOverRoom = 2.5  // 8 dB: how far above the room's level a voiced frame must be to count
	voiceFrames   = 5    // 100 ms of one steady pitch above the room is a voice
	holdRun       = 2    // frames of one pitch in a row that keep an open utterance going
	// A frame this far (12 dB) above the room's level holds an open
	// utterance, voiced or not: a word's long voiceless sounds ("meters":
	// 700 ms without a pitch) are well above a quiet room, and the
	// chatter's frames hardly ever are.
	holdOverRoom = 4.0
	// 500 ms of neither ends an utterance: the last voiceless sounds of
	// "clubs" took 380; at 800 the chatter's stray voiced frames held it.
	holdFrames = 25
	voiceTail  = 15  // 300 ms after the last frame of either are kept when it does
	leadFrames = 15  // 300 ms of sound before the voice are kept (a word's first voiceless sounds)
	maxLead    = 250 // 5 s: how far back a stretch of sound above the room may take an utterance's start
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
func (p *pitch) period() (float64, int) {
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
	lo, hi := voiceMinLag-1, voiceMaxLag+1
	var e1 float64
	for _, s := range y[frameLen-lo : 2*frameLen-lo] {
		e1 += s * s
	}
	var best float64
	bestLag := 0
	var r [voiceMaxLag + 2]float64
	for lag := lo; lag <= hi; lag++ {
		if lag > lo {
			a, b := y[frameLen-lag], y[2*frameLen-lag]
			e1 += a*a - b*b
		}
		c := dot(cur, y[frameLen-lag:2*frameLen-lag])
		if e1 > 0 {
			r[lag] = c / math.Sqrt(e0*e1)
		}
	}
	for lag := voiceMinLag; lag <= voiceMaxLag; lag++ {
		if r[lag] > best && r[lag] >= r[lag-1] && r[lag] >= r[lag+1] {
			best, bestLag = r[lag], lag
		}
	}
	// A voice correlates with itself at two and three periods back as
	// well as at one: the shortest period nearly as good as the best is
	// the pitch (taking the best alone, a 190 Hz voice in chatter jumped
	// between one, two and three periods from frame to frame).
	for lag := voiceMinLag; lag < bestLag; lag++ {
		if r[lag] >= best-octaveSlack && r[lag] >= r[lag-1] && r[lag] >= r[lag+1] {
			return r[lag], lag
		}
	}
	return best, bestLag
}

// dot is a frame's dot product, in four sums at once (a single sum's
// additions wait on each other: this is most of the rule's cost).
func dot(a, b []float64) float64 {
	a, b = a[:frameLen], b[:frameLen]
	var c0, c1, c2, c3 float64
	for i := 0; i+3 < frameLen; i += 4 {
		c0 += a[i] * b[i]
		c1 += a[i+1] * b[i+1]
		c2 += a[i+2] * b[i+2]
		c3 += a[i+3] * b[i+3]
	}
	return c0 + c1 + c2 + c3
}
