package localstt

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// LocalAgreement-2: while someone keeps talking, the growing audio is
// transcribed again every few seconds, and a word is committed (sent)
// once two consecutive hypotheses agree on it and on everything before
// it. Words therefore arrive during a long monologue, and a word whisper
// is still unsure of waits for the next pass.

// agreement tracks one utterance's hypotheses.
type agreement struct {
	prev      []stt.Word // the last hypothesis, past what is committed
	committed []stt.Word
}

// update takes a new hypothesis of the uncommitted audio and returns the
// words now agreed on.
func (a *agreement) update(hyp []stt.Word) []stt.Word {
	n := 0
	for n < len(hyp) && n < len(a.prev) && sameWord(hyp[n].Text, a.prev[n].Text) {
		n++
	}
	agreed := append([]stt.Word(nil), hyp[:n]...)
	a.committed = append(a.committed, agreed...)
	a.prev = append([]stt.Word(nil), hyp[n:]...)
	return agreed
}

// finish commits the last hypothesis whole: the utterance is over.
func (a *agreement) finish(hyp []stt.Word) []stt.Word {
	a.committed = append(a.committed, hyp...)
	a.prev = nil
	return hyp
}

func sameWord(a, b string) bool {
	return strings.EqualFold(strings.Trim(a, ".,!?;:\"'"), strings.Trim(b, ".,!?;:\"'"))
}

// words turns segments (times from the transcribed audio's start) into
// timed words, offset to stream time: whisper's token times where it gave
// them, else the segment's time shared by word length.
func words(segs []heard, off float64) []stt.Word {
	var out []stt.Word
	for _, s := range segs {
		if len(s.words) == 0 {
			out = append(out, spread(s.Segment, off)...)
			continue
		}
		for _, w := range s.words {
			w.Start += off
			w.End += off
			out = append(out, w)
		}
	}
	return out
}
