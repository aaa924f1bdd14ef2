package realspeech

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
)

// Turn is one clip's place in a stream.
type Turn struct {
	Clip       Clip
	Start, End int // sample offsets in the stream
}

// Stream is clips joined with pauses: one recording, as a wearable hears
// a conversation.
type Stream struct {
	PCM   []int16
	Turns []Turn
}

// Join puts the clips one after the other, pause seconds of silence
// before, between and after them.
func Join(clips []Clip, pause float64) Stream {
	gap := int(pause * SampleRate)
	n := gap
	for _, c := range clips {
		n += len(c.PCM) + gap
	}
	s := Stream{PCM: make([]int16, gap, n)}
	for _, c := range clips {
		start := len(s.PCM)
		s.PCM = append(s.PCM, c.PCM...)
		s.Turns = append(s.Turns, Turn{Clip: c, Start: start, End: len(s.PCM)})
		s.PCM = append(s.PCM, make([]int16, gap)...)
	}
	return s
}

// Conversation takes turns between voices: turn i is the i-th clip of
// voice i mod len(voices) (a voice out of clips is left out), joined with
// pause seconds between turns. The speaker tests' streams: whose turn is
// whose is in each Turn's Clip.
func Conversation(voices [][]Clip, turns int, pause float64) Stream {
	var clips []Clip
	next := make([]int, len(voices))
	for i := 0; len(clips) < turns; i++ {
		v := i % len(voices)
		if next[v] < len(voices[v]) {
			clips = append(clips, voices[v][next[v]])
			next[v]++
		}
		if i > turns*len(voices) {
			break // every voice is out of clips
		}
	}
	return Join(clips, pause)
}

// Text is what is said in the stream, in order.
func (s Stream) Text() string {
	texts := make([]string, len(s.Turns))
	for i, t := range s.Turns {
		texts[i] = t.Clip.Text
	}
	return strings.Join(texts, " ")
}

// Seconds is the stream's length.
func (s Stream) Seconds() float64 { return float64(len(s.PCM)) / SampleRate }

// Words is the number of words said.
func (s Stream) Words() int { return len(strings.Fields(s.Text())) }

// speechPower is the mean square of the samples inside the turns: the
// level of the speech, not of the pauses between.
func (s Stream) speechPower() float64 {
	var sum float64
	n := 0
	for _, t := range s.Turns {
		for _, v := range s.PCM[t.Start:t.End] {
			sum += float64(v) * float64(v)
		}
		n += t.End - t.Start
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// with is the stream over other samples, same turns.
func (s Stream) with(pcm []int16) Stream {
	turns := make([]Turn, len(s.Turns))
	copy(turns, s.Turns)
	for i := range turns {
		turns[i].Clip.PCM = pcm[turns[i].Start:turns[i].End]
	}
	return Stream{PCM: pcm, Turns: turns}
}

// WithNoise adds noise (looped to the stream's length) at snrDB below
// the speech's level, measured inside the turns. The pauses get the same
// noise, as a microphone in a noisy room hears it between words.
func (s Stream) WithNoise(noise []int16, snrDB float64) Stream {
	if len(noise) == 0 {
		return s
	}
	var np float64
	for _, v := range noise {
		np += float64(v) * float64(v)
	}
	np /= float64(len(noise))
	gain := 0.0
	if np > 0 {
		gain = math.Sqrt(s.speechPower() / np / math.Pow(10, snrDB/10))
	}
	out := make([]float64, len(s.PCM))
	for i, v := range s.PCM {
		out[i] = float64(v) + gain*float64(noise[i%len(noise)])
	}
	return s.with(clip16(out))
}

// ScaledTo scales the stream so that its speech (inside the turns) has
// an RMS level of dBFS (0 dBFS: a full-scale square wave), as a quiet or
// distant microphone records it.
func (s Stream) ScaledTo(dBFS float64) Stream {
	p := s.speechPower()
	if p == 0 {
		return s
	}
	gain := 32768 * math.Pow(10, dBFS/20) / math.Sqrt(p)
	out := make([]float64, len(s.PCM))
	for i, v := range s.PCM {
		out[i] = float64(v) * gain
	}
	return s.with(clip16(out))
}

// Level is the RMS level of the stream's speech in dBFS.
func (s Stream) Level() float64 {
	return 10 * math.Log10(s.speechPower()/(32768*32768))
}

// WhiteNoise is n samples of Gaussian white noise, the same for the same
// seed.
func WhiteNoise(n int, seed uint64) []int16 {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]float64, n)
	for i := range out {
		out[i] = 3000 * rng.NormFloat64()
	}
	return clip16(out)
}

// Babble is several talkers at once: each stream, looped to n samples and
// started at a different point, summed, each at the same level. Built from
// voices other than the one measured, it is the noise of a room of
// conversations.
func Babble(talkers [][]int16, n int) []int16 {
	out := make([]float64, n)
	for k, t := range talkers {
		if len(t) == 0 {
			continue
		}
		var p float64
		for _, v := range t {
			p += float64(v) * float64(v)
		}
		gain := 3000 / math.Sqrt(p/float64(len(t))+1)
		off := k * len(t) / max(len(talkers), 1)
		for i := range out {
			out[i] += gain * float64(t[(i+off)%len(t)])
		}
	}
	return clip16(out)
}

func clip16(x []float64) []int16 {
	out := make([]int16, len(x))
	for i, v := range x {
		out[i] = int16(max(-32768, min(32767, math.Round(v))))
	}
	return out
}

// VoiceClips is n prompts of each of the five asterisk voices, in the
// order of Voices: with Conversation, the speaker tests' streams (e.g.
// Conversation(clips, 10, 1) is ten turns, each voice twice).
func VoiceClips(ctx context.Context, n int) ([][]Clip, error) {
	out := make([][]Clip, len(Voices))
	for i, v := range Voices {
		clips, err := Prompts(ctx, v, n)
		if err != nil {
			return nil, err
		}
		out[i] = clips
	}
	return out, nil
}
