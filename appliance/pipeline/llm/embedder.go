package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// DefaultBatchSize is how many texts go into one /embeddings request when
// EmbedConfig.BatchSize is 0: large enough to amortise a request, small
// enough that one slow batch does not hit the timeout on a local server.
const DefaultBatchSize = 64

// EmbedConfig configures an Embedder.
type EmbedConfig struct {
	// BaseURL includes the version prefix (http://127.0.0.1:11434/v1);
	// requests go to BaseURL + "/embeddings".
	BaseURL string
	Model   string
	// APIKey, when set, is sent as "Authorization: Bearer KEY".
	APIKey string
	// Dims is the vector length, required (> 0): the vector index is sized
	// before the first text is embedded, so it cannot be learnt from a
	// reply. It is sent as "dimensions" so models with shortenable vectors
	// (text-embedding-3-*, Matryoshka models) produce exactly this length.
	Dims int
	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration
	// BatchSize is the most texts per request; 0 means DefaultBatchSize.
	BatchSize int
}

// Embedder is the OpenAI-compatible route of appliance.Embedder. It is safe
// for concurrent use.
type Embedder struct {
	cfg EmbedConfig
	p   *poster
	// omitDims is set once the server has rejected the "dimensions"
	// parameter (OpenAI's ada-002, vLLM for non-Matryoshka models, older
	// servers). From then on it is left out and only the length check
	// guards the vector size.
	omitDims atomic.Bool
}

var _ appliance.Embedder = (*Embedder)(nil)

// NewEmbedder returns an embedder for cfg. It panics when cfg.Dims is not
// positive: that is a wiring error (appliance.Config.Validate rejects it),
// and an embedder that cannot say its Dims cannot be used at all.
func NewEmbedder(cfg EmbedConfig) *Embedder {
	if cfg.Dims <= 0 {
		panic(fmt.Sprintf("llm.NewEmbedder: dims must be positive, got %d", cfg.Dims))
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	p := newPoster("embeddings", cfg.BaseURL, "/embeddings", cfg.APIKey, cfg.Model, cfg.Timeout, 0, slog.New(slog.DiscardHandler))
	// About 24 bytes of JSON per float ("-0.0123456789012345," plus
	// slack), with room for a base64-free reply of the whole batch and its
	// envelope; never below the chat cap.
	p.limit = max(MaxResponseBytes, int64(cfg.BatchSize)*int64(cfg.Dims)*24+64<<10)
	return &Embedder{cfg: cfg, p: p}
}

// Model names the vector space: "openai:" + model + ":" + dims. A change of
// model or dimensions is a new space and triggers re-embedding.
func (e *Embedder) Model() string { return "openai:" + e.cfg.Model + ":" + strconv.Itoa(e.cfg.Dims) }

// Dims is the length of every vector Embed returns.
func (e *Embedder) Dims() int { return e.cfg.Dims }

type embedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     int      `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format"`
}

type embedResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// Embed returns one L2-normalised vector per text, in order, embedding in
// batches of BatchSize. Every vector must have Dims entries.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		batch := texts[start:min(start+e.cfg.BatchSize, len(texts))]
		vecs, err := e.embedBatch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed texts %d-%d of %d: %w", start, start+len(batch)-1, len(texts), err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	vecs, err := e.request(ctx, batch, !e.omitDims.Load())
	var se *StatusError
	if err != nil && !e.omitDims.Load() && errors.As(err, &se) &&
		(se.Status == http.StatusBadRequest || se.Status == http.StatusUnprocessableEntity) {
		// Most likely the "dimensions" parameter; try once without it. If the
		// model's native length is Dims, that works and is remembered; if
		// not, the length check reports the real problem.
		vecs, err = e.request(ctx, batch, false)
		if err == nil {
			e.omitDims.Store(true)
		}
	}
	return vecs, err
}

func (e *Embedder) request(ctx context.Context, batch []string, sendDims bool) ([][]float32, error) {
	req := embedRequest{Model: e.cfg.Model, Input: batch, EncodingFormat: "float"}
	if sendDims {
		req.Dimensions = e.cfg.Dims
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings: encode request: %w", err)
	}
	var vecs [][]float32
	err = e.p.post(ctx, body, func(data []byte) error {
		var err error
		vecs, err = e.decode(data, len(batch))
		return err
	})
	return vecs, err
}

// decode checks the reply covers every input exactly once with a vector of
// Dims finite numbers, orders the vectors by index and normalises them.
func (e *Embedder) decode(data []byte, n int) ([][]float32, error) {
	var resp embedResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, fmt.Errorf("%w: body is not an embeddings reply: %v", ErrMalformedReply, syntaxOnly(err))
	}
	if len(resp.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d inputs", ErrMalformedReply, len(resp.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range resp.Data {
		idx := i // servers that omit index answer in order
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx >= n || out[idx] != nil {
			return nil, fmt.Errorf("%w: index %d out of range or repeated", ErrMalformedReply, idx)
		}
		if len(d.Embedding) != e.cfg.Dims {
			return nil, fmt.Errorf("%w: vector %d has %d dims, want %d", ErrMalformedReply, idx, len(d.Embedding), e.cfg.Dims)
		}
		v, err := normalize(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("%w: vector %d: %v", ErrMalformedReply, idx, err)
		}
		out[idx] = v
	}
	return out, nil
}

// normalize scales v to unit length in float64, so float32 rounding happens
// once, at the end.
func normalize(v []float64) ([]float32, error) {
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	norm := math.Sqrt(sum)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return nil, errors.New("zero or non-finite vector")
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out, nil
}
