package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// vectorFor is the fake's embedding of "t<k>": (k, 1, 0, …) scaled by 2, so
// after normalisation v[0]/v[1] == k and the norm is 1.
func vectorFor(text string, dims int) []float64 {
	k, _ := strconv.Atoi(strings.TrimPrefix(text, "t"))
	v := make([]float64, dims)
	v[0], v[1] = 2*float64(k), 2
	return v
}

// embedScript answers every request with one vector per input, listed in
// reverse order (indices tell the truth), with vectors of length dims.
func embedScript(dims int) func(int, map[string]any) fakeReply {
	return func(_ int, req map[string]any) fakeReply {
		in := req["input"].([]any)
		data := make([]any, 0, len(in))
		for i := len(in) - 1; i >= 0; i-- {
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": vectorFor(in[i].(string), dims)})
		}
		return fakeReply{json: map[string]any{"object": "list", "model": "fake-embed", "data": data,
			"usage": map[string]any{"prompt_tokens": len(in), "total_tokens": len(in)}}}
	}
}

func newTestEmbedder(t *testing.T, f *fakeServer, cfg EmbedConfig) (*Embedder, *sleepRecorder) {
	t.Helper()
	cfg.BaseURL = f.baseURL()
	if cfg.Model == "" {
		cfg.Model = "nomic-embed-text"
	}
	if cfg.APIKey == "" {
		cfg.APIKey = f.key
	}
	e := NewEmbedder(cfg)
	rec := &sleepRecorder{}
	e.p.sleep = rec.sleep
	return e, rec
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("t%d", i)
	}
	return out
}

func TestEmbedBatchesOrdersAndNormalises(t *testing.T) {
	t.Parallel()
	const dims = 16
	f := newFake(t, "sk-embed", embedScript(dims))
	e, _ := newTestEmbedder(t, f, EmbedConfig{Dims: dims})
	if e.Model() != "openai:nomic-embed-text:16" || e.Dims() != dims {
		t.Errorf("Model, Dims = %q, %d", e.Model(), e.Dims())
	}

	vecs, err := e.Embed(context.Background(), texts(130))
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	for i, want := range []int{64, 64, 2} {
		r := reqs[i]
		if n := len(r.Body["input"].([]any)); n != want {
			t.Errorf("batch %d has %d texts, want %d", i, n, want)
		}
		if r.Path != "/v1/embeddings" || r.Auth != "Bearer sk-embed" || r.Body["model"] != "nomic-embed-text" {
			t.Errorf("request %d: path %s auth %q model %v", i, r.Path, r.Auth, r.Body["model"])
		}
		if r.Body["dimensions"] != float64(dims) {
			t.Errorf("request %d: dimensions = %v", i, r.Body["dimensions"])
		}
	}
	if len(vecs) != 130 {
		t.Fatalf("%d vectors", len(vecs))
	}
	for k, v := range vecs {
		if len(v) != dims {
			t.Fatalf("vector %d has %d dims", k, len(v))
		}
		var norm float64
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		if math.Abs(norm-1) > 1e-5 {
			t.Errorf("vector %d norm² = %v", k, norm)
		}
		if got := float64(v[0]) / float64(v[1]); math.Abs(got-float64(k)) > 1e-3 {
			t.Errorf("vector %d belongs to text %v: order lost", k, got)
		}
	}
}

func TestEmbedBatchSizeAndEmpty(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", embedScript(8))
	e, _ := newTestEmbedder(t, f, EmbedConfig{Dims: 8, BatchSize: 10})
	if _, err := e.Embed(context.Background(), texts(25)); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
	if f.requests()[0].HasKey {
		t.Error("Authorization sent without a key")
	}
	vecs, err := e.Embed(context.Background(), nil)
	if err != nil || len(vecs) != 0 || len(f.requests()) != 3 {
		t.Errorf("empty input: %v, %v, %d requests", vecs, err, len(f.requests()))
	}
}

func TestEmbedWrongDims(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", embedScript(12))
	e, _ := newTestEmbedder(t, f, EmbedConfig{Dims: 8})
	_, err := e.Embed(context.Background(), texts(3))
	if !errors.Is(err, ErrMalformedReply) || !strings.Contains(err.Error(), "has 12 dims, want 8") {
		t.Fatalf("err = %v", err)
	}
}

func TestEmbedMalformedReplies(t *testing.T) {
	t.Parallel()
	cases := map[string]fakeReply{
		"too few":      {json: map[string]any{"data": []any{map[string]any{"index": 0, "embedding": vectorFor("t0", 8)}}}},
		"repeat index": {json: map[string]any{"data": []any{map[string]any{"index": 0, "embedding": vectorFor("t0", 8)}, map[string]any{"index": 0, "embedding": vectorFor("t1", 8)}}}},
		"bad index":    {json: map[string]any{"data": []any{map[string]any{"index": 0, "embedding": vectorFor("t0", 8)}, map[string]any{"index": 7, "embedding": vectorFor("t1", 8)}}}},
		"zero vector":  {json: map[string]any{"data": []any{map[string]any{"index": 0, "embedding": make([]float64, 8)}, map[string]any{"index": 1, "embedding": vectorFor("t1", 8)}}}},
		"not JSON":     {body: "upstream connect error"},
	}
	for name, rep := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, "", replies(rep))
			e, _ := newTestEmbedder(t, f, EmbedConfig{Dims: 8})
			if _, err := e.Embed(context.Background(), texts(2)); !errors.Is(err, ErrMalformedReply) {
				t.Fatalf("err = %v, want ErrMalformedReply", err)
			}
			if n := len(f.requests()); n != 2 {
				t.Errorf("requests = %d, want 2 (one retry)", n)
			}
		})
	}
}

func TestEmbedRetriesServerErrors(t *testing.T) {
	t.Parallel()
	ok := embedScript(8)
	f := newFake(t, "", func(n int, req map[string]any) fakeReply {
		if n == 0 {
			return fakeReply{status: 503, header: map[string]string{"Retry-After": "1"}}
		}
		return ok(n, req)
	})
	e, rec := newTestEmbedder(t, f, EmbedConfig{Dims: 8})
	if _, err := e.Embed(context.Background(), texts(2)); err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if d := rec.got(); len(d) != 1 || d[0].Seconds() != 1 {
		t.Errorf("delays = %v, want [1s]", d)
	}
}

func TestEmbedDropsRejectedDimensions(t *testing.T) {
	t.Parallel()
	ok := embedScript(8)
	f := newFake(t, "", func(n int, req map[string]any) fakeReply {
		if _, sent := req["dimensions"]; sent {
			return fakeReply{status: 400, body: `{"error":{"message":"This model does not support 'dimensions'","type":"invalid_request_error"}}`}
		}
		return ok(n, req)
	})
	e, _ := newTestEmbedder(t, f, EmbedConfig{Dims: 8, BatchSize: 2})
	if _, err := e.Embed(context.Background(), texts(4)); err != nil {
		t.Fatalf("Embed: %v", err)
	}
	// Batch 1: with dimensions (400), then without; batch 2: without only.
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	if _, sent := reqs[2].Body["dimensions"]; sent {
		t.Error("dimensions sent again after the server rejected it")
	}
}

func TestEmbedParentCancelled(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", embedScript(8))
	e, _ := newTestEmbedder(t, f, EmbedConfig{Dims: 8})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, texts(2)); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestNewEmbedderRequiresDims(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("NewEmbedder accepted Dims 0")
		}
	}()
	NewEmbedder(EmbedConfig{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
}
