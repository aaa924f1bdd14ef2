package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestModelsCommand: hearth models against a local mirror serving a
// generated file; no real download.
func TestModelsCommand(t *testing.T) {
	t.Parallel()
	weights := bytes.Repeat([]byte("ggml test weights "), 20_000)
	sum := sha256.Sum256(weights)
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ggml-mine.bin" {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(weights))
	}))
	defer mirror.Close()
	catalog := filepath.Join(t.TempDir(), "catalog.json")
	os.WriteFile(catalog, []byte(fmt.Sprintf(`[{"name":"mine","size":%d,"sha256":%q,"english":true}]`, len(weights), hex.EncodeToString(sum[:]))), 0o600)
	data := t.TempDir()
	flags := []string{"--data", data, "--models-url", mirror.URL, "--models-catalog", catalog}

	// Before any pull, verify says there is nothing to verify (silence read
	// as "all verified") and how to pull one.
	out, errOut, code := cli(t, append([]string{"models", "verify"}, flags...)...)
	if code != 0 || !strings.Contains(out, "no models pulled") || !strings.Contains(out, "hearth models pull base.en --data "+data) {
		t.Fatalf("verify with nothing pulled: exit %d %q %q", code, out, errOut)
	}
	out, errOut, code = cli(t, append([]string{"models", "pull", "mine"}, flags...)...)
	path := filepath.Join(data, "models", "ggml-mine.bin")
	if code != 0 || strings.TrimSpace(out) != path || !strings.Contains(errOut, "mine: 100%") || !strings.Contains(errOut, "verified") {
		t.Fatalf("pull: exit %d\n%s\n%s", code, out, errOut)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("model file %v %v", st, err)
	}
	out, _, code = cli(t, append([]string{"models", "list"}, flags...)...)
	if code != 0 || !strings.Contains(out, "base.en") || !regexpLine(out, "mine", "yes") || regexpLine(out, "base.en ", "yes") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	if out, _, code = cli(t, append([]string{"models", "verify"}, flags...)...); code != 0 || !strings.Contains(out, "mine: ok") {
		t.Fatalf("verify: exit %d %s", code, out)
	}
	os.WriteFile(path, bytes.Repeat([]byte("x"), len(weights)), 0o600)
	if out, errOut, code = cli(t, append([]string{"models", "verify", "mine"}, flags...)...); code != 1 || !strings.Contains(out, "mine: BAD") || !strings.Contains(errOut, "pull them again") {
		t.Fatalf("verify a damaged model: exit %d %s %s", code, out, errOut)
	}
	if _, errOut, code = cli(t, append([]string{"models", "rm", "mine"}, flags...)...); code != 0 || !strings.Contains(errOut, "removed mine") {
		t.Fatalf("rm: exit %d %s", code, errOut)
	}
	if _, errOut, code = cli(t, append([]string{"models", "pull", "huge"}, flags...)...); code != 2 || !strings.Contains(errOut, `no model "huge"`) {
		t.Fatalf("unknown model: exit %d %s", code, errOut)
	}
	// A catalog model the mirror does not have: a clear error, nothing left.
	if _, errOut, code = cli(t, append([]string{"models", "pull", "tiny.en"}, flags...)...); code != 1 || !strings.Contains(errOut, "404") {
		t.Fatalf("missing upstream: exit %d %s", code, errOut)
	}
	if left, _ := filepath.Glob(filepath.Join(data, "models", "*.part")); len(left) != 0 {
		t.Fatalf("partial downloads left: %v", left)
	}
	// A mirror that cannot be reached (a box offline reads the same kind of
	// sentence): what to do, not the dialer's words or an internal marker.
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, errOut, code = cli(t, "models", "pull", "mine", "--data", data, "--models-url", closed.URL, "--models-catalog", catalog)
	if code != 1 || !strings.Contains(errOut, "cannot be reached: check --models-url") || strings.Contains(errOut, "permanent") || strings.Contains(errOut, "dial tcp") {
		t.Fatalf("unreachable mirror: exit %d %q", code, errOut)
	}
}

// regexpLine reports whether a line starts with name and ends with last.
func regexpLine(out, name, last string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, name) && strings.HasSuffix(strings.TrimSpace(l), last) {
			return true
		}
	}
	return false
}
