package speaker_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// fakeEmbeddingService speaks the reference's embedding API: POST a
// multipart "file" WAV, get the vector. It "embeds" with the built-in
// extractor, so the vectors mean something, and answers in the shape asked.
func fakeEmbeddingService(t *testing.T, shape string) *httptest.Server {
	ex := speaker.NewBuiltin()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v2/embedding" {
			http.NotFound(w, r)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, "no file", http.StatusBadRequest)
			return
		}
		b, _ := io.ReadAll(f)
		if len(b) < 44 || string(b[:4]) != "RIFF" {
			http.Error(w, "not a WAV", http.StatusBadRequest)
			return
		}
		pcm := make([]int16, (len(b)-44)/2)
		for i := range pcm {
			pcm[i] = int16(uint16(b[44+2*i]) | uint16(b[45+2*i])<<8)
		}
		v, err := ex.Embed(r.Context(), pcm)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		switch shape {
		case "array":
			json.NewEncoder(w).Encode(v)
		case "broken":
			io.WriteString(w, `{"oops":`)
		default:
			json.NewEncoder(w).Encode(map[string]any{"embedding": v})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTPExtractor(t *testing.T) {
	for _, shape := range []string{"array", "object"} {
		srv := fakeEmbeddingService(t, shape)
		ex, err := speaker.NewHTTP(srv.URL+"/v2/embedding", 0.048)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ex.Embed(context.Background(), say(t, "slt", sentences[0]))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := ex.Embed(context.Background(), say(t, "slt", sentences[1]))
		c, _ := ex.Embed(context.Background(), say(t, "kal", sentences[1]))
		if speaker.Distance(a, b) >= ex.Threshold() || speaker.Distance(a, c) < ex.Threshold() {
			t.Fatalf("%s: same voice %.3f, other voice %.3f", shape, speaker.Distance(a, b), speaker.Distance(a, c))
		}
		if !strings.HasPrefix(ex.Name(), "http:127.0.0.1") {
			t.Errorf("name %q", ex.Name())
		}
	}
	broken, _ := speaker.NewHTTP(fakeEmbeddingService(t, "broken").URL+"/v2/embedding", 0.4)
	if _, err := broken.Embed(context.Background(), say(t, "slt", sentences[0])); err == nil {
		t.Error("a broken answer was taken")
	}
	wrongPath, _ := speaker.NewHTTP(fakeEmbeddingService(t, "object").URL+"/nope", 0.4)
	if _, err := wrongPath.Embed(context.Background(), say(t, "slt", sentences[0])); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a 404: %v", err)
	}
	for _, bad := range []struct {
		url string
		th  float64
	}{{"ftp://x/y", 0.4}, {"http://box/v2/embedding", 0}, {"http://box/v2/embedding", 2.5}} {
		if _, err := speaker.NewHTTP(bad.url, bad.th); err == nil {
			t.Errorf("%v was accepted", bad)
		}
	}
}
