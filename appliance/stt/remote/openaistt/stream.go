package openaistt

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/vad"
)

// Open implements stt.StreamingProvider at utterance level: the shared VAD
// cuts the live audio, and each utterance is posted when it ends.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	return vad.NewStreamFor(ctx, Name, cfg, func(ctx context.Context, pcm []int16) ([]stt.Word, error) {
		tr, err := r.Transcribe(ctx, pcm, cfg)
		if err != nil {
			return nil, err
		}
		var ws []stt.Word
		for _, seg := range tr.Segments {
			fields := strings.Fields(seg.Text)
			per := (seg.End - seg.Start) / float64(max(len(fields), 1))
			for i, f := range fields {
				ws = append(ws, stt.Word{Text: f, Start: seg.Start + float64(i)*per, End: seg.Start + float64(i+1)*per})
			}
		}
		return ws, nil
	}), nil
}
