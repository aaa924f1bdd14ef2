package stt

import (
	"context"
	"fmt"
	"strings"
)

// Segments groups consecutive words into segments: one per run of a
// speaker's words when diarize is set (labelled SPEAKER_NN), else one for
// all of them. Never nil.
func Segments(words []Word, diarize bool) []Segment {
	out := []Segment{}
	for _, w := range words {
		label := ""
		if diarize {
			label = fmt.Sprintf("SPEAKER_%02d", w.Speaker)
		}
		if n := len(out); n > 0 && out[n-1].Speaker == label {
			out[n-1].Text += " " + w.Text
			out[n-1].End = w.End
			continue
		}
		out = append(out, Segment{Start: w.Start, End: w.End, Text: w.Text, Speaker: label})
	}
	return out
}

// TranscribeThroughStream is a batch job over a streaming provider, for
// vendors whose only interface is a live socket: the recording goes in
// 200 ms at a time, the stream is closed, and every final word makes the
// transcript.
func TranscribeThroughStream(ctx context.Context, p StreamingProvider, pcm []int16, cfg Config) (Transcript, error) {
	st, err := p.Open(ctx, cfg)
	if err != nil {
		return Transcript{}, err
	}
	const chunk = SampleRate / 5
	for off := 0; off < len(pcm); off += chunk {
		if err := st.Send(pcm[off:min(off+chunk, len(pcm))]); err != nil {
			break // Err says why, below
		}
	}
	st.Close()
	var words []Word
	for collecting := true; collecting; {
		select {
		case ws, ok := <-st.Words():
			words, collecting = append(words, ws...), ok
		case <-ctx.Done():
			return Transcript{}, Classify(ctx.Err(), p.Name())
		}
	}
	if err := st.Err(); err != nil {
		return Transcript{}, err
	}
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.Text
	}
	return Transcript{Text: strings.Join(texts, " "), Segments: Segments(words, cfg.Diarize)}, nil
}
