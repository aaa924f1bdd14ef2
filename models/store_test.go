package models_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/models"
)

// weights is a generated stand-in for a model file.
func weights(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31 + i/7)
	}
	return b
}

func digest(b []byte) (s1, s256 string) {
	h1, h2 := sha1.Sum(b), sha256.Sum256(b)
	return hex.EncodeToString(h1[:]), hex.EncodeToString(h2[:])
}

// server serves files by name with ranges; cut makes its first answer stop
// halfway, as a dropped connection would.
func server(t *testing.T, files map[string][]byte, cut bool) (*httptest.Server, *atomic.Int32, *atomic.Bool) {
	var requests atomic.Int32
	var ranged atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		if r.Header.Get("Range") != "" {
			ranged.Store(true)
		}
		b, ok := files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if cut && n == 1 {
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
			w.WriteHeader(http.StatusOK)
			w.Write(b[:len(b)/2])
			hj, _ := w.(http.Hijacker)
			conn, _, _ := hj.Hijack()
			conn.Close()
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b))
	}))
	t.Cleanup(srv.Close)
	return srv, &requests, &ranged
}

func TestPullResumesVerifiesAndRemoves(t *testing.T) {
	t.Parallel()
	data := weights(300_000)
	s1, s256 := digest(data)
	m := models.Model{Name: "test", Size: int64(len(data)), SHA256: s256, SHA1: s1}
	srv, requests, ranged := server(t, map[string][]byte{m.File(): data}, true)
	st := &models.Store{Dir: filepath.Join(t.TempDir(), "models"), BaseURL: srv.URL, Catalog: []models.Model{m}}

	var last int64
	if err := st.Pull(context.Background(), m, func(done, total int64) { last = done }); err != nil {
		t.Fatal(err)
	}
	if !ranged.Load() || requests.Load() < 2 {
		t.Fatalf("the cut download was not resumed with a range (%d requests)", requests.Load())
	}
	if last != m.Size {
		t.Fatalf("progress ended at %d of %d", last, m.Size)
	}
	info, err := os.Stat(st.Path(m))
	if err != nil || info.Mode().Perm() != 0o600 || !st.Present(m) || st.Verify(m) != nil {
		t.Fatalf("pulled file %v %v", info, err)
	}
	if _, err := os.Stat(st.Path(m) + ".part"); !os.IsNotExist(err) {
		t.Fatal("the partial download was left behind")
	}
	// Pulling again finds it whole and downloads nothing.
	before := requests.Load()
	if err := st.Pull(context.Background(), m, nil); err != nil || requests.Load() != before {
		t.Fatalf("second pull: %v, %d requests", err, requests.Load()-before)
	}
	// A damaged file no longer verifies.
	os.WriteFile(st.Path(m), weights(len(data)-1), 0o600)
	if err := st.Verify(m); err == nil {
		t.Fatal("a damaged model verified")
	}
	if err := st.Remove(m); err != nil || st.Present(m) {
		t.Fatalf("remove: %v", err)
	}
	if err := st.Remove(m); err == nil || !strings.Contains(err.Error(), "not pulled") {
		t.Fatalf("removing twice: %v", err)
	}
}

func TestPullRefusesWhatDoesNotMatch(t *testing.T) {
	t.Parallel()
	data := weights(50_000)
	s1, _ := digest(data)
	wrong := models.Model{Name: "wrong", Size: int64(len(data)), SHA1: strings.Repeat("0", 40)}
	byName := models.Model{Name: "sha1only", Size: int64(len(data)), SHA1: s1}
	srv, requests, _ := server(t, map[string][]byte{wrong.File(): data, byName.File(): data}, false)
	st := &models.Store{Dir: t.TempDir(), BaseURL: srv.URL, Catalog: []models.Model{wrong, byName}}

	err := st.Pull(context.Background(), wrong, nil)
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), "removed") {
		t.Fatalf("wrong checksum: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(st.Dir, "*")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
	// Upstream's SHA-1 is enough when no SHA-256 is known.
	if err := st.Pull(context.Background(), byName, nil); err != nil {
		t.Fatal(err)
	}
	// A model the server does not have fails at once, without retries.
	missing := models.Model{Name: "missing", Size: 10, SHA1: s1}
	before := requests.Load()
	if err := st.Pull(context.Background(), missing, nil); err == nil || !strings.Contains(err.Error(), "404") || requests.Load()-before != 1 {
		t.Fatalf("missing: %v after %d requests", err, requests.Load()-before)
	}
	if _, err := st.Find("nonsense"); err == nil || !strings.Contains(err.Error(), "known: wrong, sha1only") {
		t.Fatalf("find: %v", err)
	}
}

func TestCatalog(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, m := range models.Catalog {
		switch m.Kind {
		case models.KindWhisper:
			if seen[m.Name] || m.Size < 1e7 || len(m.SHA1) != 40 || (m.SHA256 != "" && len(m.SHA256) != 64) ||
				m.English != strings.Contains(m.Name, ".en") || !strings.HasPrefix(m.File(), "ggml-") {
				t.Errorf("catalog entry %+v", m)
			}
		case models.KindSpeaker:
			// Pinned: a revision's address, the SHA-256 of its bytes.
			if seen[m.Name] || m.Size < 1e6 || len(m.SHA256) != 64 || !strings.HasSuffix(m.File(), ".onnx") ||
				!strings.HasPrefix(m.URL, "https://") || !strings.Contains(m.URL, "/resolve/") || strings.Contains(m.URL, "/resolve/main/") {
				t.Errorf("speaker model %+v", m)
			}
		default:
			t.Errorf("unknown kind %q", m.Kind)
		}
		seen[m.Name] = true
	}
	if !seen["wespeaker-resnet34-lm"] {
		t.Error("catalog lacks a speaker model")
	}
	for _, want := range []string{"tiny", "tiny.en", "base", "base.en", "small", "small.en", "base-q5_1", "tiny-q8_0"} {
		if !seen[want] {
			t.Errorf("catalog lacks %s", want)
		}
	}
	path := filepath.Join(t.TempDir(), "mirror.json")
	os.WriteFile(path, []byte(`[{"name":"base.en","size":10,"sha1":"`+strings.Repeat("a", 40)+`"},{"name":"mine","size":5,"sha256":"`+strings.Repeat("b", 64)+`"}]`), 0o600)
	extra, err := models.LoadCatalog(path)
	if err != nil {
		t.Fatal(err)
	}
	merged := models.Merge(models.Catalog, extra)
	if len(merged) != len(models.Catalog)+1 {
		t.Fatalf("merged %d entries", len(merged))
	}
	os.WriteFile(path, []byte(`[{"name":"nochecksum","size":5}]`), 0o600)
	if _, err := models.LoadCatalog(path); err == nil {
		t.Fatal("an entry without a checksum was accepted")
	}
}
