package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestNewBuiltin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dims      int
		wantDims  int
		wantModel string
	}{
		{0, 384, "builtin-hash-384-v2"},
		{-1, 384, "builtin-hash-384-v2"},
		{128, 128, "builtin-hash-128-v2"},
		{1024, 1024, "builtin-hash-1024-v2"},
	}
	for _, tt := range tests {
		b := NewBuiltin(tt.dims)
		if b.Dims() != tt.wantDims || b.Model() != tt.wantModel {
			t.Errorf("NewBuiltin(%d): Dims %d Model %q, want %d %q", tt.dims, b.Dims(), b.Model(), tt.wantDims, tt.wantModel)
		}
		vs, err := b.Embed(context.Background(), []string{"hello world", ""})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			checkUnit(t, v, tt.wantDims)
		}
	}
	var zero Builtin
	if zero.Dims() != DefaultDims || zero.Model() != "builtin-hash-384-v2" {
		t.Errorf("zero Builtin: %d %q", zero.Dims(), zero.Model())
	}
}

// unitTexts covers the shapes of input the tokeniser distinguishes.
var unitTexts = []string{
	"", " ", "...", "?!", "the", "what is it",
	"Quarterly budget review",
	"My daughter's piano recital is on Saturday at 3pm.",
	"我们明天要开会讨论项目预算。",
	"明日の会議でプロジェクトの予算について話しましょう",
	"회의는 내일 오후 세 시에 있습니다",
	"Встреча завтра в три часа",
	"café naïve résumé",
	"🎹🎉 party!",
	"12 34 5678",
	"\xff\xfe invalid utf8 \xc3",
	strings.Repeat("budget ", 500),
	strings.Repeat("x", 10000),
	"e\u0301e\u0301 combining",
}

func TestEmbed_UnitLength(t *testing.T) {
	t.Parallel()
	vs := mustEmbed(t, unitTexts...)
	if len(vs) != len(unitTexts) {
		t.Fatalf("%d vectors for %d texts", len(vs), len(unitTexts))
	}
	for i, v := range vs {
		t.Run(unitTexts[i][:min(len(unitTexts[i]), 20)], func(t *testing.T) {
			checkUnit(t, v, DefaultDims)
		})
	}
}

func TestEmbed_Deterministic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	want := mustEmbed(t, unitTexts...)

	// One embedder reused, texts one at a time (scratch reuse must not leak
	// state from one text to the next).
	b := NewBuiltin(0)
	for i, text := range unitTexts {
		got, err := b.Embed(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got[0], want[i]) {
			t.Errorf("text %d: vector differs between calls", i)
		}
	}

	// Many goroutines on one embedder.
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := range 8 {
		wg.Go(func() {
			for range 20 {
				texts := slices.Clone(unitTexts)
				slices.Reverse(texts)
				got, err := b.Embed(ctx, texts)
				if err != nil {
					errs <- err.Error()
					return
				}
				for i := range texts {
					if !slices.Equal(got[i], want[len(texts)-1-i]) {
						errs <- "goroutine " + string(rune('0'+g)) + ": vector differs"
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestEmbed_Pinned guards the promise that vectors never change under one
// Model: if this fails after a deliberate change, bump algoVersion and
// update the numbers. The tolerance absorbs last-bit differences between
// CPU architectures' math libraries, which do not matter for search.
func TestEmbed_Pinned(t *testing.T) {
	t.Parallel()
	v := mustEmbed(t, "Quarterly budget review with the finance team on Friday")[0]
	want := []float32{-0.106150, 0.051087, 0.035274, -0.029773, -0.042703, 0.035001, 0.086828, -0.017465}
	for i, w := range want {
		if math.Abs(float64(v[i]-w)) > 1e-5 {
			t.Fatalf("component %d = %.6f, want %.6f: the algorithm changed; bump algoVersion", i, v[i], w)
		}
	}
}

func TestEmbed_Empty(t *testing.T) {
	t.Parallel()
	vs := mustEmbed(t, "", "   ", "... ?!", "hello")
	for i := 1; i < 3; i++ {
		if !slices.Equal(vs[0], vs[i]) {
			t.Errorf("wordless text %d differs from the empty text", i)
		}
	}
	if c := cosine(vs[0], vs[3]); math.Abs(c) > 0.3 {
		t.Errorf("cosine(empty, hello) = %.3f, want near 0", c)
	}
}

func TestEmbed_Cancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewBuiltin(0).Embed(ctx, []string{"a", "b"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	vs, err := NewBuiltin(0).Embed(context.Background(), nil)
	if err != nil || len(vs) != 0 {
		t.Fatalf("Embed(nil) = %v, %v", vs, err)
	}
}
