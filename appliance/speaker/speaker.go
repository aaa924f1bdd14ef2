// Package speaker tells voices apart: an embedding of a stretch of speech,
// compared by cosine distance with the owner's speech profile and with
// known people's voices. Extractors are interchangeable: the built-in one
// needs no model file; others run a neural model or call a service.
package speaker

import (
	"context"
	"math"
)

// Extractor turns 16 kHz mono speech into a voice embedding.
type Extractor interface {
	Name() string
	Embed(ctx context.Context, pcm []int16) ([]float32, error)
	// Threshold is the cosine distance below which two of its embeddings
	// are taken as the same voice.
	Threshold() float64
}

// Distance is the cosine distance of two embeddings (0 same direction, 2
// opposite); embeddings of different lengths are as far apart as can be.
func Distance(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 2
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 2
	}
	return 1 - dot/math.Sqrt(na*nb)
}

// WithThreshold is ex with another same-voice threshold (the owner's
// calibration of their own household).
func WithThreshold(ex Extractor, threshold float64) Extractor {
	return thresholded{Extractor: ex, th: threshold}
}

type thresholded struct {
	Extractor
	th float64
}

func (t thresholded) Threshold() float64 { return t.th }
