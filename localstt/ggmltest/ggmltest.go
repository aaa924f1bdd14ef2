// Package ggmltest writes small whisper.cpp models with random weights,
// in ggml's file format: they load in milliseconds and run, which proves
// the loading and inference code without the weights no registry here
// ships. What such a model "hears" is noise, not words.
package ggmltest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
)

// Shape of the generated model: whisper's layout, tiny sizes.
type Shape struct {
	Vocab  int // 51864 is English-only; 51865 and more is multilingual
	State  int // width of the encoder and decoder
	Heads  int
	Layers int // encoder and decoder layers each
}

// Tiny is the default: an English-only model of about 8 MB.
var Tiny = Shape{Vocab: 51864, State: 64, Heads: 1, Layers: 1}

// whisper's fixed dimensions: 30 s windows of 80 mel bands give 1500
// audio positions; text context of 448 tokens; 201 FFT bins.
const (
	audioCtx = 1500
	textCtx  = 448
	mels     = 80
	fftBins  = 201
	magic    = 0x67676d6c // "ggml"
	typeF32  = 0
	typeF16  = 1
)

// Write writes a model of shape s to path. Weights are F16 (ftype 1: an
// all-F32 model trips an assert in whisper.cpp), small and random; the
// vocabulary holds the byte tokens, among them " ".
func Write(path string, s Shape, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	g := gen{w: w, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.i32(magic)
	for _, v := range []int{s.Vocab, audioCtx, s.State, s.Heads, s.Layers, textCtx, s.State, s.Heads, s.Layers, mels, 1} {
		g.i32(v)
	}
	// Mel filters: a triangular bank is enough to make features.
	g.i32(mels)
	g.i32(fftBins)
	for m := range mels {
		for k := range fftBins {
			centre := float64(m+1) * fftBins / (mels + 2)
			g.f32(float32(math.Max(0, 1-math.Abs(float64(k)-centre)/2)))
		}
	}
	// Vocabulary: the 256 byte tokens; whisper.cpp adds the special ones.
	g.i32(256)
	for b := range 256 {
		g.i32(1)
		g.w.WriteByte(byte(b))
	}
	n := s.State
	g.tensor("encoder.positional_embedding", typeF32, n, audioCtx)
	g.tensor("encoder.conv1.weight", typeF16, 3, mels, n)
	g.tensor("encoder.conv1.bias", typeF32, 1, n)
	g.tensor("encoder.conv2.weight", typeF16, 3, n, n)
	g.tensor("encoder.conv2.bias", typeF32, 1, n)
	for i := range s.Layers {
		g.block(fmt.Sprintf("encoder.blocks.%d.", i), n, false)
	}
	g.tensor("encoder.ln_post.weight", typeF32, n)
	g.tensor("encoder.ln_post.bias", typeF32, n)
	g.tensor("decoder.positional_embedding", typeF32, n, textCtx)
	g.tensor("decoder.token_embedding.weight", typeF16, n, s.Vocab)
	for i := range s.Layers {
		g.block(fmt.Sprintf("decoder.blocks.%d.", i), n, true)
	}
	g.tensor("decoder.ln.weight", typeF32, n)
	g.tensor("decoder.ln.bias", typeF32, n)
	if g.err != nil {
		return g.err
	}
	return w.Flush()
}

type gen struct {
	w   *bufio.Writer
	rng *rand.Rand
	err error
}

func (g *gen) i32(v int) {
	if g.err == nil {
		g.err = binary.Write(g.w, binary.LittleEndian, int32(v))
	}
}

func (g *gen) f32(v float32) {
	if g.err == nil {
		g.err = binary.Write(g.w, binary.LittleEndian, math.Float32bits(v))
	}
}

// block writes one transformer block: attention, cross-attention for the
// decoder, and the MLP.
func (g *gen) block(p string, n int, cross bool) {
	attn := func(q string) {
		g.tensor(p+q+"_ln.weight", typeF32, n)
		g.tensor(p+q+"_ln.bias", typeF32, n)
		g.tensor(p+q+".query.weight", typeF16, n, n)
		g.tensor(p+q+".query.bias", typeF32, n)
		g.tensor(p+q+".key.weight", typeF16, n, n)
		g.tensor(p+q+".value.weight", typeF16, n, n)
		g.tensor(p+q+".value.bias", typeF32, n)
		g.tensor(p+q+".out.weight", typeF16, n, n)
		g.tensor(p+q+".out.bias", typeF32, n)
	}
	attn("attn")
	if cross {
		attn("cross_attn")
	}
	g.tensor(p+"mlp_ln.weight", typeF32, n)
	g.tensor(p+"mlp_ln.bias", typeF32, n)
	g.tensor(p+"mlp.0.weight", typeF16, n, 4*n)
	g.tensor(p+"mlp.0.bias", typeF32, 4*n)
	g.tensor(p+"mlp.2.weight", typeF16, 4*n, n)
	g.tensor(p+"mlp.2.bias", typeF32, n)
}

// tensor writes a tensor header (dims, name length, type, shape, name)
// and random data of that type.
func (g *gen) tensor(name string, typ int, shape ...int) {
	g.i32(len(shape))
	g.i32(len(name))
	g.i32(typ)
	count := 1
	for _, d := range shape {
		g.i32(d)
		count *= d
	}
	if g.err == nil {
		_, g.err = g.w.WriteString(name)
	}
	for range count {
		v := float32(g.rng.NormFloat64() * 0.02)
		if typ == typeF16 {
			if g.err == nil {
				g.err = binary.Write(g.w, binary.LittleEndian, f16(v))
			}
			continue
		}
		g.f32(v)
	}
}

// f16 converts to IEEE half precision (small values, no NaN or infinity).
func f16(v float32) uint16 {
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	exp := int((b>>23)&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case exp <= 0:
		return sign // too small: zero
	case exp >= 31:
		return sign | 0x7bff // clamp to the largest finite
	}
	return sign | uint16(exp)<<10 | uint16(mant>>13)
}
