package transcribe

import (
	"context"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Diarizer embeds voices for diarization (a speaker.Extractor).
type Diarizer interface {
	Embed(ctx context.Context, pcm []int16) ([]float32, error)
	Threshold() float64
}

// WithDiarizer makes diarize=true label speakers by voice when the route
// does not: each segment's speech is embedded as its chunk is read, and the
// embeddings clustered at the end (speaker.Cluster), the number of
// speakers found.
func (s *Service) WithDiarizer(d Diarizer) *Service {
	s.diarizer = d
	return s
}

// voices collects one job's segment embeddings.
type voices struct {
	embs    [][]float32
	weights []float64
	short   []bool
}

// add embeds the speech of seg (times in the recording) from its chunk.
func (v *voices) add(ctx context.Context, d Diarizer, seg stt.Segment, pcm []int16, offset float64) {
	a := max(int((seg.Start-offset)*audio.Rate), 0)
	b := min(int((seg.End-offset)*audio.Rate), len(pcm))
	var e []float32
	if b > a {
		e, _ = d.Embed(ctx, pcm[a:b])
	}
	v.embs = append(v.embs, e)
	v.weights = append(v.weights, float64(max(b-a, 0))/audio.Rate)
	v.short = append(v.short, e == nil || b-a < audio.Rate) // under a second: not trusted alone
}

// label gives the segments speakers by voice, when the route gave them at
// most one. A segment too short to embed takes the speaker before it.
func (v *voices) label(segs []stt.Segment, threshold float64) {
	distinct := map[string]bool{}
	for _, s := range segs {
		distinct[s.Speaker] = true
	}
	if len(distinct) > 1 || len(segs) != len(v.embs) {
		return // the route diarised
	}
	var idx []int
	var embs [][]float32
	var weights []float64
	var short []bool
	for i, e := range v.embs {
		if e != nil {
			idx, embs, weights, short = append(idx, i), append(embs, e), append(weights, v.weights[i]), append(short, v.short[i])
		}
	}
	if len(embs) == 0 {
		return
	}
	labels := speaker.Cluster(embs, weights, short, threshold)
	prev := 0
	for i, k := 0, 0; i < len(segs); i++ {
		if k < len(idx) && idx[k] == i {
			prev = labels[k]
			k++
		}
		segs[i].Speaker = fmt.Sprintf("SPEAKER_%02d", prev)
	}
}
