// Package onnx is a voice extractor over a neural speaker model the owner
// pulls (WeSpeaker and 3D-Speaker publish theirs as ONNX: 80-band log-mel
// filterbank frames in, shape [1, T, 80], an embedding out), run by
// onnxruntime. The runtime is a shared library loaded when the extractor
// is made (scripts/onnxruntime.sh fetches the one the npm package
// onnxruntime-node ships): without it, or without a model, the appliance
// says so and keeps the built-in extractor.
package onnx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// Config is how to load a model.
type Config struct {
	Model   string // the .onnx file
	Library string // libonnxruntime (.so, .dylib, .dll)
	// Threshold is the model's same-voice cosine distance (default 0.5:
	// WeSpeaker's models score one voice above 0.5 cosine similarity).
	Threshold float64
	// Bands is the filterbank size the model takes (default 80).
	Bands int
}

// Extractor runs one model. It is safe for concurrent use.
type Extractor struct {
	cfg     Config
	name    string
	mu      sync.Mutex
	session *ort.DynamicAdvancedSession
}

var (
	initOnce sync.Once
	initErr  error
	initLib  string
)

// New loads the runtime (once per process) and the model.
func New(cfg Config) (*Extractor, error) {
	if cfg.Threshold == 0 {
		cfg.Threshold = 0.5
	}
	if cfg.Bands == 0 {
		cfg.Bands = 80
	}
	if _, err := os.Stat(cfg.Model); err != nil {
		return nil, fmt.Errorf("speaker model: %w", err)
	}
	if _, err := os.Stat(cfg.Library); err != nil {
		return nil, fmt.Errorf("onnxruntime library (scripts/onnxruntime.sh fetches it): %w", err)
	}
	initOnce.Do(func() {
		initLib = cfg.Library
		ort.SetSharedLibraryPath(cfg.Library)
		initErr = ort.InitializeEnvironment()
	})
	if initErr != nil {
		return nil, fmt.Errorf("onnxruntime %s: %w", initLib, initErr)
	}
	ins, outs, err := ort.GetInputOutputInfo(cfg.Model)
	if err != nil {
		return nil, fmt.Errorf("speaker model %s: %w", cfg.Model, err)
	}
	if len(ins) != 1 || len(outs) < 1 || len(ins[0].Dimensions) != 3 {
		return nil, fmt.Errorf("speaker model %s: want one input of shape [1, T, %d] and an embedding out, have %d inputs and %d outputs",
			cfg.Model, cfg.Bands, len(ins), len(outs))
	}
	if d := ins[0].Dimensions[2]; d > 0 && int(d) != cfg.Bands {
		return nil, fmt.Errorf("speaker model %s takes %d bands, not %d", cfg.Model, d, cfg.Bands)
	}
	s, err := ort.NewDynamicAdvancedSession(cfg.Model, []string{ins[0].Name}, []string{outs[0].Name}, nil)
	if err != nil {
		return nil, fmt.Errorf("speaker model %s: %w", cfg.Model, err)
	}
	return &Extractor{cfg: cfg, name: "onnx:" + filepath.Base(cfg.Model), session: s}, nil
}

// Name implements speaker.Extractor.
func (e *Extractor) Name() string { return e.name }

// Threshold implements speaker.Extractor.
func (e *Extractor) Threshold() float64 { return e.cfg.Threshold }

// Embed implements speaker.Extractor.
func (e *Extractor) Embed(_ context.Context, pcm []int16) ([]float32, error) {
	feats := speaker.Fbank(pcm, e.cfg.Bands, 20, 7600)
	if len(feats) < 50 {
		return nil, speaker.ErrTooShort
	}
	flat := make([]float32, 0, len(feats)*e.cfg.Bands)
	for _, f := range feats {
		flat = append(flat, f...)
	}
	in, err := ort.NewTensor(ort.NewShape(1, int64(len(feats)), int64(e.cfg.Bands)), flat)
	if err != nil {
		return nil, err
	}
	defer in.Destroy()
	outs := []ort.Value{nil}
	e.mu.Lock()
	err = e.session.Run([]ort.Value{in}, outs)
	e.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("speaker model: %w", err)
	}
	defer outs[0].Destroy()
	t, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, errors.New("speaker model: the embedding is not float32")
	}
	return append([]float32(nil), t.GetData()...), nil
}

// Close frees the model.
func (e *Extractor) Close() error { return e.session.Destroy() }
