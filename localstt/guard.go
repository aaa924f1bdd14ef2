package localstt

import (
	"math"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Whisper invents text where there is none: subtitle credits over
// silence, one phrase repeated to the end of the window. guard drops what
// bears those marks.

// silentPhrases are what whisper writes over silence and noise.
var silentPhrases = []string{
	"thank you for watching", "thanks for watching", "please subscribe", "subtitles by", "transcribed by",
	"thank you.", "you", "[music]", "[silence]", "(music)", "[blank_audio]", "[ silence ]",
}

// guard removes hallucinated segments: known phrases over quiet audio,
// and runs of a repeated phrase (kept once).
func guard(segs []heard, pcm []int16) []heard {
	var out []heard
	for _, s := range segs {
		text := strings.TrimSpace(s.Text)
		if text == "" || isMarkup(text) {
			continue
		}
		if quiet(pcm, s.Start, s.End) && isSilentPhrase(text) {
			continue
		}
		if unsure(s) {
			continue
		}
		if n := len(out); n > 0 && strings.EqualFold(out[n-1].Text, text) {
			continue // the same phrase again: whisper looping
		}
		if collapsed := collapseRepeats(text); collapsed != text {
			s.Text, s.words = collapsed, nil // the word times no longer match
		} else {
			s.Text = text
		}
		out = append(out, s)
	}
	return out
}

// Whisper's own rule for skipping a window (OpenAI's reference decoder
// uses the same thresholds): the model thinks no one spoke, and what it
// wrote anyway it wrote without confidence.
const (
	noSpeechThreshold = 0.6
	logProbThreshold  = -1.0
)

// unsure reports a segment the decoder itself marks as probably not
// speech: a high no-speech probability and low-confidence text.
func unsure(s heard) bool {
	return s.noSpeech > noSpeechThreshold && s.logProb < logProbThreshold
}

func isMarkup(t string) bool {
	return (strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]")) || (strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")"))
}

func isSilentPhrase(t string) bool {
	t = strings.ToLower(strings.Trim(t, " .!"))
	for _, p := range silentPhrases {
		if strings.Trim(p, " .!") == t || strings.HasPrefix(t, strings.Trim(p, " .!")) {
			return true
		}
	}
	return false
}

// quiet reports whether the audio under a segment is near silence.
func quiet(pcm []int16, start, end float64) bool {
	a, b := int(start*stt.SampleRate), int(end*stt.SampleRate)
	a, b = max(a, 0), min(b, len(pcm))
	if b <= a {
		return true
	}
	var sum float64
	for _, v := range pcm[a:b] {
		sum += float64(v) * float64(v)
	}
	return math.Sqrt(sum/float64(b-a)) < 300
}

// collapseRepeats cuts a word repeated more than four times in a row down
// to one: real speech does not do that, whisper's decoder loop does.
func collapseRepeats(t string) string {
	words := strings.Fields(t)
	var out []string
	run := 0
	for i, w := range words {
		if i > 0 && strings.EqualFold(strings.Trim(w, ".,!?"), strings.Trim(words[i-1], ".,!?")) {
			run++
		} else {
			run = 0
		}
		if run < 4 {
			out = append(out, w)
		}
	}
	if len(out) < len(words) { // the looped run keeps one copy
		return strings.Join(dedupeTail(out), " ")
	}
	return t
}

func dedupeTail(ws []string) []string {
	var out []string
	for i, w := range ws {
		if i > 0 && strings.EqualFold(strings.Trim(w, ".,!?"), strings.Trim(ws[i-1], ".,!?")) {
			continue
		}
		out = append(out, w)
	}
	return out
}
