package pocketsphinx

// Engine is one PocketSphinx decoder outside any route: no VAD, no pool,
// each recording decoded whole. It is the baseline the benchmarks and the
// real-speech tests hold the routes to ("the engine alone on the same
// audio"). Not safe for concurrent use.
type Engine struct{ d decoder }

// NewEngine loads a decoder from modelDir ("" is DefaultModelDir).
func NewEngine(modelDir string) (*Engine, error) {
	if modelDir == "" {
		modelDir = DefaultModelDir
	}
	if err := checkModel(modelDir); err != nil {
		return nil, err
	}
	d, err := newDecoder(modelDir)
	if err != nil {
		return nil, err
	}
	return &Engine{d: d}, nil
}

// Decode is what the engine hears in one 16 kHz mono recording, its words
// joined by spaces.
func (e *Engine) Decode(pcm []int16) (string, error) {
	u, err := e.d.decode(pcm)
	if err != nil {
		return "", err
	}
	return text(u.words), nil
}

// Close frees the decoder.
func (e *Engine) Close() { e.d.close() }
