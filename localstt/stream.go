package localstt

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// stream is a live whisper session. The shared VAD opens and closes
// utterances; a short one is transcribed whole when it ends, and a long
// one is transcribed again every passEvery of new audio, its words
// committed by LocalAgreement-2 (agreement.go). No context is carried
// from one utterance to the next.
type stream struct {
	*vad.Live
	r        *Route
	language string
	ctx      context.Context
	cancel   context.CancelFunc
	// handUnheard: the stream may be handed to the next route when it
	// drains or ends having heard no word on speech (stt.HandsOverUnheard).
	handUnheard atomic.Bool
}

// HandOverUnheard implements stt.HandsOverUnheard.
func (s *stream) HandOverUnheard(on bool) { s.handUnheard.Store(on) }

// passEvery is how much new audio starts another pass over a long
// utterance; the first pass waits for firstPass of it.
const (
	passEvery = 2 * stt.SampleRate
	firstPass = 4 * stt.SampleRate
)

func (s *stream) work() {
	defer s.cancel()
	defer close(s.Out())
	defer s.r.release() // held by Open
	var (
		buf      []int16 // the utterance's audio not yet committed past
		start    int     // stream sample of buf[0]
		sinceRun int     // samples added since the last pass
		agree    agreement
		open     bool
		skip     vad.Skipping
		said     bool // a word has been sent
		missed   bool // a stretch of speech long enough to judge gave none
	)
	out, skipped := s.Out(), s.Skipped()
	emit := func(ws []stt.Word) {
		if len(ws) > 0 {
			said = true
			out <- ws
		}
	}
	// A session that drains or ends before its route could be judged deaf
	// (deafAfter stretches) is handed over all the same when the model,
	// never yet proven, gave nothing on its speech.
	unheard := func() bool {
		return missed && !said && s.handUnheard.Load() && s.r.hearing.unproven()
	}
	pass := func(final bool) bool {
		segs, _, err := s.r.run(s.ctx, buf, s.language, false)
		if err != nil {
			s.Fail(err)
			return false
		}
		if len(segs) == 0 && len(buf) >= missAtLeast {
			missed = true
		}
		hyp := words(segs, float64(start)/stt.SampleRate)
		// Only what comes after the committed words is new.
		hyp = after(hyp, agree.committed)
		if final {
			emit(agree.finish(hyp))
			return true
		}
		emit(agree.update(hyp))
		return true
	}
	for e := range s.Events() {
		skip.Took(e)
		switch e.Kind {
		case vad.Start:
			skip.End(e.At, skipped) // live audio again
			buf, start, sinceRun, agree, open = append([]int16(nil), e.PCM...), e.At, 0, agreement{}, true
		case vad.Audio:
			if !open {
				continue
			}
			buf = append(buf, e.PCM...)
			sinceRun += len(e.PCM)
			if len(buf) >= firstPass && sinceRun >= passEvery {
				sinceRun = 0
				if !pass(false) {
					return
				}
			}
		case vad.Mark: // every utterance before it is heard and sent
			if unheard() {
				skip.End(s.Sent(), skipped)
				s.Stop(s.r.errUnheard())
				return
			}
			out <- vad.Barrier()
		case vad.End:
			if open && !pass(true) {
				return
			}
			open, buf = false, nil
		case vad.Skipped:
			from := -1
			if open {
				// The words already committed stay; the rest of the
				// utterance is heard again with the skipped audio.
				from = start
				if n := len(agree.committed); n > 0 {
					from = int(agree.committed[n-1].End * stt.SampleRate)
				}
			}
			open, buf = false, nil
			skip.Begin(e, from)
		}
	}
	skip.End(s.Sent(), skipped)
	if unheard() {
		s.Fail(s.r.errUnheard())
	}
}

// after drops the words of hyp that end before the last committed word
// ends: a new pass sees the whole utterance again.
func after(hyp, committed []stt.Word) []stt.Word {
	if len(committed) == 0 {
		return hyp
	}
	n := min(len(committed), len(hyp))
	// The committed words are a prefix the new pass agrees with, usually;
	// skip as many words as were committed.
	return hyp[n:]
}

// spread turns a segment into timed words, sharing its time among them by
// length (whisper's own token times are rough on short utterances).
func spread(seg stt.Segment, off float64) []stt.Word {
	fields := strings.Fields(seg.Text)
	total := 0
	for _, f := range fields {
		total += len(f)
	}
	var out []stt.Word
	t := seg.Start
	for _, f := range fields {
		d := (seg.End - seg.Start) * float64(len(f)) / float64(max(total, 1))
		out = append(out, stt.Word{Text: f, Start: off + t, End: off + t + d})
		t += d
	}
	return out
}
