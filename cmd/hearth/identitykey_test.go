package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/idtoken"
)

// TestUnreadableIdentityKeyStopsServe: the identity key is read beside
// start-up, not before it, and a key that cannot be used still stops
// `hearth serve` with the reason, as it did when it was read first.
func TestUnreadableIdentityKeyStopsServe(t *testing.T) {
	data := t.TempDir()
	mustCLI(t, "users", "add", "--data", data, "--name", "Ann")
	if err := os.WriteFile(filepath.Join(data, idtoken.KeyFile), []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cli(t, "serve", "--data", data, "--addr", "127.0.0.1:0")
	if code == 0 {
		t.Fatalf("serve with an unreadable identity key exited 0\n%s", stderr)
	}
	if !strings.Contains(stderr, "identity key") {
		t.Errorf("serve's error does not name the identity key:\n%s", stderr)
	}
}

// TestFirstStartMakesTheIdentityKey: on a first start the key is made
// beside start-up; a token issued with it afterwards authenticates.
func TestFirstStartMakesTheIdentityKey(t *testing.T) {
	data := t.TempDir()
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ann")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	if st, body := srv.call(t, "GET", "/v3/speech-profile", token, ""); st != 200 {
		t.Fatalf("GET /v3/speech-profile with a token from the key serve made: %d %s", st, body)
	}
	if st, body := srv.call(t, "GET", "/v3/speech-profile", token+"x", ""); st != 401 {
		t.Fatalf("GET /v3/speech-profile with a forged token: %d %s, want 401", st, body)
	}
}
