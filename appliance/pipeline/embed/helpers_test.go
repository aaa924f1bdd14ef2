package embed

import (
	"context"
	"math"
	"testing"
)

// mustEmbed embeds texts with a fresh default embedder.
func mustEmbed(tb testing.TB, texts ...string) [][]float32 {
	tb.Helper()
	vs, err := NewBuiltin(0).Embed(context.Background(), texts)
	if err != nil {
		tb.Fatal(err)
	}
	return vs
}

func cosine(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

func sqrt(x float64) float64 { return math.Sqrt(x) }

func norm(v []float32) float64 {
	return math.Sqrt(cosine(v, v))
}

// checkUnit fails unless v has dims finite components and unit length.
func checkUnit(tb testing.TB, v []float32, dims int) {
	tb.Helper()
	if len(v) != dims {
		tb.Fatalf("len = %d, want %d", len(v), dims)
	}
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			tb.Fatalf("component %d = %v", i, x)
		}
	}
	if n := norm(v); math.Abs(n-1) > 1e-5 {
		tb.Fatalf("|v| = %v, want 1", n)
	}
}
