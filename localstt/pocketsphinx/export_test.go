package pocketsphinx

// Fit is how well one recording, decoded whole, fits English (see
// utterance), for the measurement behind the threshold; checked is false
// for a recording too short to judge.
func (e *Engine) Fit(pcm []int16) (words string, fit float64, checked bool, err error) {
	u, err := e.d.decode(pcm)
	return text(u.words), u.fit, u.checked, err
}

// DoubtFit is the fit under which an utterance is in doubt.
const DoubtFit = doubtFit

// Judge judges utterances in turn, as one stream does.
func Judge() func(fit float64, checked bool) bool {
	var l language
	return func(fit float64, checked bool) bool { return l.foreign(utterance{fit: fit, checked: checked}) }
}
