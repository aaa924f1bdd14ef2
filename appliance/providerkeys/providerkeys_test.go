package providerkeys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestSetLoadAndRemove(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), "provider-keys.json"), Providers: []string{"deepgram", "soniox"}}
	if keys, err := f.Load(); err != nil || len(keys) != 0 {
		t.Fatalf("no file: %v %v, want no keys", keys, err)
	}
	if err := f.Set("deepgram", "dg-secret"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("soniox", "sx-secret"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	keys, err := f.Load()
	if err != nil || keys["deepgram"] != "dg-secret" || keys["soniox"] != "sx-secret" {
		t.Fatalf("load: %v %v", keys, err)
	}
	if err := f.Set("deepgram", ""); err != nil {
		t.Fatal(err)
	}
	conf, err := f.Configured()
	if err != nil || conf["deepgram"] || !conf["soniox"] {
		t.Fatalf("configured after removal: %v %v", conf, err)
	}
	if err := f.Set("acme", "k"); !errors.Is(err, ErrUnknownProvider) {
		t.Fatalf("unknown provider: %v", err)
	}
}
