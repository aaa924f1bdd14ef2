package embed

import (
	"context"
	"math"
	"strconv"
	"sync"

	"github.com/hearth-appliance/hearth/appliance"
)

// DefaultDims is the vector length when none is given. It matches the common
// small sentence-embedding models, so the index keeps its shape if a remote
// 384-dimensional model replaces the built-in one.
const DefaultDims = 384

// algoVersion names the feature and hashing scheme. Model includes it, and a
// change of Model makes the search indexer drop and re-embed every stored
// vector, so bump it with any change that alters vectors: tokeniser,
// stemmer, stop words, rank list, concept table, weights, hashing.
// v2 added meaning classes (concepts.go).
const algoVersion = "v2"

// maxPooledFeatures keeps the pool from holding on to the working memory of
// an unusually long transcript.
const maxPooledFeatures = 1 << 16

// Builtin is the offline embedder. It is safe for concurrent use.
type Builtin struct {
	dims int
	pool sync.Pool // of *scratch
}

var _ appliance.Embedder = (*Builtin)(nil)

// NewBuiltin returns an embedder of dims-dimensional vectors; dims ≤ 0 means
// DefaultDims.
func NewBuiltin(dims int) *Builtin {
	if dims <= 0 {
		dims = DefaultDims
	}
	return &Builtin{dims: dims}
}

// MinSimilarity is the built-in embedder's relevance floor: below this
// cosine similarity a neighbour is unrelated. Calibrated on the labelled
// set in appliance/search/relevance_test.go, in the middle of the range
// (0.15–0.20) where precision@5 and recall@5 were both highest.
const MinSimilarity = 0.18

// MinSimilarity reports the calibrated relevance floor (search.Calibrated).
func (b *Builtin) MinSimilarity() float64 { return MinSimilarity }

// Model identifies the vector space, e.g. "builtin-hash-384-v2".
func (b *Builtin) Model() string {
	return "builtin-hash-" + strconv.Itoa(b.Dims()) + "-" + algoVersion
}

// Dims returns the vector length.
func (b *Builtin) Dims() int {
	if b.dims <= 0 {
		return DefaultDims
	}
	return b.dims
}

// Embed returns one unit vector per text. It checks ctx between texts.
//
// A text with no words at all (empty, blanks, punctuation) gets the unit
// vector of a fixed "empty" feature rather than a zero vector, so cosine
// distance is always defined: all such texts are identical to each other and
// nearly orthogonal to everything else.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	dims := b.Dims()
	out := make([][]float32, len(texts))
	backing := make([]float32, len(texts)*dims)
	s, _ := b.pool.Get().(*scratch)
	if s == nil {
		s = new(scratch)
	}
	defer func() {
		if cap(s.feats) <= maxPooledFeatures {
			b.pool.Put(s)
		}
	}()
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := backing[i*dims : (i+1)*dims : (i+1)*dims]
		s.embed(text, v)
		out[i] = v
	}
	return out, nil
}

// embed writes the unit vector of text into v.
func (s *scratch) embed(text string, v []float32) {
	s.reset(len(v))
	s.tokenize(text)
	s.extract()
	if len(s.feats) == 0 {
		s.add(newHasher(kindEmpty), 1)
	}
	s.project()
	if !normalize(s.acc, v) {
		// Features cancelled out exactly (vanishingly rare): fall back to
		// the empty vector rather than return a zero one.
		clear(s.acc)
		scatter(s.acc, uint64(newHasher(kindEmpty)), 1)
		normalize(s.acc, v)
	}
}

// normalize writes acc/|acc| to v and reports whether acc was nonzero.
func normalize(acc []float64, v []float32) bool {
	var ss float64
	for _, x := range acc {
		// The conversion forbids fusing into an FMA, which some
		// architectures would do, so sums agree across machines.
		ss += float64(x * x)
	}
	if ss == 0 || math.IsInf(ss, 0) || math.IsNaN(ss) {
		return false
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range acc {
		v[i] = float32(x * inv)
	}
	return true
}
