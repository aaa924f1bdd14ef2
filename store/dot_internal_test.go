package store

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotBlob: the unrolled product equals the plain one, for lengths that
// are and are not multiples of four, and a blob of the wrong size scores 0.
func TestDotBlob(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 4, 5, 383, 384, 768} {
		a, q := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], q[i] = r.Float32()*2-1, r.Float32()*2-1
			want += float64(a[i]) * float64(q[i])
		}
		if got := dotBlob(encodeFloats(a), q); math.Abs(got-want) > 1e-4 {
			t.Errorf("n=%d: %v, want %v", n, got, want)
		}
	}
	if got := dotBlob(make([]byte, 12), make([]float32, 4)); got != 0 {
		t.Errorf("a short blob scored %v", got)
	}
}

func BenchmarkDotBlob384(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	a, q := make([]float32, 384), make([]float32, 384)
	for i := range a {
		a[i], q[i] = r.Float32(), r.Float32()
	}
	blob := encodeFloats(a)
	b.ResetTimer()
	for b.Loop() {
		dotBlob(blob, q)
	}
}
