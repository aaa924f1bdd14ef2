package speaker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// HTTP is an extractor that calls an embedding service on the LAN, the
// reference's own design (its hosted API takes POST /v2/embedding with a
// multipart "file" WAV and answers the vector): a GPU box running a
// neural speaker model (pyannote, WeSpeaker, 3D-Speaker) serves better
// embeddings than the built-in one. Its threshold is the service's model's
// and is the owner's to set (the reference uses cosine distance 0.45 with
// its 512-dimension model).
type HTTP struct {
	url       string
	name      string
	threshold float64
	client    *http.Client
}

// NewHTTP checks the service's address (e.g. http://gpu-box.lan:8080/v2/embedding).
func NewHTTP(endpoint string, threshold float64) (*HTTP, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("speaker embedding service %q is not an http(s) URL", endpoint)
	}
	if threshold <= 0 || threshold >= 2 {
		return nil, fmt.Errorf("speaker embedding threshold %v: a cosine distance between 0 and 2 is needed", threshold)
	}
	return &HTTP{url: endpoint, name: "http:" + u.Host + u.Path, threshold: threshold,
		client: &http.Client{Timeout: 30 * time.Second}}, nil
}

// Name implements Extractor: the service's address, so that embeddings of
// another service are never compared with its own.
func (h *HTTP) Name() string { return h.name }

// Threshold implements Extractor.
func (h *HTTP) Threshold() float64 { return h.threshold }

// Embed implements Extractor.
func (h *HTTP) Embed(ctx context.Context, pcm []int16) ([]float32, error) {
	if len(pcm) < sampleRate/2 {
		return nil, ErrTooShort
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "speech.wav")
	if err != nil {
		return nil, err
	}
	fw.Write(audio.WAV(pcm, sampleRate))
	mw.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, &body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("speaker embedding service: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("speaker embedding service: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("speaker embedding service answered %d", resp.StatusCode)
	}
	return parseVector(data)
}

// parseVector reads the service's answer: a JSON array of numbers, or an
// object holding one under "embedding" or "vector".
func parseVector(data []byte) ([]float32, error) {
	var v []float32
	if strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("speaker embedding service: %w", err)
		}
	} else {
		var obj struct {
			Embedding []float32 `json:"embedding"`
			Vector    []float32 `json:"vector"`
		}
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, fmt.Errorf("speaker embedding service: %w", err)
		}
		v = obj.Embedding
		if v == nil {
			v = obj.Vector
		}
	}
	if len(v) == 0 {
		return nil, fmt.Errorf("speaker embedding service answered no vector")
	}
	return normalize(v), nil
}
