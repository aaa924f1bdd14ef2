package pocketsphinx

// Fit is how well one recording, decoded whole, fits English (see
// utterance), for the measurement behind the threshold; checked is false
// for a recording too short to judge; overRoom is how far its speech
// stands over the sound at its edges (dB); edgesSilent is the share of
// those edges the free phones hear as silence.
func (e *Engine) Fit(pcm []int16) (words string, fit, overRoom, edgesSilent float64, checked bool, err error) {
	u, err := e.d.decode(pcm)
	return text(u.words), u.fit, u.overRoom, u.edgesSilent, u.checked, err
}

// DoubtFit is the fit under which an utterance in a quiet room is in
// doubt.
const DoubtFit = doubtFit

// Judge judges utterances in turn, as one stream does.
func Judge() func(fit, overRoom, edgesSilent float64, checked bool) bool {
	var l language
	return func(fit, overRoom, edgesSilent float64, checked bool) bool {
		return l.foreign(utterance{fit: fit, overRoom: overRoom, edgesSilent: edgesSilent, checked: checked})
	}
}

// OverRoom is how far pcm's speech stands over the sound at its edges
// (dB), as the check measures it.
func OverRoom(pcm []int16) float64 { return overRoom(pcm) }

// LoudRoom is the level over the room under which an utterance is judged
// against the loud room's lines.
const LoudRoom = loudRoom
